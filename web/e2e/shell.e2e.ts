import { openSession, signIn, useE2E } from './harness';

describe('the app shell', () => {
  const e = useE2E({ ingest: false });

  it('fits 1280×720 without scrolling sideways, switches theme, jumps to search with "/", and keeps a deep link through sign-in', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await signIn(page, e.base, undefined, '/ui/explore?tab=pathfinding');
    await page.getByRole('tab', { name: 'Pathfinding', selected: true }).waitFor();
    for (const at of ['/ui/explore', '/ui/ingest', '/ui/administration/users']) {
      await page.goto(e.base + at);
      await page.getByRole('navigation').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    }
    await page.goto(`${e.base}/ui/explore?tab=cypher`);
    await page.getByRole('tab', { name: 'Cypher', selected: true }).waitFor();
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByRole('button', { name: /Switch to (light|dark) theme/ }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    await page.reload();
    await page.getByRole('tab', { name: 'Cypher', selected: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await page.getByRole('tab', { name: 'Search', selected: true }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await s.context.close();
  });

  it('signs GraphiQL in through the app session, and logging out ends that session on the server', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await signIn(page, e.base);
    const ask = () =>
      page.evaluate(async () => {
        const res = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-gas-csrf': '1' },
          body: JSON.stringify({ query: '{ self { principalName } }' }),
        });
        return res.status;
      });
    // GraphiQL's page carries the app's CSRF header in every request it sends.
    const graphiql = await page.request.get(`${e.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(await graphiql.text()).toContain('"x-gas-csrf":"1"');
    expect(await ask()).toBe(200);
    const cookie = (await s.context.cookies()).find((c) => c.name === 'gas_session')!;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Username').waitFor();
    // The old cookie put back by hand no longer works: the session ended on the server.
    await s.context.addCookies([{ ...cookie }]);
    expect(await ask()).toBe(401);
    s.errors.splice(0, s.errors.length, ...s.errors.filter((m) => !/status of 401 .*\/graphql\)$/.test(m)));
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
