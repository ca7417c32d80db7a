import type { Page } from 'playwright-core';
import { choose, drawn, signInFromRoot, uploadTestlab } from './graph-page';
import { ADMIN, openSession, useE2E, type BrowserSession } from './harness';

const DOMAIN_SID = 'S-1-5-21-3130019616-2776909439-2417379446';
const DOMAIN_ADMINS = 'DOMAIN ADMINS@TESTLAB.LOCAL';

/** The page itself never scrolls: the shell stays put and long panels scroll inside themselves. */
async function expectNoPageScroll(page: Page) {
  const m = await page.evaluate(() => ({
    top: document.scrollingElement!.scrollTop,
    left: document.scrollingElement!.scrollLeft,
    height: document.scrollingElement!.scrollHeight,
    viewport: window.innerHeight,
    width: document.scrollingElement!.scrollWidth,
    viewportWidth: window.innerWidth,
  }));
  expect(m).toMatchObject({ top: 0, left: 0 });
  expect(m.height).toBeLessThanOrEqual(m.viewport);
  expect(m.width).toBeLessThanOrEqual(m.viewportWidth);
}

/**
 * One analyst's day as someone coming from BloodHound would spend it, on an empty server: sign in, upload a
 * SharpHound collection from the browser, then search, read panels, pathfind, run typed, pre-built and saved Cypher,
 * and visit every administration page, at 1280×720 with no console error and nothing fetched from outside.
 */
