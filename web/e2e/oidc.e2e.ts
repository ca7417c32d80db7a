import { startOidcIdp, type TestOidcIdp } from '../../test/helpers/oidc-idp';
import { openSession, useE2E } from './harness';

/**
 * OpenID Connect in the browser against a real OpenID provider (oidc-provider on a loopback port, with its own
 * login and consent pages): the provider made over the API is a button on the sign-in page, and the round trip
 * through the IdP lands on the app signed in with the HttpOnly session cookie.
 */
describe('OpenID Connect sign-in', () => {
  const e = useE2E({ ingest: false });
  let idp: TestOidcIdp;
  beforeAll(async () => {
    idp = await startOidcIdp([`${e.base}/api/v2/sso/test-oidc/callback`], { pages: true });
  });
  afterAll(() => idp?.close());

  it('signs in with an OIDC provider from its button, through the IdP’s login and consent, onto the app', async () => {
    const created = await fetch(`${e.base}/api/v2/sso-providers/oidc`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.t.adminJwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Test OIDC',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        // Administrator (role 1), so the new user's session can open every page the navigation offers.
        config: { auto_provision: { enabled: true, default_role_id: 1, role_provision: false } },
      }),
    });
    expect(created.status).toBe(201);

    const s = await openSession(e.browser);
    const { page } = s;
    await page.goto(`${e.base}/ui/`);
    const button = page.getByRole('group', { name: 'Single sign-on' }).getByRole('link', { name: 'Test OIDC' });
    expect(await button.getAttribute('href')).toBe(`${e.base}/api/v2/sso/test-oidc/login`);
    await button.click();

    // The IdP's pages: who signs in, then what our client may read.
    await page.waitForURL((u) => u.href.startsWith(`${idp.issuer}/interaction/`));
    await page.getByRole('heading', { name: 'Sign in to the test IdP' }).waitFor();
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back through our callback to the app, signed in as the provisioned user.
    await page.waitForURL(/\/ui\/explore/);
    const nav = page.getByRole('navigation');
    for (const link of ['Explore', 'File ingest', 'Administration']) await nav.getByRole('link', { name: link }).waitFor();
    await page.getByText('alice@example.com').waitFor();
    const cookies = await s.context.cookies(e.base);
    expect(cookies.find((c) => c.name === 'gas_session')).toMatchObject({ httpOnly: true });
    // The state cookie of the login is spent on the callback.
    expect(cookies.find((c) => c.name === 'gas_sso_state')).toBeUndefined();

    // The session is the server's: the Users page lists the user the sign-in provisioned, bound to the provider.
    await nav.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /^Users$/ }).waitFor();
    await page.getByRole('cell', { name: 'alice@example.com' }).first().waitFor();

    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await s.context.close();
  });

  it('lands a browser whose sign-in the IdP refused back on the sign-in page, saying so', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await page.goto(`${e.base}/ui/`);
    await page.getByRole('group', { name: 'Single sign-on' }).getByRole('link', { name: 'Test OIDC' }).click();
    await page.getByLabel('Email').fill('bob@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((u) => u.pathname === '/ui/login' && u.searchParams.get('sso') === 'refused');
    await page.getByRole('alert').filter({ hasText: 'Single sign-on was refused' }).waitFor();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const cookies = await s.context.cookies(e.base);
    expect(cookies.map((c) => c.name)).not.toContain('gas_session');
    expect(cookies.map((c) => c.name)).not.toContain('gas_sso_state');
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await s.context.close();
  });
});
