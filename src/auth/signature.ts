import crypto from 'node:crypto';

/**
 * Signed requests (API document, Authentication): three chained HMAC-SHA256 links.
 *   1. key = token key (UTF-8 bytes of the string as issued), message = METHOD + request target. The target is
 *      the raw path and query exactly as on the request line, still percent-encoded (BloodHound's RequestURI).
 *   2. key = digest 1, message = the first 13 characters of RequestDate (YYYY-MM-DDTHH): binds the hour.
 *   3. key = digest 2, message = the request body bytes as sent (nothing for an empty body; the digest is
 *      still taken).
 * The Signature header is the standard base64 of digest 3.
 */
export const SIGNATURE_SCHEMES = ['apisignature', 'bhesignature'] as const;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 date-time; undefined when it is not one. */
export function parseRequestDate(value: string): Date | undefined {
  if (!RFC3339.test(value)) return undefined;
  const ms = Date.parse(value.replace('t', 'T').replace('z', 'Z'));
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * What the signed part of a RequestDate says: the hour text (`YYYY-MM-DDTHH`, read as if UTC) and the UTC offset the
 * client claims. Minutes, seconds and the offset are not covered by the digest, so only the hour is trusted.
 */
export interface NamedHour {
  /** The hour text read as UTC, epoch ms. */
  hourTextMs: number;
  /** The claimed offset in minutes east of UTC (+05:30 → 330). */
  offsetMinutes: number;
}

export function namedHour(requestDate: string): NamedHour | undefined {
  const m = RFC3339.exec(requestDate);
  if (!m) return undefined;
  const hourTextMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]));
  const zone = m[8]!;
  const offsetMinutes =
    zone === 'Z' || zone === 'z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return Number.isNaN(hourTextMs) ? undefined : { hourTextMs, offsetMinutes };
}

/** Real time zones lie between UTC−12:00 and UTC+14:00; anything else in a RequestDate is forged or broken. */
export const MIN_OFFSET_MINUTES = -12 * 60;
export const MAX_OFFSET_MINUTES = 14 * 60;

/** The date link of the chain: the hour in the client's own offset, `T` upper-cased as Go's RFC3339 prints it. */
export function dateLink(requestDate: string): string {
  return requestDate.slice(0, 10) + 'T' + requestDate.slice(11, 13);
}

/** Links 1 and 2 of the chain; feed the body into the returned HMAC and finish with digest(). */
export function beginSignature(tokenKey: string, method: string, target: string, requestDate: string): crypto.Hmac {
  const operationKey = crypto
    .createHmac('sha256', Buffer.from(tokenKey, 'utf8'))
    .update(method + target)
    .digest();
  const dateKey = crypto.createHmac('sha256', operationKey).update(dateLink(requestDate)).digest();
  return crypto.createHmac('sha256', dateKey);
}

/** The whole chain for a body held in memory. */
export function computeSignature(
  tokenKey: string,
  method: string,
  target: string,
  requestDate: string,
  body?: Uint8Array | string,
): Buffer {
  const h = beginSignature(tokenKey, method, target, requestDate);
  if (body !== undefined && body.length > 0) h.update(body);
  return h.digest();
}

/** Headers for a signed request: what a client (a collector, our tests, the README example) sends. */
export function signRequest(opts: {
  tokenId: string;
  tokenKey: string;
  method: string;
  target: string;
  body?: Uint8Array | string;
  date?: Date;
  scheme?: string;
}): Record<string, string> {
  const requestDate = (opts.date ?? new Date()).toISOString();
  const signature = computeSignature(opts.tokenKey, opts.method.toUpperCase(), opts.target, requestDate, opts.body);
  return {
    Authorization: `${opts.scheme ?? 'apisignature'} ${opts.tokenId}`,
    RequestDate: requestDate,
    Signature: signature.toString('base64'),
  };
}

/** Strict standard base64 (with padding) of exactly 32 bytes, as a SHA-256 digest must be. */
export function decodeSignature(value: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(value)) return undefined;
  return Buffer.from(value, 'base64');
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
