import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { choose, drawn, signInFromRoot, uploadTestlab } from './graph-page';
import { launchChromium, openSession, type BrowserSession } from './harness';
import { freePort } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');
const DOMAIN_ADMINS = 'DOMAIN ADMINS@TESTLAB.LOCAL';

// The build (tsc when the server's sources changed) and the embedded cluster's first start (initdb) are in here.
jest.setTimeout(300_000);

interface Service {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its URL and the admin password it printed, once it listens. */
  ready: Promise<{ url: string; password: string }>;
  output(): string;
}

/**
 * `npm start`'s second half, as the README runs it: `node dist/cli.js serve` in the checkout, with nothing but a
 * fresh DATA_DIR and a free PORT, so the database is the embedded PostgreSQL and the admin password is generated and
 * printed once. None of the test run's settings reach it (TEST_DATABASE_URL, a secret key, an admin password). It
 * listens on 127.0.0.1 rather than every interface, for the test's few seconds on a shared machine.
 */
function serve(dataDir: string, port: number): Service {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  for (const name of ['HOME', 'TMPDIR', 'LANG']) if (process.env[name]) env[name] = process.env[name]!;
  const child = spawn(process.execPath, ['dist/cli.js', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let out = '';
  const ready = new Promise<{ url: string; password: string }>((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      const url = /"url":"(http:\/\/[^"]+)"[^\n]*graph analysis service listening/.exec(out)?.[1];
      const password = /Created user "admin" \(Administrator\) with password: (\S+)/.exec(out)?.[1];
      if (url && password) resolve({ url, password });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    void exited.then(({ code, signal }) => reject(new Error(`gas serve ended (${code ?? signal}) before listening:\n${out}`)));
  });
  return { child, exited, ready, output: () => out };
}

/**
 * The README's way, end to end: build, serve on the embedded default, and in the browser sign in as the generated
 * admin, upload a SharpHound collection, search, draw a path and run a pre-built query; SIGTERM then stops the
 * service and its cluster, and it exits 0.
 */
describe('the service as `npm start` runs it', () => {
  let dataDir: string;
  let service: Service | undefined;
  let url: string;
  let password: string;
  let browser: Browser;
  let s: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    // `npm start`'s build step; a checkout built before costs a few hashes.
    await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-npm-start-'));
    service = serve(dataDir, await freePort());
    ({ url, password } = await service.ready);
    browser = await launchChromium();
    s = await openSession(browser);
    page = s.page;
  });
  afterAll(async () => {
    await browser?.close();
    // A test that failed midway still stops the service the proper way, so its cluster is not left running.
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
  });

  it('starts on the embedded PostgreSQL in DATA_DIR and prints the generated admin password once', () => {
    expect(service!.output()).toMatch(/"storage":"embedded"[^\n]*graph analysis service listening/);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);
    expect(service!.output().match(/Created user "admin"/g)).toHaveLength(1);
  });

  it('signs in at /ui/ as admin with the printed password', async () => {
    await signInFromRoot(page, url, 'admin', password);
  });

  it('uploads the golden SharpHound collection on File ingest and waits for Complete', async () => {
    await uploadTestlab(page, 90_000);
    await page.getByText(/files ingested and analyzed/).waitFor({ timeout: 90_000 });
  });

  it('searches a node and reads its panel', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Explore' }).click();
    await page.getByRole('tab', { name: 'Search' }).click();
    await choose(page, 'Search nodes', 'domain adm', DOMAIN_ADMINS);
    const entity = page.getByRole('complementary', { name: 'Entity' });
    await entity.getByRole('heading', { name: DOMAIN_ADMINS }).waitFor();
    expect(await drawn(page)).toEqual({ nodes: 1, edges: 0 });
    await entity.getByText('Tier Zero', { exact: true }).waitFor();
  });

  it('draws the shortest paths from a user to Domain Admins', async () => {
    await page.getByRole('tab', { name: 'Pathfinding' }).click();
    await choose(page, 'Start node', 'dfm', 'DFM@TESTLAB.LOCAL');
    await choose(page, 'End node', 'domain adm', DOMAIN_ADMINS);
    await page
      .getByRole('status')
      .filter({ hasText: /shortest paths? of \d+ hops?/ })
      .waitFor();
    const g = await drawn(page, 3);
    expect(g.edges).toBeGreaterThanOrEqual(g.nodes - 1);
  });

  it('runs a pre-built Cypher query', async () => {
    await page.getByRole('tab', { name: 'Cypher' }).click();
    await page.getByLabel('Filter pre-built queries').fill('Domain Admins');
    await page
      .getByRole('list', { name: 'Pre-built queries' })
      .getByRole('button', { name: /All Domain Admins/i })
      .first()
      .click();
    await page.waitForURL((u) => /MATCH/.test(u.searchParams.get('cypher') ?? ''));
    expect((await drawn(page, 2)).edges).toBeGreaterThan(0);
  });

  it('stops on SIGTERM, its cluster with it, and exits 0', async () => {
    await s.context.close();
    service!.child.kill('SIGTERM');
    expect(await service!.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(service!.output()).toMatch(/"signal":"SIGTERM"[^\n]*shutting down/);
  });
});
