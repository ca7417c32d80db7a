import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openSession, signIn, tempDir, useE2E, type BrowserSession } from './harness';

const nodeCount = (page: Page) => page.getByRole('img', { name: 'Graph' }).getAttribute('data-node-count').then(Number);

describe('Cypher', () => {
  const e = useE2E();
  let s: BrowserSession;
  let page: Page;
  beforeAll(async () => {
    s = await openSession(e.browser);
    page = s.page;
    await signIn(page, e.base, undefined, '/ui/explore?tab=cypher');
  });
  afterAll(() => s.context.close());
  afterEach(() => {
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
  });

  it('runs a typed query and draws its answer; the query is in the URL', async () => {
    const editor = page.getByRole('textbox', { name: 'Cypher query' });
    await editor.fill('MATCH p=(u:User)-[:MemberOf]->(g:Group) RETURN p LIMIT 10');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-node-count')) > 1);
    expect(await nodeCount(page)).toBeGreaterThan(1);
    expect(new URL(page.url()).searchParams.get('cypher')).toMatch(/^MATCH p=/);
    await page
      .getByRole('status')
      .filter({ hasText: /nodes?, \d+ edges?/ })
      .first()
      .waitFor();
  });

  it('runs with Ctrl+Enter in the editor', async () => {
    const editor = page.getByRole('textbox', { name: 'Cypher query' });
    await editor.fill('MATCH (n:Domain) RETURN n');
    await editor.press('Control+Enter');
    await page.waitForURL(/cypher=MATCH\+%28n%3ADomain%29/);
    // Domains only: drawn as nodes without edges.
    await page.waitForFunction(() => {
      const g = document.querySelector('[aria-label="Graph"]');
      return Number(g?.getAttribute('data-node-count')) >= 1 && g?.getAttribute('data-edge-count') === '0';
    });
  });

  it('draws an answer without properties; the Edge panel and the JSON export fetch them', async () => {
    const editor = page.getByRole('textbox', { name: 'Cypher query' });
    await editor.fill('MATCH p=(:User)-[:GenericAll]->() RETURN p LIMIT 3');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-edge-count')) > 0);
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.getByRole('table', { name: 'Edges' }).getByRole('button').first().click();
    const panel = page.getByRole('complementary', { name: 'Edge' });
    await panel.getByRole('heading', { name: 'GenericAll' }).waitFor();
    await panel.getByText('isacl').waitFor();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const body = JSON.parse(fs.readFileSync((await json.path())!, 'utf8'));
    expect(body.nodes[0].properties.objectid).toBe(body.nodes[0].objectId);
    expect(body.edges.find((x: { kind: string }) => x.kind === 'GenericAll').properties).toMatchObject({ isacl: true });
    await page.getByRole('button', { name: 'Graph view' }).click();
  });

  it('shows a syntax error at the query, as an alert', async () => {
    const editor = page.getByRole('textbox', { name: 'Cypher query' });
    await editor.fill('MATCH (n:User RETURN n');
    await page.getByRole('button', { name: 'Run' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/line 1, column/);
    await page.locator('.cm-query-error').waitFor();
    // The 400 is the server's answer to a bad query (the browser logs it); nothing else went wrong.
    s.errors.splice(0, s.errors.length, ...s.errors.filter((m) => !/status of 400 .*\/graphql\)$/.test(m)));
  });

  it('loads and runs a pre-built query from its category', async () => {
    const list = page.getByRole('list', { name: 'Pre-built queries' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBeGreaterThan(3);
    await page.getByLabel('Filter pre-built queries').fill('domain admins');
    await list
      .getByRole('button', { name: /Domain Admins/i })
      .first()
      .click();
    await page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-node-count')) > 0);
  });

  it('saves, shares, exports, imports and deletes a saved query', async () => {
    const editor = page.getByRole('textbox', { name: 'Cypher query' });
    await editor.fill('MATCH (c:Computer) RETURN c');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('All computers');
    await page.getByRole('dialog').getByRole('button', { name: 'Save query' }).click();
    const saved = page.getByRole('list', { name: 'Saved queries' });
    await saved.getByRole('button', { name: 'All computers', exact: true }).waitFor();
    await saved.getByRole('button', { name: 'Share All computers' }).click();
    await page.getByRole('menuitem', { name: 'Make public' }).click();
    await page.getByText('All computers is public now.').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      saved.getByRole('button', { name: 'Export All computers' }).click(),
    ]);
    const dir = tempDir();
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'All computers', query: 'MATCH (c:Computer) RETURN c' });
    await saved.getByRole('button', { name: 'Delete All computers' }).click();
    await saved.getByRole('button', { name: 'All computers', exact: true }).waitFor({ state: 'detached' });
    await page.getByLabel('Import queries').setInputFiles(file);
    await page.getByText(/1 query imported/).waitFor();
    await saved.getByRole('button', { name: 'All computers', exact: true }).click();
    await page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-node-count')) > 0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shares a saved query with one user, who runs it; unsharing takes it away again', async () => {
    const reader = { username: 'reader', password: 'reader-password-for-tests' };
    const res = await fetch(`${e.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${e.t.adminJwt}` },
      body: JSON.stringify({
        query: 'mutation ($i: CreateUserInput!) { createUser(input: $i) { id } }',
        variables: { i: { principalName: reader.username, password: reader.password, role: 'User' } },
      }),
    });
    expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
    await page.getByRole('textbox', { name: 'Cypher query' }).fill('MATCH (d:Domain) RETURN d');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Domains for the reader');
    await page.getByRole('dialog').getByRole('button', { name: 'Save query' }).click();
    const saved = page.getByRole('list', { name: 'Saved queries' });
    const share = async (tick: boolean) => {
      await saved.getByRole('button', { name: 'Share Domains for the reader' }).click();
      await page.getByRole('menuitem', { name: 'Share with users…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share Domains for the reader' });
      const box = dialog.getByRole('checkbox', { name: 'reader' });
      expect(await box.isChecked()).toBe(!tick);
      await box.setChecked(tick);
      await dialog.getByRole('button', { name: 'Save sharing' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await share(true);
    await page.getByText('Domains for the reader is shared with 1 user.').waitFor();

    const other = await openSession(e.browser);
    await signIn(other.page, e.base, reader, '/ui/explore?tab=cypher');
    const theirs = other.page.getByRole('list', { name: 'Saved queries' });
    await theirs.getByRole('button', { name: /^Domains for the reader · shared$/ }).click();
    await other.page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-node-count')) > 0);
    // Not theirs to share or delete.
    expect(await theirs.getByRole('button', { name: 'Delete Domains for the reader' }).count()).toBe(0);

    await share(false);
    await page.getByText('Domains for the reader is shared with nobody.').waitFor();
    await other.page.reload();
    await other.page.getByText(/No saved queries yet/).waitFor();
    expect(await theirs.getByRole('listitem').count()).toBe(0);
    expect(other.errors).toEqual([]);
    await other.context.close();
  });
});
