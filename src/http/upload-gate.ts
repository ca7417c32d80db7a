import type { NextFunction, Request, Response } from 'express';
import { AppError, tooLarge, unauthorized } from '../errors.js';

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
  if (!res.headersSent) res.setHeader('Connection', 'close');
  req.resume();
  return err;
}

/**
 * Runs after the headers were authenticated (src/http/authenticate.ts: a bad JWT, an unknown API token or a
 * RequestDate outside the window were refused there) and before an upload body is read: a caller without
 * credentials is refused before one byte reaches the disk. Each caller (user, client or token) may stream
 * `perCaller` uploads at once and hold `diskBytesPerCaller` bytes of them. A signed upload's digest is taken while
 * its body streams to disk (readUpload).
 */
export function uploadGate(opts: UploadGateOptions) {
  const active = new Map<string, { uploads: number; bytes: number }>();

  const callerOf = (req: Request, res: Response): string => {
    const s = req.session;
    if (s) return s.kind === 'user' ? `user:${s.userId}` : `token:${s.tokenId.toLowerCase()}`;
    if (req.bodyCredential) return req.bodyCredential.claimant;
    throw refuse(req, res, unauthorized('auth', 'Uploads need credentials: a Bearer JWT or a signed request.'));
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    const caller = callerOf(req, res);
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
