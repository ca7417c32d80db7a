import type { Page } from 'playwright-core';
import { openSession, signIn, useE2E, type BrowserSession } from './harness';

const USER = { username: 'analyst-one', password: 'analyst-password-1' };

describe('Administration', () => {
  const e = useE2E();
  let s: BrowserSession;
  let page: Page;
  beforeAll(async () => {
    s = await openSession(e.browser);
    page = s.page;
    await signIn(page, e.base);
    await page.getByRole('navigation').getByRole('link', { name: 'Administration' }).click();
  });
  afterAll(() => s.context.close());
  afterEach(() => {
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
  });
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first().waitFor();

  it('creates a user with a role, resets their password, disables them and ends their sessions', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('User name').fill(USER.username);
    await page.getByLabel('Initial password').fill('a-first-password-1');
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Read-Only' });
    await page.getByRole('button', { name: 'Create user' }).click();
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: USER.username });
    await row.waitFor();
    expect(await row.getByLabel(`Role of ${USER.username}`).inputValue()).toBeTruthy();
    await row.getByLabel(`Role of ${USER.username}`).selectOption({ label: 'User' });
    await status(`${USER.username} is now User`);
    await row.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('dialog').getByLabel('New password').fill(USER.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Set password' }).click();
    await status(`Password of ${USER.username} reset`);
    // The new user signs in (in another browser context) with that password.
    const other = await openSession(e.browser);
    await signIn(other.page, e.base, USER);
    await other.context.close();
    await row.getByRole('button', { name: 'End sessions' }).click();
    await status(/session(s)? of analyst-one ended/);
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByText('Disabled').waitFor();
  });

  it('creates an API token and shows its key once, then revokes it', async () => {
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Token name').fill('e2e token');
    await page.getByRole('button', { name: 'Create token' }).click();
    const key = await page.getByLabel('Token key').innerText();
    expect(key.length).toBeGreaterThan(20);
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'e2e token' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await status('revoked');
    await row.waitFor({ state: 'detached' });
  });

  it('makes a label with a selector, lists its members and certifies in a zone', async () => {
    await page.getByRole('link', { name: 'Zones and labels' }).click();
    await page.getByLabel('Type').selectOption('LABEL');
    await page.getByLabel('Name', { exact: true }).fill('Crown jewels');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const row = page.getByRole('table', { name: 'Zones and labels' }).getByRole('row').filter({ hasText: 'Crown jewels' });
    await row.getByRole('button', { name: 'Open' }).click();
    await page.getByLabel('Selector name').fill('Domain admins');
    await page.getByLabel(/^Seeds/).fill('S-1-5-21-3130019616-2776909439-2417379446-512');
    await page.getByRole('button', { name: 'Add selector' }).click();
    await status('Selector Domain admins added');
    await page.getByRole('table', { name: 'Members of Crown jewels' }).getByText('DOMAIN ADMINS@TESTLAB.LOCAL').waitFor();
    // Tier Zero requires certification: certify its first member.
    await row.getByRole('button', { name: 'Close' }).click();
    const t0 = page.getByRole('table', { name: 'Zones and labels' }).getByRole('row').filter({ hasText: 'Tier Zero' }).first();
    await t0.getByRole('button', { name: 'Open' }).click();
    const members = page.getByRole('table', { name: 'Members of Tier Zero' });
    await members.getByRole('button', { name: 'Certify' }).first().click();
    await status('certified');
    await members
      .getByText(/^certified by/)
      .first()
      .waitFor();
  });

  it('shows the configuration and switches a parameter', async () => {
    await page.getByRole('link', { name: 'Configuration' }).click();
    const box = page.getByRole('checkbox', { name: 'Enabled' }).first();
    const before = await box.isChecked();
    await box.click();
    await status(/applies from the next analysis/);
    await page.waitForFunction(
      (want) => (document.querySelector('.content input[type=checkbox]') as HTMLInputElement).checked === want,
      !before,
    );
  });

  it('shows data quality counts and the domains in the graph', async () => {
    await page.getByRole('link', { name: 'Data quality' }).click();
    await page.getByRole('table', { name: 'Domains and tenants' }).getByText('TESTLAB.LOCAL').first().waitFor();
    expect(await page.getByText('Nodes', { exact: true }).count()).toBe(1);
  });

  it('registers a collector, schedules it and deletes it (enterprise)', async () => {
    await page.getByRole('link', { name: 'Collectors' }).click();
    await page.getByLabel('Collector name').fill('dc01-sharphound');
    await page.getByRole('button', { name: 'Register' }).click();
    await status('Collector dc01-sharphound registered');
    await page.getByLabel('Collector', { exact: true }).selectOption({ label: 'dc01-sharphound' });
    await page.getByRole('button', { name: 'Schedule' }).click();
    await status('Collection scheduled');
    await page.getByRole('table', { name: 'Scheduled collections' }).getByText('dc01-sharphound').waitFor();
    const row = page.getByRole('table', { name: 'Collectors' }).getByRole('row').filter({ hasText: 'dc01-sharphound' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('shows completeness and clears the collected graph data', async () => {
    await page.getByRole('link', { name: 'Data quality' }).click();
    await page.getByText('Session completeness').waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByLabel('All collected graph data').check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await status(/^Deleted [1-9][\d,]* nodes/);
    await page.reload();
    await page.getByRole('table', { name: 'Domains and tenants' }).waitFor();
    expect(await page.getByRole('table', { name: 'Domains and tenants' }).getByRole('row').count()).toBe(1);
  });
});
