import request from 'supertest';
import { computeSignature } from '../../src/auth/signature';
import { windowRefusal } from '../../src/services/identity/tokens';
import { apiToken, createTestApp, expectWrapper, login, type ApiToken, type TestApp } from '../helpers/app';

/** Item 9.6: a captured signature is usable at most two hours after the hour it names, whatever offset a replay claims. */
describe('signed-request replay window', () => {
  let t: TestApp;
  let token: ApiToken;
  const target = '/api/v2/permissions/1';
  const send = (requestDate: string, signedDate = requestDate) =>
    request(t.app)
      .get(target)
      .set({
        Authorization: `apisignature ${token.id}`,
        RequestDate: requestDate,
        Signature: computeSignature(token.key, 'GET', target, signedDate).toString('base64'),
      });
  const offsets = () => {
    const out: string[] = [];
    for (let m = -12 * 60; m <= 14 * 60; m += 30) {
      const a = Math.abs(m);
      out.push(`${m < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`);
    }
    return out;
  };

  beforeAll(async () => {
    t = await createTestApp();
    token = await apiToken(t.app, await login(t.app), 'replay');
  });
  afterAll(() => t.close());

  it('refuses a day-old signature resent with any offset, including the forged -23:59', async () => {
    const captured = new Date(t.clock.now().getTime()).toISOString(); // a real request, now, in UTC
    expect((await send(captured)).status).toBe(200); // fixes the token's offset to +00:00
    t.clock.advance(24 * 3600_000);
    const hourText = captured.slice(0, 13);
    const forged = await send(`${hourText}:59:59-23:59`, captured);
    expect(expectWrapper(forged, 401).message).toMatch(/not a real UTC offset/);
    let tried = 0;
    for (const offset of offsets()) {
      for (const rest of [':00:00', ':59:59']) {
        const res = await send(`${hourText}${rest}${offset}`, captured);
        tried++;
        expect(res.status).toBe(401);
      }
    }
    expect(tried).toBe(106);
  });

  it('honours the hour only: usable until two hours after its start, then refused in every offset', async () => {
    const fresh = await apiToken(t.app, await login(t.app), 'window');
    const now = t.clock.now();
    const hourStart = new Date(Math.floor(now.getTime() / 3600_000) * 3600_000);
    const date = hourStart.toISOString();
    const sig = computeSignature(fresh.key, 'GET', target, date).toString('base64');
    const go = (d: string) =>
      request(t.app)
        .get(target)
        .set({ Authorization: `apisignature ${fresh.id}`, RequestDate: d, Signature: sig });
    expect((await go(date)).status).toBe(200);
    // Just before the end of the second hour after its start: the date as sent is more than an hour old, but the
    // minutes are not signed, so a replay moves them to the end of the hour and is still accepted, once.
    t.clock.advance(hourStart.getTime() + 2 * 3600_000 - 1000 - t.clock.now().getTime());
    expect(expectWrapper(await go(date), 401).message).toMatch(/too far behind server time by 59\.9\d minutes beyond the allowed hour/);
    const endOfHour = date.slice(0, 13) + ':59:59.999Z';
    expect((await go(endOfHour)).status).toBe(200);
    t.clock.advance(2000);
    expect(expectWrapper(await go(endOfHour), 401).message).toMatch(/too far behind server time/);
    // The same captured hour with a claimed offset that would move it later is refused: the token's offset is +00:00.
    const shifted = await go(date.slice(0, 13) + ':59:59-02:00');
    expect(expectWrapper(shifted, 401).message).toMatch(/read in this token's offset \+00:00/);
  });

  it('still accepts clients that sign in their own offset (SharpHound uses local time)', async () => {
    const fresh = await apiToken(t.app, await login(t.app), 'local');
    const now = t.clock.now();
    const local = new Date(now.getTime() + 5.5 * 3600_000).toISOString().replace('Z', '+05:30');
    const sig = computeSignature(fresh.key, 'GET', target, local).toString('base64');
    const go = (d: string, s = sig) =>
      request(t.app)
        .get(target)
        .set({ Authorization: `apisignature ${fresh.id}`, RequestDate: d, Signature: s });
    expect((await go(local)).status).toBe(200);
    // A replay of that hour claiming UTC (5.5 h later in absolute time) is refused.
    t.clock.advance(3 * 3600_000);
    expect((await go(local.slice(0, 19) + 'Z')).status).toBe(401);
  });

  it('windowRefusal: each offset reading, one place', () => {
    const now = Date.parse('2026-06-01T12:30:00Z');
    expect(windowRefusal('2026-06-01T12:00:00Z', now, null)).toBeUndefined();
    expect(windowRefusal('2026-06-01T10:59:59Z', now, null)).toMatch(/behind/);
    expect(windowRefusal('2026-06-01T14:10:00+02:00', now, null)).toBeUndefined();
    expect(windowRefusal('2026-06-01T14:10:00+02:00', now, 0)).toMatch(/ahead/);
    expect(windowRefusal('2026-06-01T12:00:00+14:01', now, null)).toMatch(/not a real UTC offset/);
  });

  it('windowRefusal: the date as sent within one hour of server time, either way (README, Signed requests)', () => {
    const now = Date.parse('2026-06-01T12:30:00Z');
    expect(windowRefusal('2026-06-01T11:30:00Z', now, null)).toBeUndefined();
    expect(windowRefusal('2026-06-01T11:29:59Z', now, null)).toMatch(/too far behind server time by 0\.02 minutes beyond the allowed hour/);
    expect(windowRefusal('2026-06-01T13:30:00Z', now, null)).toBeUndefined();
    expect(windowRefusal('2026-06-01T13:30:01Z', now, null)).toMatch(/too far ahead of server time by 0\.02 minutes/);
    // The same instant in another real offset is the same date.
    expect(windowRefusal('2026-06-01T17:00:00+05:30', now, null)).toBeUndefined();
    expect(windowRefusal('2026-06-01T08:59:59-02:30', now, null)).toMatch(/behind/);
    // A date that names no real instant (month 13) is malformed.
    expect(windowRefusal('2026-13-01T12:00:00Z', now, null)).toMatch(/malformed/);
  });
});
