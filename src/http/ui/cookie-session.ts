import type { NextFunction, Request, Response } from 'express';
import { CSRF_HEADER, readCookie, SESSION_COOKIE } from '../../auth/session-cookie.js';
import { forbidden } from '../../errors.js';

export interface CookieSessionOptions {
  /** ROOT_URL: the address browsers use, an origin accepted besides the request's own. */
  rootUrl: string;
}

/** The origin the request was addressed to, as the browser sees it (protocol honours TRUST_PROXY). */
const ownOrigin = (req: Request) => `${req.protocol}://${req.headers.host ?? ''}`.toLowerCase();

/**
 * Whether a request comes from this site's own pages: the Fetch Metadata header, where the browser sends it, says
 * same-origin, and the Origin header, where present, is this server's.
 */
export function sameOrigin(req: Request, rootUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  return o === ownOrigin(req) || o === new URL(rootUrl).origin.toLowerCase();
}

/**
 * Lets the web app's session cookie stand for a Bearer header. Only a request that carries no Authorization
 * header, the session cookie and the CSRF header is considered; it must come from this site (`sameOrigin`), else
 * it is refused with 403. Such a request then goes through authentication exactly as `Authorization: Bearer
 * <JWT>` would (the JWT strategy, the upload gate), so a cookie session is a login session in every respect:
 * same expiry, same revocation, same permissions. A cookie without the CSRF header is ignored (the request stays
 * anonymous), so a page on another site that makes the browser send the cookie gains nothing.
 */
export function cookieSession(opts: CookieSessionOptions) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.headers.authorization || req.headers[CSRF_HEADER] === undefined) return next();
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (!token) return next();
    if (!sameOrigin(req, opts.rootUrl))
      throw forbidden('auth', 'Cross-site request refused: a session cookie is only accepted from the web app at this address.');
    req.headers.authorization = `Bearer ${token}`;
    next();
  };
}
