import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers, worked out once: helmet's middleware is run at start-up against a recorder, and each
 * request gets the recorded headers in one loop. Helmet stays the source of every name and value; per request this
 * saves its chain of eleven middleware calls. Only for options whose headers do not depend on the request: no
 * Content-Security-Policy directive computed per request (the app turns CSP off for GraphiQL anyway). Measured on
 * the signed users look-up: helmet with the rate limiter cost ~15–20 % of the route's throughput.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): RequestHandler {
  const headers: [string, string | string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | string[]) {
      headers.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let finished = false;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // A helmet that did not answer synchronously cannot be recorded: fail at start-up rather than serve without headers.
  if (!finished) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    // A list value is copied: a later appendHeader must not change the recorded one.
    for (const [name, value] of headers) res.setHeader(name, Array.isArray(value) ? [...value] : value);
    next();
  };
}
