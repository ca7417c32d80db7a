import type { NextFunction, Request, Response } from 'express';
import { badRequest } from '../errors.js';

/** Deepest JSON (body, GraphQL variables) accepted; real requests nest a handful of levels. */
export const MAX_INPUT_DEPTH = 64;

/** Shortens text that echoes an input, so an error never returns a huge value whole. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

const hasNul = (s: string) => s.includes('\u0000');

/**
 * Walks a decoded input (JSON body, form, query, GraphQL variables) without recursion and refuses what the
 * layers below cannot take: nesting deeper than MAX_INPUT_DEPTH (recursive code would overflow the stack) and
 * NUL characters in strings or keys (PostgreSQL text cannot hold them). Buffers (uploaded files) are skipped.
 */
export function checkInput(context: string, value: unknown, what = 'The request'): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasNul(v)) throw badRequest(context, `${what} contains a NUL character, which is not accepted.`);
      continue;
    }
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_INPUT_DEPTH) throw badRequest(context, `${what} is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [k, item] of Object.entries(v)) {
      if (hasNul(k)) throw badRequest(context, `${what} contains a NUL character, which is not accepted.`);
      stack.push([item, depth + 1]);
    }
  }
}

/**
 * First thing after the request id: a path that does not percent-decode, or a path or query holding a NUL, is a
 * 400 in the wrapper before any route sees it (express would otherwise throw while decoding parameters, and
 * PostgreSQL would fail on the NUL).
 */
export function urlGuard() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const target = req.originalUrl ?? req.url;
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      throw badRequest('router', `The request path is not valid percent-encoding: ${clip(rawPath, 120)}`);
    }
    if (hasNul(decoded)) throw badRequest('router', 'The request path contains a NUL character, which is not accepted.');
    if (q >= 0 && /%00|\u0000/i.test(target.slice(q)))
      throw badRequest('router', 'The query string contains a NUL character, which is not accepted.');
    // express 5 parses the query string again on every read of req.query; parsed once here, it is kept.
    const query = req.query;
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    checkInput('router', query, 'The query string');
    next();
  };
}
