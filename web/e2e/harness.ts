import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from './stack';

import { launchChromium } from './chromium';

export { CHROMIUM, CHROMIUM_ARGS, launchChromium } from './chromium';

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Requests that tried to leave 127.0.0.1 (each was failed). */
  outside: string[];
}

/**
 * A new browser context at 1280×720: every request that leaves 127.0.0.1 is failed and recorded, every console
 * error and page error recorded, so a test can assert that there were none.
 */
export async function openSession(browser: Browser, viewport = { width: 1280, height: 720 }): Promise<BrowserSession> {
  const context = await browser.newContext({ viewport, acceptDownloads: true, serviceWorkers: 'block' });
  const errors: string[] = [];
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  // Functions a tsx-run script hands to page.evaluate call esbuild's `__name` helper, which pages lack.
  await context.addInitScript('window.__name = (f) => f');
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return { context, page, errors, outside };
}

export interface E2EServer extends Omit<Stack, 'close'> {
  browser: Browser;
}

/**
 * For one test file: the real stack (migrations, services, the app with /ui) on a fresh schema, the golden
 * TESTLAB collection ingested and analysed, served on an ephemeral port of 127.0.0.1, and one Chromium.
 */
export function useE2E(opts: { ingest?: boolean } = {}): E2EServer {
  const holder = {} as E2EServer;
  let stack: Stack | undefined;
  beforeAll(async () => {
    if (!fs.existsSync(path.resolve(__dirname, '..', '..', 'dist', 'web', 'index.html')))
      throw new Error('The web app is not built: run `npm run build:web` (npm run test:e2e does it).');
    stack = await startStack(opts);
    Object.assign(holder, { t: stack.t, base: stack.base, browser: await launchChromium() });
  }, 120_000);
  afterAll(async () => {
    await holder.browser?.close();
    await stack?.close();
  });
  return holder;
}

export const ADMIN = { username: 'admin', password: 'admin-password-for-tests' };

/** Signs in through the form as a person would. */
export async function signIn(page: Page, base: string, who = ADMIN, at = '/ui/'): Promise<void> {
  await page.goto(base + at);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation').waitFor();
}

/** A temporary directory for downloads and files a test writes. */
export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gas-e2e-'));
