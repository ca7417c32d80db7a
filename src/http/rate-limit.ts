import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors.js';
import { MSG } from '../messages.js';
import { writeError } from './errors.js';
import { clientKey } from '../services/common/client-address.js';

export { clientKey, ipv6Groups } from '../services/common/client-address.js';

export interface RateLimitOptions {
  /** Requests per second per client IP and route. @default 55 */
  rps?: number;
  /** Length of a client's window in milliseconds. @default 1000 */
  windowMs?: number;
  /** The clock (tests). @default Date.now */
  now?: () => number;
}

interface Window {
  hits: number;
  /** Epoch milliseconds at which this client's window ends. */
  resetAt: number;
}

/**
 * Hit counts per client, one fixed window each (starting at the client's first request in it). Clients not seen
 * for a window are forgotten: every window the current map becomes the previous one and the previous is dropped,
 * so memory holds only the clients of the last two windows, without a timer.
 */
export class WindowCounter {
  private current = new Map<string, Window>();
  private previous = new Map<string, Window>();
  private sweptAt: number;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweptAt = now();
  }

  hit(key: string): Window & { now: number } {
    const now = this.now();
    if (now - this.sweptAt >= this.windowMs) {
      // An entry moved to `previous` at the last sweep began before it, so it has expired by now: drop them all.
      this.previous = this.current;
      this.current = new Map();
      this.sweptAt = now;
    }
    let w = this.current.get(key);
    if (!w) {
      w = this.previous.get(key);
      if (w) this.current.set(key, w);
    }
    if (!w || w.resetAt <= now) {
      w = { hits: 0, resetAt: now + this.windowMs };
      this.current.set(key, w);
    }
    w.hits++;
    return { hits: w.hits, resetAt: w.resetAt, now };
  }

  /** Clients remembered (both maps; a client in both is counted once per map). */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}

/**
 * Returns a factory giving each route its own limiter, so counters are per client IP *and* route (BloodHound's
 * 55 req/s). Over the limit: 429 in the error wrapper with Retry-After. Every answer carries draft 7's
 * `RateLimit` and `RateLimit-Policy` headers.
 *
 * Written here rather than with express-rate-limit: its middleware is asynchronous (several promises per request)
 * and cost the signed look-up ~6 % of its CPU; this one is a map look-up (docs/decisions.md, "HTTP and the contract").
 */
export function rateLimiter(opts: RateLimitOptions = {}) {
  const rps = opts.rps ?? 55;
  const windowMs = opts.windowMs ?? 1000;
  const policy = `${rps};w=${Math.ceil(windowMs / 1000)}`;
  // Each call makes a limiter with its own counters: that alone keeps them per route.
  return (_routeKey: string): RequestHandler => {
    const counter = new WindowCounter(windowMs, opts.now);
    return (req: Request, res: Response, next: NextFunction) => {
      const w = counter.hit(clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
      const reset = Math.max(1, Math.ceil((w.resetAt - w.now) / 1000));
      res.setHeader('RateLimit-Policy', policy);
      res.setHeader('RateLimit', `limit=${rps}, remaining=${Math.max(0, rps - w.hits)}, reset=${reset}`);
      if (w.hits <= rps) return next();
      writeError(
        res,
        new AppError('RATE_LIMITED', 'middleware', MSG.rateLimited, { headers: { 'Retry-After': String(reset) } }),
        req.requestId,
      );
    };
  };
}
