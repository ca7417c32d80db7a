import request from 'supertest';
import { LOGIN_THROTTLE } from '../../src/services/identity/login-throttle';
import { ADMIN_PASSWORD, expectWrapper, useListening, userWithRole, useTestApp } from '../helpers/app';
import { rawExchange } from '../helpers/raw-http';

/**
 * Failed logins count per (account, client address), per address and, from addresses an account never signed in
 * from, per account, each with a doubling lock: a stranger's failures hold the stranger, and the administrator
 * still signs in from their own address while an attack runs. The proxy in front names the client (TRUST_PROXY).
 */
describe('login throttling by account and address', () => {
  const t = useTestApp({ trustProxy: ['loopback'] });
  const server = useListening(t);
  const attempt = (username: string, secret: string, ip: string) =>
    request(t.app).post('/api/v2/login').set('X-Forwarded-For', ip).send({ login_method: 'secret', username, secret });
  /** Tries a wrong secret until `n` failures were counted, waiting out each lock on the test clock. */
  const fail = async (username: string, ip: string, n: number) => {
    for (let counted = 0; counted < n;) {
      const res = await attempt(username, 'wrong-password-guess', ip);
      if (res.status === 401) counted++;
      else if (res.status === 429) t.clock.advance(Number(res.headers['retry-after']) * 1000 + 10);
      else throw new Error(`unexpected ${res.status}`);
    }
  };

  it('backs off one account from one address: 1 s, 2 s, 4 s … after the free failures, and a success starts over', async () => {
    const u = await userWithRole(t, 'User');
    for (let i = 0; i < LOGIN_THROTTLE.pair.free; i++) expect((await attempt(u.name, 'wrong-password-guess', '10.1.0.1')).status).toBe(401);
    const locks: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await attempt(u.name, 'wrong-password-guess', '10.1.0.1')).status).toBe(401);
      const locked = await attempt(u.name, 'a-long-test-password', '10.1.0.1');
      expect(expectWrapper(locked, 429).message).toMatch(/Too many failed logins/);
      locks.push(Number(locked.headers['retry-after']));
      t.clock.advance(locks[locks.length - 1]! * 1000 + 10);
    }
    expect(locks).toEqual([1, 2, 4, 8]);
    // The same account from another address is not held by this pair.
    expect((await attempt(u.name, 'a-long-test-password', '10.1.0.2')).status).toBe(200);
    expect((await attempt(u.name, 'a-long-test-password', '10.1.0.1')).status).toBe(200);
    expect((await attempt(u.name, 'wrong-password-guess', '10.1.0.1')).status).toBe(401);
    expect((await attempt(u.name, 'a-long-test-password', '10.1.0.1')).status).toBe(200);
  });

  it('keeps the administrator signing in from their own address while a stranger fails fifty times (real sockets)', async () => {
    const login = (localAddress: string, secret: string) => {
      const body = JSON.stringify({ login_method: 'secret', username: 'admin', secret });
      return rawExchange(
        server.port,
        `POST /api/v2/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        { localAddress },
      );
    };
    expect((await login('127.0.0.41', ADMIN_PASSWORD)).status).toBe(200);
    let refused = 0;
    for (let counted = 0; counted < 50;) {
      const res = await login('127.0.0.66', 'wrong-password-guess');
      if (res.status === 401) counted++;
      else {
        expect(res.status).toBe(429);
        refused++;
        t.clock.advance(Number(/Retry-After: (\d+)/i.exec(res.text)![1]) * 1000 + 10);
      }
    }
    expect(refused).toBeGreaterThan(10);
    // The stranger's address is held; the administrator's is not.
    expect((await login('127.0.0.66', ADMIN_PASSWORD)).status).toBe(429);
    expect((await login('127.0.0.41', ADMIN_PASSWORD)).status).toBe(200);
  });

  it('holds an account for addresses it never signed in from when many strangers try it, never its known ones', async () => {
    const u = await userWithRole(t, 'User');
    expect((await attempt(u.name, 'a-long-test-password', '10.2.0.1')).status).toBe(200);
    // One failure each from many addresses: no pair and no address reaches its limit, the account does.
    for (let i = 0; i < LOGIN_THROTTLE.account.free + 1; i++)
      expect((await attempt(u.name, 'wrong-password-guess', `198.51.100.${i + 1}`)).status).toBe(401);
    const stranger = await attempt(u.name, 'a-long-test-password', '198.51.100.200');
    expect(expectWrapper(stranger, 429).message).toMatch(/Too many failed logins/);
    expect((await attempt(u.name, 'a-long-test-password', '10.2.0.1')).status).toBe(200);
  });

  it('holds an address that tries many accounts (password spraying), and only that address', async () => {
    const u = await userWithRole(t, 'User');
    for (let i = 0; i <= LOGIN_THROTTLE.address.free; i++)
      expect((await attempt(`nobody-${i}`, 'wrong-password-guess', '10.3.0.9')).status).toBe(401);
    expect((await attempt(u.name, 'a-long-test-password', '10.3.0.9')).status).toBe(429);
    expect((await attempt(u.name, 'a-long-test-password', '10.3.0.10')).status).toBe(200);
    // Forgotten once no failure came for the rule's memory.
    t.clock.advance(LOGIN_THROTTLE.address.forgetAfterSeconds * 1000 + 1000);
    expect((await attempt(u.name, 'a-long-test-password', '10.3.0.9')).status).toBe(200);
  });

  it('counts a locked attempt as nothing', async () => {
    const u = await userWithRole(t, 'User');
    // Failures enough for an 8-second lock: the refusals below all fall inside it.
    await fail(u.name, '10.4.0.1', LOGIN_THROTTLE.pair.free + 4);
    for (let i = 0; i < 20; i++) expect((await attempt(u.name, 'wrong-password-guess', '10.4.0.1')).status).toBe(429);
    const rows = await t.testDb.db.query<{ failures: number }>(
      `select failures from login_throttle where scope = 'pair' and subject like $1`,
      [`${u.name.toLowerCase()}%`],
    );
    expect(rows.map((r) => r.failures)).toEqual([LOGIN_THROTTLE.pair.free + 4]);
  });
});
