/**
 * The web app's session cookie: the same session JWT a Bearer header carries, kept where page scripts cannot read
 * it (HttpOnly), sent only to this site (SameSite=Strict) and only over TLS when the site is served over https.
 * No Max-Age: the browser drops it when it closes, and the server ends the session itself at its expiry or logout.
 */
export const SESSION_COOKIE = 'gas_session';

/**
 * The header every cookie-authenticated request must carry. Another site cannot send a custom header without a
 * CORS preflight this server never grants, so its presence (with the Origin check) proves the request came from
 * the app's own pages.
 */
export const CSRF_HEADER = 'x-gas-csrf';

export interface CookieOptions {
  /** True when the browser reached us over https (directly or through a trusted proxy). */
  secure: boolean;
}

const attributes = (opts: CookieOptions) => `Path=/; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;

/** Set-Cookie value that starts the browser's session. */
export function sessionCookie(token: string, opts: CookieOptions): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(opts)}`;
}

/** Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(opts: CookieOptions): string {
  return `${SESSION_COOKIE}=; ${attributes(opts)}; Max-Age=0`;
}

/** The value of one cookie in a Cookie header, or undefined. A JWT needs no decoding (base64url and dots). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
