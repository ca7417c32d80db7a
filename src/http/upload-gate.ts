import type { NextFunction, Request, Response } from 'express';
import { decodeSignature, parseRequestDate, SIGNATURE_SCHEMES } from '../auth/signature.js';
import { AppError, tooLarge, unauthorized } from '../errors.js';
import type { Services } from '../services/index.js';
import type { SignedBody } from '../services/identity/tokens.js';
import { isUuid } from '../services/common/validate.js';

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
  /** For a signed request: the digest to feed each body chunk as it is written (checked once the body ends). */
  signed?: SignedBody;
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
 * A signed request's digest is keyed here and taken while the body streams to disk (readUpload), so a mismatch is
 * refused when the last byte arrives and the file is never read back. Each caller (user or token) may stream `perCaller` uploads at once and hold
 * `diskBytesPerCaller` bytes of them.
 */
export function uploadGate(services: Services, opts: UploadGateOptions) {
  const active = new Map<string, { uploads: number; bytes: number }>();

  async function callerOf(req: Request): Promise<{ caller: string; signed?: SignedBody }> {
    const header = req.headers.authorization?.trim();
    if (!header) throw unauthorized('auth', 'Uploads need credentials: a Bearer JWT or a signed request.');
    const [scheme = '', credential = '', extra] = header.split(/\s+/);
    if (extra !== undefined || !credential) throw unauthorized('auth', 'The Authorization header must be "<scheme> <credential>".');
    const lower = scheme.toLowerCase();
    if (lower === 'bearer') {
      const session = await services.identity.authenticateJwt(credential);
      req.session = session;
      return { caller: `user:${session.userId}` };
    }
    if ((SIGNATURE_SCHEMES as readonly string[]).includes(lower)) {
      if (!isUuid(credential))
        throw unauthorized('auth', 'Signed request rejected: the token ID in the Authorization header is malformed (expected a UUID).');
      const requestDate = req.headers['requestdate'];
      const requestTime = typeof requestDate === 'string' ? parseRequestDate(requestDate.trim()) : undefined;
      if (!requestTime) throw unauthorized('auth', 'Signed request rejected: the RequestDate header is missing or malformed.');
      const sigHeader = req.headers['signature'];
      if (!sigHeader) throw unauthorized('auth', 'Signed request rejected: the Signature header is missing.');
      const signature = decodeSignature(String(sigHeader).trim());
      if (!signature)
        throw unauthorized(
          'auth',
          'Signed request rejected: the Signature header is malformed (expected standard base64 of a 32-byte HMAC-SHA256 digest).',
        );
      const signed = await services.tokens.beginSignedBody({
        tokenId: credential,
        method: req.method,
        target: req.rawTarget,
        requestDate: (requestDate as string).trim(),
        signature,
      });
      return { caller: `token:${credential.toLowerCase()}`, signed };
    }
    throw unauthorized(
      'auth',
      `Unsupported authorization scheme "${scheme.slice(0, 32)}": use Bearer (JWT) or apisignature (signed request).`,
    );
  }

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let caller: string;
    let signed: SignedBody | undefined;
    try {
      ({ caller, signed } = await callerOf(req));
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
      signed,
      take(bytes: number) {
        taken += bytes;
        entry.bytes += bytes;
        return entry.bytes <= opts.diskBytesPerCaller;
      },
    };
    next();
  };
}
