import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  pw: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  len: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;

// scrypt with N=2^15, r=8: 32 MiB and ~60 ms per hash, memory-hard against GPU guessing.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** Hashes a password as `scrypt$N$r$p$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Checks a password against a digest from hashPassword, in constant time. */
export async function verifyPassword(password: string, digest: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = digest.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A random password for generated accounts: 24 URL-safe characters. */
export function randomPassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}
