import { choose, drawn } from './graph-page';
import { openSession, signIn, useE2E, type BrowserSession } from './harness';

const DOMAIN_ADMINS = 'DOMAIN ADMINS@TESTLAB.LOCAL';

describe('Explore', () => {
  const e = useE2E();
  let s: BrowserSession;
  beforeAll(async () => {
    s = await openSession(e.browser);
    await signIn(s.page, e.base);
  });
  afterAll(() => s.context.close());
  afterEach(() => {
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
  });

  it('searches a node, draws it and opens its entity panel with its lists', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: 'Search' }).click();
    await choose(page, 'Search nodes', 'domain adm', DOMAIN_ADMINS);
    const entity = page.getByRole('complementary', { name: 'Entity' });
    await entity.getByRole('heading', { name: DOMAIN_ADMINS }).waitFor();
    expect(await drawn(page)).toEqual({ nodes: 1, edges: 0 });
    await entity.getByText('Tier Zero', { exact: true }).waitFor();
    expect(page.url()).toMatch(/node=S-1-5-21-.*-512/);
    // Opening a list draws it: the group's members around it.
    const members = entity.getByRole('button', { name: /^Members\s+\d+/ });
    await members.click();
    const g = await drawn(page, 2);
    expect(g.edges).toBeGreaterThan(0);
    expect(page.url()).toContain('list=members');
    expect(await members.getAttribute('aria-pressed')).toBe('true');
  });

  it('opens the same view from a shared link', async () => {
    const url = s.page.url();
    const other = await openSession(e.browser);
    await signIn(other.page, e.base, undefined, url.slice(e.base.length));
    await other.page.getByRole('complementary', { name: 'Entity' }).getByRole('heading', { name: DOMAIN_ADMINS }).waitFor();
    expect((await drawn(other.page, 2)).edges).toBeGreaterThan(0);
    expect(other.errors).toEqual([]);
    await other.context.close();
  });

  it('shows the result as a table and exports it as JSON and PNG', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Table view' }).click();
    const rows = page.getByRole('table', { name: 'Nodes' }).getByRole('row');
    expect(await rows.count()).toBeGreaterThan(2);
    await page.getByRole('button', { name: 'Graph view' }).click();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const body = JSON.parse(await streamText(await json.createReadStream()));
    expect(body.nodes.length).toBeGreaterThan(1);
    expect(body.edges[0]).toMatchObject({ kind: 'MemberOf' });
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
    const bytes = await streamBytes(await png.createReadStream());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(2000);
  });

  it('finds the shortest paths between two nodes, swaps them and filters edge kinds', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: 'Pathfinding' }).click();
    await choose(page, 'Start node', 'dfm', 'DFM@TESTLAB.LOCAL');
    await choose(page, 'End node', 'domain adm', DOMAIN_ADMINS);
    const g = await drawn(page, 2);
    expect(g.edges).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: /shortest path/ })
      .waitFor();
    expect(page.url()).toMatch(/tab=pathfinding.*start=.*end=/);
    // At 1280×720 the chosen end node's whole name shows in its field.
    const fits = await page
      .getByRole('combobox', { name: 'End node' })
      .evaluate((el: HTMLInputElement) => [el.value, el.scrollWidth <= el.clientWidth] as const);
    expect(fits).toEqual([DOMAIN_ADMINS, true]);
    const start = new URL(page.url()).searchParams.get('start');
    const end = new URL(page.url()).searchParams.get('end');
    await page.getByRole('button', { name: 'Swap start and end' }).click();
    await page.waitForURL((u) => u.searchParams.get('start') === end && u.searchParams.get('end') === start);
    await page.waitForFunction(
      (name) =>
        [...document.querySelectorAll('input')].some(
          (i) => i.value === name && i.closest('.combobox')?.textContent?.startsWith('Start node'),
        ),
      DOMAIN_ADMINS,
    );
    await page.getByRole('button', { name: 'Swap start and end' }).click();
    await page.waitForURL((u) => u.searchParams.get('start') === start);
    await drawn(page, 2);
    // Leaving out MemberOf changes the answer.
    await page.getByRole('button', { name: /^Edge filter/ }).click();
    await page.getByRole('dialog').getByLabel('MemberOf', { exact: true }).first().uncheck();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/exclude=MemberOf/);
  });

  it('marks a node owned from its menu, and shows it in the panel', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: 'Search' }).click();
    await choose(page, 'Search nodes', 'dfm', 'DFM@TESTLAB.LOCAL');
    const entity = page.getByRole('complementary', { name: 'Entity' });
    await entity.getByRole('heading', { name: 'DFM@TESTLAB.LOCAL' }).waitFor();
    await entity.getByRole('button', { name: 'Node actions' }).click();
    await page.getByRole('menuitem', { name: 'Add to Owned' }).click();
    await entity.getByText('Owned', { exact: true }).waitFor();
    // Right click on the drawn node opens the same menu at the node.
    await drawn(page, 1);
    const box = (await page.getByRole('img', { name: 'Graph' }).boundingBox())!;
    await page.waitForFunction(() => document.querySelector('[aria-label="Graph"]')?.getAttribute('data-layout') === 'done');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Remove from Owned' }).click();
    await page.getByText('removed from Owned').waitFor();
    await page.getByRole('menuitem', { name: 'Set as starting node' }).waitFor({ state: 'detached' });
  });

  it('lays the graph out hierarchically or by force, and zooms', async () => {
    const { page } = s;
    const cypher = 'MATCH p=(:User)-[:MemberOf]->(:Group) RETURN p LIMIT 20';
    await page.goto(`${e.base}/ui/explore?tab=cypher&run=1&cypher=${encodeURIComponent(cypher)}`);
    await drawn(page, 5);
    // The picture as exported: the same view twice gives the same bytes, so a different picture means it moved.
    const picture = async () => {
      await page.waitForFunction(() => document.querySelector('[aria-label="Graph"]')?.getAttribute('data-layout') === 'done');
      await page.waitForTimeout(400); // the camera's 200 ms animation
      const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
      return streamBytes(await png.createReadStream());
    };
    const force = await picture();
    expect((await picture()).equals(force)).toBe(true);
    await page.getByLabel('Layout').selectOption('hierarchical');
    let hierarchical = await picture();
    // The select may be read before its change reaches the canvas: look again while the picture is the old one.
    for (let i = 0; i < 20 && hierarchical.equals(force); i++) hierarchical = await picture();
    expect(hierarchical.equals(force)).toBe(false);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await picture();
    expect(zoomed.equals(hierarchical)).toBe(false);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect((await picture()).equals(zoomed)).toBe(false);
  });

  it('opens an edge from the table; a derived edge shows what it came from', async () => {
    const { page } = s;
    await page.goto(`${e.base}/ui/explore?tab=cypher&run=1&cypher=${encodeURIComponent('MATCH p=()-[:DCSync]->() RETURN p LIMIT 1')}`);
    await drawn(page, 2);
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.getByRole('table', { name: 'Edges' }).getByRole('button', { name: 'DCSync' }).click();
    const panel = page.getByRole('complementary', { name: 'Edge' });
    await panel.getByRole('heading', { name: 'DCSync' }).waitFor();
    await panel.getByRole('button', { name: /^Composition\s+4/ }).waitFor();
    expect(await panel.innerText()).toMatch(/GETCHANGESGROUP@TESTLAB.LOCAL → GetChanges → TESTLAB.LOCAL/);
    await page.getByRole('button', { name: 'Graph view' }).click();
  });
});

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}
const streamText = async (s: NodeJS.ReadableStream) => (await streamBytes(s)).toString('utf8');
