import type { NextFunction, Request, Response } from 'express';
import zlib from 'node:zlib';
import { badRequest, tooLarge, unsupportedMedia } from '../errors.js';
import { MSG } from '../messages.js';
import type { BodyKind } from '../rest/route.js';

export interface BodyOptions {
  /** Largest accepted body, compressed or not. */
  maxBytes: number;
}

/** Reads the whole body into memory, refusing more than `max` bytes (413) as early as the headers allow. */
async function readRaw(req: Request, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) throw tooLarge('middleware', `${MSG.bodyTooLarge} (limit ${max} bytes)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw tooLarge('middleware', `${MSG.bodyTooLarge} (limit ${max} bytes)`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Undoes Content-Encoding (gzip, deflate) with the same size limit on the result, so a small bomb stays small. */
function decode(raw: Buffer, encoding: string | undefined, max: number): Buffer {
  const enc = (encoding ?? 'identity').toLowerCase().trim();
  try {
    if (enc === 'identity' || enc === '') return raw;
    if (enc === 'gzip' || enc === 'x-gzip') return zlib.gunzipSync(raw, { maxOutputLength: max });
    if (enc === 'deflate') return zlib.inflateSync(raw, { maxOutputLength: max });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge('middleware', `${MSG.bodyTooLarge} (limit ${max} bytes, decompressed)`);
    throw badRequest('middleware', `The request body could not be decompressed (${enc}).`);
  }
  throw unsupportedMedia('middleware', `Content-Encoding ${enc} is not supported; use gzip or deflate.`);
}

const isJson = (type: string | undefined) => !!type && /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type);

/**
 * Reads a route's body before authentication, keeping the bytes exactly as sent for request signatures.
 *   json       parsed into req.body (400 when malformed, 415 when not JSON)
 *   none       read (a signature may still cover it) but not interpreted
 *   multipart  kept raw for the route's form parser
 */
export function readBody(kind: Exclude<BodyKind, 'upload'>, opts: BodyOptions) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const raw = await readRaw(req, opts.maxBytes);
    req.bodySource = { kind: 'buffer', data: raw };
    req.body = undefined;
    if (raw.length === 0 || kind === 'none') return next();
    const type = req.headers['content-type'];
    if (kind === 'multipart') {
      if (!type || !/^multipart\/form-data/i.test(type))
        throw unsupportedMedia('middleware', 'The request body must be multipart/form-data.');
      return next();
    }
    if (!isJson(type)) throw unsupportedMedia('middleware', 'The request body must be JSON (Content-Type: application/json).');
    const text = decode(raw, req.headers['content-encoding'], opts.maxBytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    try {
      req.body = JSON.parse(text);
    } catch (err) {
      throw badRequest('middleware', `${MSG.badJson} ${(err as Error).message}`);
    }
    next();
  };
}
