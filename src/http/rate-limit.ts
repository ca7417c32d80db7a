import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { AppError } from '../errors.js';
import { MSG } from '../messages.js';
import { writeError } from './errors.js';

export interface RateLimitOptions {
  /** Requests per second per client IP and route. @default 55 */
  rps?: number;
}

/**
 * Returns a factory giving each route its own limiter, so counters are per client IP *and* route (BloodHound's
 * 55 req/s). Over the limit: 429 in the error wrapper with Retry-After and RateLimit headers.
 */
export function rateLimiter(opts: RateLimitOptions = {}) {
  const rps = opts.rps ?? 55;
  // Each call makes a limiter with its own in-memory counters: that alone keeps them per route.
  return (_routeKey: string) =>
    rateLimit({
      windowMs: 1000,
      limit: rps,
      // draft-7's single RateLimit header: draft-8's partition key is a SHA-256 of the client key on every request.
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      keyGenerator: (req) => {
        const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
        // IPv6 clients are keyed by their /56 (ipKeyGenerator); an IPv4 address is its own key, without the
        // IPv6 pattern test ipKeyGenerator runs on every address.
        return ip.includes(':') ? ipKeyGenerator(ip) : ip;
      },
      handler: (req: Request, res: Response, _next: NextFunction) => {
        const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        const retry = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + 1000) - Date.now()) / 1000));
        writeError(
          res,
          new AppError('RATE_LIMITED', 'middleware', MSG.rateLimited, { headers: { 'Retry-After': String(retry) } }),
          req.requestId,
        );
      },
    });
}
