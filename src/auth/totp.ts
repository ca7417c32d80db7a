import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as authenticator apps and BloodHound use it: SHA-1, six digits, 30-second steps, 160-bit secrets. */
const PERIOD = 30;
const DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock drift), as BloodHound's totp.Validate. */
const WINDOW = 1;

const totpOf = (secretBase32: string, issuer = 'GAS', label = 'user') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secretBase32) });

/** A fresh secret (base32) and its otpauth:// URI for an authenticator app. */
export function newTotpSecret(issuer: string, account: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, issuer, account).toString() };
}

/** The QR code of an otpauth URI as a PNG data URL (what an <img src> shows). */
export const qrDataUrl = (uri: string): Promise<string> => QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 });

/**
 * The time step of a valid code at `now` (within the window), or null. Callers record the step so the same code,
 * or an older one, is never accepted twice.
 */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

/** The code of a secret at a time (tests and `gas` diagnostics act as an authenticator app with it). */
export const totpCode = (secretBase32: string, at: Date): string => totpOf(secretBase32).generate({ timestamp: at.getTime() });
