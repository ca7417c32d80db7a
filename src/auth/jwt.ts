import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface SessionClaims {
  /** User id. */
  sub: string;
  /** Session id (user_sessions.id) as a decimal string. */
  jti: string;
  iat: number;
  exp: number;
}

/** Signs a session JWT (HS256). Times are epoch seconds. */
export function signSessionToken(claims: SessionClaims, key: KeyObject): string {
  return jwt.sign(claims, key, { algorithm: 'HS256' });
}

export type TokenCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Verifies signature, algorithm (HS256 only) and expiry against the given clock. The key is a prepared secret
 * KeyObject: given raw bytes, jsonwebtoken first tries (and fails) to parse them as a public key on every call.
 */
export function verifySessionToken(token: string, key: KeyObject, nowMs: number): TokenCheck {
  try {
    const claims = jwt.verify(token, key, { algorithms: ['HS256'], clockTimestamp: Math.floor(nowMs / 1000) });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || !/^\d+$/.test(claims.jti)) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: claims as SessionClaims };
  } catch (err) {
    return { ok: false, reason: (err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}
