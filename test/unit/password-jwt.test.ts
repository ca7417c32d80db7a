import crypto from 'node:crypto';
import { signSessionToken, verifySessionToken } from '../../src/auth/jwt';
import { hashPassword, verifyPassword } from '../../src/auth/password';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const digest = await hashPassword('correct horse battery staple');
    expect(digest).toMatch(/^scrypt\$32768\$8\$1\$/);
    await expect(verifyPassword('correct horse battery staple', digest)).resolves.toBe(true);
    await expect(verifyPassword('Correct horse battery staple', digest)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuses malformed digests', async () => {
    await expect(verifyPassword('x', 'bcrypt$whatever')).resolves.toBe(false);
  });
});

describe('session JWT', () => {
  const key = crypto.createSecretKey(Buffer.alloc(32, 7));
  const now = 1_800_000_000_000;
  const claims = { sub: 'u', jti: '12', iat: now / 1000, exp: now / 1000 + 3600 };

  it('round-trips HS256 claims', () => {
    expect(verifySessionToken(signSessionToken(claims, key), key, now)).toEqual({ ok: true, claims: expect.objectContaining(claims) });
  });

  it('reports expiry against the given clock', () => {
    expect(verifySessionToken(signSessionToken(claims, key), key, now + 3601_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another key and the none algorithm', () => {
    const token = signSessionToken(claims, key);
    expect(verifySessionToken(token, crypto.createSecretKey(Buffer.alloc(32, 8)), now)).toEqual({ ok: false, reason: 'invalid' });
    const [, body] = token.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.`;
    expect(verifySessionToken(none, key, now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
