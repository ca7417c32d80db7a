import { Secret, TOTP } from 'otpauth';
import { userWithRole } from '../../test/helpers/app';
import { ADMIN, openSession, signIn, useE2E } from './harness';

describe('sign-in', () => {
  const e = useE2E({ ingest: false });

  it('shows the form, refuses a wrong password with an alert, signs in and out', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await page.goto(`${e.base}/`);
    await page.getByLabel('Username').waitFor();
    expect(page.url()).toBe(`${e.base}/ui/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectText(page.getByRole('alert'), /wrong secret/);
    await signIn(page, e.base, ADMIN);
    const nav = page.getByRole('navigation');
    for (const name of ['Explore', 'File ingest', 'Administration']) await nav.getByRole('link', { name }).waitFor();
    // The session cookie is HttpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookies = await s.context.cookies();
    expect(cookies.find((c) => c.name === 'gas_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Username').waitFor();
    // The one failed request is the wrong password's 401 (the browser logs it); nothing else went wrong.
    expect(s.errors).toEqual([expect.stringMatching(/status of 401 .*\/ui\/session\)$/)]);
    expect(s.outside).toEqual([]);
    await s.context.close();
  });

  it('asks an enrolled user for the one-time password after the password, and signs in with it', async () => {
    const u = await userWithRole(e.t, 'User');
    const password = 'a-long-test-password';
    const api = (path: string, body: object) =>
      fetch(`${e.base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${u.jwt}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const enrol = await api(`/api/v2/bloodhound-users/${u.id}/mfa`, { secret: password });
    expect(enrol.status).toBe(200);
    const secret = ((await enrol.json()) as { data: { totp_secret: string } }).data.totp_secret;
    // An authenticator app's code, computed independently of the server's TOTP code.
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const code = () => totp.generate({ timestamp: e.t.clock.now().getTime() });
    expect((await api(`/api/v2/bloodhound-users/${u.id}/mfa-activation`, { otp: code() })).status).toBe(200);
    // Codes are single use: sign-in takes the next step's code, as a person would wait for a fresh one.
    e.t.clock.advance(30_000);

    const s = await openSession(e.browser);
    const { page } = s;
    await page.goto(`${e.base}/ui/`);
    await page.getByLabel('Username').fill(u.name);
    await page.getByLabel('Password').fill(password);
    expect(await page.getByLabel('One-time password').count()).toBe(0);
    await page.getByRole('button', { name: 'Log in' }).click();
    const otp = page.getByLabel('One-time password');
    await otp.waitFor();
    // The first step started no session.
    expect((await s.context.cookies()).find((c) => c.name === 'gas_session')).toBeUndefined();
    await otp.fill('000000');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectText(page.getByRole('alert'), /one time password is invalid/);
    await otp.fill(code());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation').waitFor();
    expect((await s.context.cookies()).find((c) => c.name === 'gas_session')).toMatchObject({ httpOnly: true });
    // The one failed request is the wrong code's 400, provoked on purpose.
    expect(s.errors).toEqual([expect.stringMatching(/status of 400 .*\/ui\/session\)$/)]);
    expect(s.outside).toEqual([]);
    await s.context.close();
  });
});

async function expectText(locator: import('playwright-core').Locator, re: RegExp) {
  await locator.waitFor();
  expect(await locator.innerText()).toMatch(re);
}
