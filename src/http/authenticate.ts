import type { NextFunction, Request, Response } from 'express';
import type { AuthStrategy } from './auth/types.js';
import { unauthorized } from '../errors.js';
import { whenReady } from '../maybe-promise.js';

/**
 * Parses the Authorization header once and hands it to the strategies in turn. No header leaves the request
 * anonymous (guards then answer 401 where a caller is needed); a header no strategy claims is a 401.
 */
export function authenticate(strategies: AuthStrategy[]) {
  return (req: Request, _res: Response, next: NextFunction): void | Promise<void> => {
    req.session = null;
    const header = req.headers.authorization?.trim();
    if (!header) return next();
    const parts = header.split(/\s+/);
    if (parts.length !== 2) throw unauthorized('auth', 'The Authorization header must be "<scheme> <credential>".');
    const authReq = {
      scheme: parts[0]!.toLowerCase(),
      credential: parts[1]!,
      method: req.method,
      target: req.rawTarget,
      header: (name: string) => {
        const v = req.headers[name.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      },
      body: req.bodySource ?? { kind: 'buffer' as const, data: Buffer.alloc(0) },
    };
    // Strategies in turn, the first to claim the scheme deciding; an answer in hand goes on without a promise.
    const from = (i: number): void | Promise<void> => {
      if (i === strategies.length) {
        throw unauthorized(
          'auth',
          `Unsupported authorization scheme "${parts[0]!.slice(0, 32)}": use Bearer (JWT) or apisignature (signed request).`,
        );
      }
      return whenReady(strategies[i]!(authReq), (session) => {
        if (!session) return from(i + 1);
        req.session = session;
        next();
      });
    };
    return from(0);
  };
}
