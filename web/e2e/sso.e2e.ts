import fs from 'node:fs';
import path from 'node:path';
import { authnRequestId, createTestIdp, type TestIdp } from '../../test/helpers/saml-idp';
import { openSession, signIn, tempDir, useE2E } from './harness';

describe('single sign-on', () => {
  const e = useE2E({ ingest: false });
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await createTestIdp();
  });

  it('adds a SAML provider in Administration, lists it on the sign-in page, and lands signed in from its callback', async () => {
    const admin = await openSession(e.browser);
    await signIn(admin.page, e.base, undefined, '/ui/administration/sso');
    const dir = tempDir();
    const file = path.join(dir, 'idp-metadata.xml');
    fs.writeFileSync(file, idp.metadata);
    await admin.page.getByLabel('Name', { exact: true }).fill('Test IdP');
    await admin.page.getByLabel(/IdP metadata/).setInputFiles(file);
    await admin.page.getByLabel(/Create users who sign in/).check();
    await admin.page.getByRole('button', { name: 'Add provider' }).click();
    await admin.page.getByText(/Login URL/).waitFor();
    const slug = /slug ([\w-]+)/.exec(await admin.page.locator('.card').filter({ hasText: 'Test IdP' }).innerText())![1]!;
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    const s = await openSession(e.browser);
    await s.page.goto(`${e.base}/ui/`);
    const button = s.page.getByRole('link', { name: 'Test IdP' });
    expect(await button.getAttribute('href')).toMatch(new RegExp(`/api/v2/sso/${slug}/login$`));
    // The IdP's part: the server's redirect carries the AuthnRequest; the IdP answers with a form the browser posts.
    const start = await s.context.request.get(`${e.base}/api/v2/sso/${slug}/login`, { maxRedirects: 0 });
    const sp = `${e.t.config.rootUrl}/api/v2/sso/${slug}`;
    const samlResponse = idp.response({
      inResponseTo: authnRequestId(start.headers()['location']!),
      audience: sp,
      acs: `${sp}/callback`,
      nameId: 'alice@example.com',
    });
    await s.page.setContent(
      `<form method="post" action="${e.base}/api/v2/sso/${slug}/callback"><input type="hidden" name="SAMLResponse" value="${samlResponse}"></form>`,
    );
    await Promise.all([s.page.waitForURL(/\/ui\/explore/), s.page.evaluate(() => document.forms[0]!.submit())]);
    await s.page.getByRole('navigation').waitFor();
    await s.page.getByText('alice@example.com').waitFor();
    expect((await s.context.cookies()).find((c) => c.name === 'gas_session')).toMatchObject({ httpOnly: true });
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await s.context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
