import net from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors.js';
import { MSG } from '../messages.js';
import { writeError } from './errors.js';

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

/**
 * The counter key of a client address. IPv4 is its own key, and so is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * how a dual-stack listener sees IPv4 clients). Other IPv6 addresses count by their /56, the smallest block a site is
 * usually given: one client cycling through its own addresses is still one client.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  const hex = (n: number) => n.toString(16);
  return `${hex(groups[0]!)}:${hex(groups[1]!)}:${hex(groups[2]!)}:${hex(groups[3]! & 0xff00)}::/56`;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded IPv4 read); undefined when it is not one. */
export function ipv6Groups(address: string): number[] | undefined {
  const ip = address.split('%', 1)[0]!;
  if (!net.isIPv6(ip)) return undefined;
  const toGroups = (part: string): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(g, 16));
    }
    return out;
  };
  const gap = ip.indexOf('::');
  if (gap < 0) return toGroups(ip);
  const head = toGroups(ip.slice(0, gap));
  const tail = toGroups(ip.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
