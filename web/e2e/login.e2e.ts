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
});

async function expectText(locator: import('playwright-core').Locator, re: RegExp) {
  await locator.waitFor();
  expect(await locator.innerText()).toMatch(re);
}
