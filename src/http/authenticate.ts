import type { NextFunction, Request, Response } from 'express';
import type { AuthRequest, AuthStrategy } from './auth/types.js';
import { unauthorized } from '../errors.js';
import { whenReady } from '../maybe-promise.js';

/**
 * Decides who is calling from the headers, before any body byte is read. The strategies run in turn and the first
 * to claim the request decides: a session (JWT, and a cookie session where one is configured), or a credential that
 * covers the body (a signed request: `req.bodyCredential`, finished by the body reader). No claim leaves the request
 * anonymous (guards then answer 401 where a caller is needed); an Authorization header nobody claims is a 401.
 * A refusal ends the connection once answered and its body is never read.
 */
export function authenticate(strategies: AuthStrategy[]) {
  const decide = (req: Request, next: NextFunction): void | Promise<void> => {
    req.session = null;
    req.bodyCredential = undefined;
    const header = req.headers.authorization?.trim();
    let scheme = '';
    let credential = '';
    if (header) {
      const parts = header.split(/\s+/);
      if (parts.length !== 2) throw unauthorized('auth', 'The Authorization header must be "<scheme> <credential>".');
      scheme = parts[0]!.toLowerCase();
      credential = parts[1]!;
    }
    const authReq: AuthRequest = {
      scheme,
      credential,
      method: req.method,
      target: req.rawTarget,
      header: (name: string) => {
        const v = req.headers[name.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      },
    };
    // Strategies in turn, the first to claim the request deciding; an answer in hand goes on without a promise.
    const from = (i: number): void | Promise<void> => {
      if (i === strategies.length) {
        if (!header) return next();
        throw unauthorized(
          'auth',
          `Unsupported authorization scheme "${header.split(/\s+/, 1)[0]!.slice(0, 32)}": use Bearer (JWT) or apisignature (signed request).`,
        );
      }
      return whenReady(strategies[i]!(authReq), (outcome) => {
        if (!outcome) return from(i + 1);
        if (outcome.kind === 'body-bound') req.bodyCredential = outcome;
        else req.session = outcome;
        next();
      });
    };
    return from(0);
  };
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const refuse = (err: unknown): never => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
      req.resume();
      throw err;
    };
    try {
      const out = decide(req, next);
      return out instanceof Promise ? out.catch(refuse) : out;
    } catch (err) {
      refuse(err);
    }
  };
}
