import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { TESTLAB } from '../../test/helpers/fixtures';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Types into a node combobox (Search nodes, Start node, End node) and chooses the suggestion holding `name`. */
export async function choose(page: Page, combobox: string, term: string, name: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).fill(term);
  await page
    .getByRole('option', { name: new RegExp(escape(name)) })
    .first()
    .click();
}

/** Waits until the canvas draws at least `atLeast` nodes with its layout settled, and says what it draws. */
export async function drawn(page: Page, atLeast = 1): Promise<{ nodes: number; edges: number }> {
  await page.waitForFunction((n) => {
    const g = document.querySelector('[role="img"][aria-label="Graph"]');
    return Number(g?.getAttribute('data-node-count')) >= n && g?.getAttribute('data-layout') === 'done';
  }, atLeast);
  const canvas = page.getByRole('img', { name: 'Graph' });
  return { nodes: Number(await canvas.getAttribute('data-node-count')), edges: Number(await canvas.getAttribute('data-edge-count')) };
}

/** Signs in from the server's root (which redirects to the app) and waits for the signed-in navigation. */
export async function signInFromRoot(page: Page, base: string, username: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.waitForURL(/\/ui\//);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const nav = page.getByRole('navigation');
  for (const link of ['Explore', 'File ingest', 'Administration']) await nav.getByRole('link', { name: link }).waitFor();
}

/** Uploads TESTLAB's SharpHound files on File ingest, waits for a job row that says Complete; the files' names. */
export async function uploadTestlab(page: Page, timeout: number): Promise<string[]> {
  await page.getByRole('navigation').getByRole('link', { name: 'File ingest' }).click();
  const files = fs.readdirSync(TESTLAB).filter((f) => f.endsWith('.json'));
  await page.getByLabel('Upload files').setInputFiles(files.map((f) => path.join(TESTLAB, f)));
  await page.getByRole('button', { name: 'Upload' }).click();
  const jobs = page.getByRole('table', { name: 'Ingest jobs' });
  await jobs.getByRole('row').filter({ hasText: 'Complete' }).first().waitFor({ timeout });
  return files;
}
