import type { NextFunction, Request, Response } from 'express';
import { AppError, asAppError, internal, notFound } from '../errors.js';
import type { Logger } from '../logger.js';
import { MSG } from '../messages.js';
import { clip } from './input-guard.js';

export interface ErrorItem {
  context: string;
  message: string;
}

/** The API document's error wrapper. */
export function errorBody(status: number, requestId: string, errors: ErrorItem[]) {
  return { http_status: status, timestamp: new Date().toISOString(), request_id: requestId, errors };
}

/**
 * A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3); one that has and did not
 * arrive whole was refused before (or while) it was read.
 */
export const hasBody = (req: Request) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/**
 * Writes an AppError as the wrapper; a response already under way (e.g. cut off by its deadline) is left alone.
 * A refusal that leaves the body unread ends the connection once answered (what is still sent is discarded, never
 * read into memory), so a client cannot keep it by sending slowly.
 */
export function writeError(res: Response, err: AppError, requestId: string): void {
  if (res.headersSent) return;
  const req = res.req;
  if (req && !req.complete && hasBody(req)) {
    res.setHeader('Connection', 'close');
    req.resume();
  }
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  res.status(err.status).json(errorBody(err.status, requestId, [{ context: err.context, message: err.message }]));
}

/** Unknown routes are a 404 in the wrapper, never express's HTML page. */
export function notFoundHandler(req: Request, res: Response): void {
  writeError(res, notFound('router', `${MSG.routeNotFound} (${req.method} ${req.path})`), req.requestId);
}

/** Errors from express and its parsers that carry a 4xx status (e.g. a parameter that does not decode). */
function fromClientError(err: unknown): AppError | undefined {
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST';
  return new AppError(code, 'request', clip(err instanceof Error ? err.message : 'The request is malformed.'));
}

/** Last handler: AppErrors keep their status; body-parser style errors keep theirs; anything else is a logged 500. */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let app = asAppError(err) ?? fromClientError(err);
    if (!app) {
      log.error({ err, requestId: req.requestId, method: req.method, url: req.originalUrl }, 'unhandled error');
      app = internal('server', MSG.internal);
    }
    writeError(res, app, req.requestId ?? '');
  };
}
