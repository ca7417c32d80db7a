import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { AppError } from '../errors.js';
import { MSG } from '../messages.js';
import { writeError } from './errors.js';

export interface RateLimitOptions {
  /** Requests per second per client IP and route. @default 55 */
  rps?: number;
  /** Shared counters (Redis) for several replicas; per-process memory when absent. */
  store?: (prefix: string) => Store;
}

/**
 * Returns a factory giving each route its own limiter, so counters are per client IP *and* route (BloodHound's
 * 55 req/s). Over the limit: 429 in the error wrapper with Retry-After and RateLimit headers.
 */
export function rateLimiter(opts: RateLimitOptions = {}) {
  const rps = opts.rps ?? 55;
  return (routeKey: string) =>
    rateLimit({
      windowMs: 1000,
      limit: rps,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      store: opts.store?.(`rl:${routeKey}:`),
      keyGenerator: (req) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
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
