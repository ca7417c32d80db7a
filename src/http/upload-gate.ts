import type { NextFunction, Request, Response } from 'express';
import { parseRequestDate, SIGNATURE_SCHEMES } from '../auth/signature.js';
import { AppError, tooLarge, unauthorized } from '../errors.js';
import type { Services } from '../services/index.js';
import { isUuid } from '../services/validate.js';

export interface UploadGateOptions {
  /** Uploads one caller may stream at once. */
  perCaller: number;
  /** Bytes of unfinished uploads one caller may hold on disk together. */
  diskBytesPerCaller: number;
}

/** What the gate hands to the body reader: who is uploading and how much more they may write. */
export interface UploadAdmission {
  caller: string;
  /** Counts bytes as they are written; returns false once the caller's disk budget is spent. */
  take(bytes: number): boolean;
}

/** Ends the answer with the connection, so an unread body is not drained into the next request. */
function refuse(req: Request, res: Response, err: AppError): AppError {
  res.setHeader('Connection', 'close');
  req.resume();
  return err;
}

/**
 * Runs before an upload body is read, from the headers alone: a caller without credentials, with a bad JWT, or
 * with an unknown API token or a RequestDate outside the window is refused before one byte reaches the disk.
 * Signed requests still have their digest checked over the stored body afterwards (the `authenticate`
 * middleware). Each caller (user or token) may stream `perCaller` uploads at once and hold
 * `diskBytesPerCaller` bytes of them.
 */
export function uploadGate(services: Services, opts: UploadGateOptions) {
  const active = new Map<string, { uploads: number; bytes: number }>();

  async function callerOf(req: Request): Promise<string> {
    const header = req.headers.authorization?.trim();
    if (!header) throw unauthorized('auth', 'Uploads need credentials: a Bearer JWT or a signed request.');
    const [scheme = '', credential = '', extra] = header.split(/\s+/);
    if (extra !== undefined || !credential) throw unauthorized('auth', 'The Authorization header must be "<scheme> <credential>".');
    const lower = scheme.toLowerCase();
    if (lower === 'bearer') {
      const session = await services.identity.authenticateJwt(credential);
      req.session = session;
      return `user:${session.userId}`;
    }
    if ((SIGNATURE_SCHEMES as readonly string[]).includes(lower)) {
      if (!isUuid(credential))
        throw unauthorized('auth', 'Signed request rejected: the token ID in the Authorization header is malformed (expected a UUID).');
      const requestDate = req.headers['requestdate'];
      const requestTime = typeof requestDate === 'string' ? parseRequestDate(requestDate.trim()) : undefined;
      if (!requestTime) throw unauthorized('auth', 'Signed request rejected: the RequestDate header is missing or malformed.');
      if (!req.headers['signature']) throw unauthorized('auth', 'Signed request rejected: the Signature header is missing.');
      await services.tokens.precheckSignedRequest({ tokenId: credential, requestDate: (requestDate as string).trim() });
      return `token:${credential.toLowerCase()}`;
    }
    throw unauthorized(
      'auth',
      `Unsupported authorization scheme "${scheme.slice(0, 32)}": use Bearer (JWT) or apisignature (signed request).`,
    );
  }

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let caller: string;
    try {
      caller = await callerOf(req);
    } catch (err) {
      throw err instanceof AppError ? refuse(req, res, err) : err;
    }
    const entry = active.get(caller) ?? { uploads: 0, bytes: 0 };
    if (entry.uploads >= opts.perCaller)
      throw refuse(
        req,
        res,
        new AppError(
          'RATE_LIMITED',
          'upload',
          `At most ${opts.perCaller} uploads per caller may run at once; retry when one has finished.`,
          {
            headers: { 'Retry-After': '5' },
          },
        ),
      );
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > opts.diskBytesPerCaller - entry.bytes)
      throw refuse(
        req,
        res,
        tooLarge('upload', `This upload would exceed the ${opts.diskBytesPerCaller} bytes one caller may have in flight.`),
      );
    entry.uploads++;
    active.set(caller, entry);
    let taken = 0;
    res.once('close', () => {
      entry.uploads--;
      entry.bytes -= taken;
      if (entry.uploads === 0) active.delete(caller);
    });
    req.uploadAdmission = {
      caller,
      take(bytes: number) {
        taken += bytes;
        entry.bytes += bytes;
        return entry.bytes <= opts.diskBytesPerCaller;
      },
    };
    next();
  };
}