describe('an analyst from BloodHound, start to finish', () => {
  const e = useE2E({ ingest: false });
  let s: BrowserSession;
  let page: Page;
  beforeAll(async () => {
    s = await openSession(e.browser);
    page = s.page;
  });
  afterAll(() => s.context.close());
  afterEach(async () => {
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await expectNoPageScroll(page);
  });

  it('signs in from the server root', async () => {
    await signInFromRoot(page, e.base, ADMIN.username, ADMIN.password);
  });

  it('uploads a whole SharpHound collection and sees every file ingested and analysed', async () => {
    const files = await uploadTestlab(page, 60_000);
    const perFile = page.getByRole('table', { name: /^Files of job/ });
    await perFile.getByText('users.json').waitFor();
    // A header row and one row per file, each ingested.
    expect(await perFile.getByRole('row').count()).toBe(files.length + 1);
    expect(await perFile.getByRole('cell', { name: 'Ingested', exact: true }).count()).toBe(files.length);
    await page.getByText(/files ingested and analyzed/).waitFor({ timeout: 60_000 });
  });

  it('searches the uploaded data by object id, draws the node and reads its panel', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Explore' }).click();
    await page.getByRole('tab', { name: 'Search' }).click();
    await choose(page, 'Search nodes', `${DOMAIN_SID}-512`, DOMAIN_ADMINS);
    const entity = page.getByRole('complementary', { name: 'Entity' });
    await entity.getByRole('heading', { name: DOMAIN_ADMINS }).waitFor();
    expect(await drawn(page)).toEqual({ nodes: 1, edges: 0 });
    // Analysis ran on the upload: the group is Tier Zero.
    await entity.getByText('Tier Zero', { exact: true }).waitFor();
    const members = entity.getByRole('button', { name: /^Members\s+\d+/ });
    await members.click();
    expect((await drawn(page, 2)).edges).toBeGreaterThan(0);
  });

  it('opens a member from the table view in its own panel', async () => {
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.getByRole('table', { name: 'Nodes' }).getByRole('button', { name: 'ADMINISTRATOR@TESTLAB.LOCAL' }).click();
    const entity = page.getByRole('complementary', { name: 'Entity' });
    await entity.getByRole('heading', { name: 'ADMINISTRATOR@TESTLAB.LOCAL' }).waitFor();
    await entity.getByRole('button', { name: /^Member Of\s+\d+/ }).waitFor();
    await page.getByRole('button', { name: 'Graph view' }).click();
  });

  it('finds the shortest paths from a user to Domain Admins and opens an edge of them', async () => {
    await page.getByRole('tab', { name: 'Pathfinding' }).click();
    await choose(page, 'Start node', 'dfm', 'DFM@TESTLAB.LOCAL');
    await choose(page, 'End node', 'domain adm', DOMAIN_ADMINS);
    await page
      .getByRole('status')
      .filter({ hasText: /shortest paths? of \d+ hops?/ })
      .waitFor();
    const g = await drawn(page, 3);
    expect(g.edges).toBeGreaterThanOrEqual(g.nodes - 1);
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.getByRole('table', { name: 'Edges' }).getByRole('button', { name: 'HasSession' }).click();
    await page.getByRole('complementary', { name: 'Edge' }).getByRole('heading', { name: 'HasSession' }).waitFor();
    await page.getByRole('button', { name: 'Graph view' }).click();
  });

  it('sets a path’s ends from the nodes’ own menus, as from a right click in BloodHound', async () => {
    const entity = page.getByRole('complementary', { name: 'Entity' });
    const fromMenu = async (term: string, name: string, item: string) => {
      await page.getByRole('tab', { name: 'Search' }).click();
      await choose(page, 'Search nodes', term, name);
      await entity.getByRole('heading', { name }).waitFor();
      await entity.getByRole('button', { name: 'Node actions' }).click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    await fromMenu('dfm', 'DFM@TESTLAB.LOCAL', 'Set as starting node');
    await page.waitForURL((u) => u.searchParams.get('tab') === 'pathfinding' && u.searchParams.get('start') === `${DOMAIN_SID}-1105`);
    await fromMenu('domain adm', DOMAIN_ADMINS, 'Set as ending node');
    await page.waitForURL((u) => u.searchParams.get('start') === `${DOMAIN_SID}-1105` && u.searchParams.get('end') === `${DOMAIN_SID}-512`);
    expect(await page.getByRole('combobox', { name: 'Start node' }).inputValue()).toBe('DFM@TESTLAB.LOCAL');
    expect(await page.getByRole('combobox', { name: 'End node' }).inputValue()).toBe(DOMAIN_ADMINS);
    await page
      .getByRole('status')
      .filter({ hasText: /shortest paths? of \d+ hops?/ })
      .waitFor();
    expect((await drawn(page, 3)).edges).toBeGreaterThan(1);
  });

  it('runs a typed Cypher query, then a pre-built one', async () => {
    await page.getByRole('tab', { name: 'Cypher' }).click();
    await page.getByRole('textbox', { name: 'Cypher query' }).fill('MATCH p=(:User)-[:AdminTo]->(:Computer) RETURN p');
    await page.getByRole('button', { name: 'Run' }).click();
    expect((await drawn(page, 2)).edges).toBeGreaterThan(0);
    const prebuilt = page.getByRole('list', { name: 'Pre-built queries' });
    await page.getByLabel('Filter pre-built queries').fill('Kerberoastable');
    const item = prebuilt.getByRole('button', { name: /Kerberoastable/i }).first();
    const name = await item.innerText();
    await item.click();
    await page
      .getByRole('status')
      .filter({ hasText: /nodes?, \d+ edges?|no result|rows?/i })
      .first()
      .waitFor();
    // The query loaded into the editor is the pre-built one, and the URL says what ran.
    expect(new URL(page.url()).searchParams.get('cypher')).toMatch(/MATCH/);
    expect(name.length).toBeGreaterThan(3);
  });

  it('saves a query and runs it again from the saved queries', async () => {
    await page.getByLabel('Filter pre-built queries').fill('');
    await page.getByRole('textbox', { name: 'Cypher query' }).fill('MATCH (g:Group) WHERE g.name STARTS WITH "DOMAIN" RETURN g');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Domain groups');
    await page.getByRole('dialog').getByRole('button', { name: 'Save query' }).click();
    const saved = page.getByRole('list', { name: 'Saved queries' });
    await saved.getByRole('button', { name: 'Domain groups', exact: true }).waitFor();
    // Something else on the canvas, then the saved query brings its answer back.
    await page.getByRole('textbox', { name: 'Cypher query' }).fill('MATCH (d:Domain) RETURN d');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL((u) => u.searchParams.get('cypher') === 'MATCH (d:Domain) RETURN d');
    await drawn(page, 1);
    await saved.getByRole('button', { name: 'Domain groups', exact: true }).click();
    await page.waitForURL((u) => (u.searchParams.get('cypher') ?? '').startsWith('MATCH (g:Group)'));
    expect((await drawn(page, 2)).nodes).toBeGreaterThan(1);
    expect(await page.getByRole('textbox', { name: 'Cypher query' }).innerText()).toContain('STARTS WITH "DOMAIN"');
  });

  it('visits every administration page', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Administration' }).click();
    const pages: [string, RegExp][] = [
      ['Users', /^Users$/],
      ['API tokens', /API tokens/],
      ['SSO providers', /SSO providers/],
      ['Zones and labels', /Zones and labels/],
      ['Collectors', /Collectors/],
      ['Configuration', /Configuration/],
      ['Data quality', /Data quality/],
    ];
    for (const [link, heading] of pages) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expectNoPageScroll(page);
    }
  });
});
