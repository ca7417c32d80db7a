import type { Page } from 'playwright-core';

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
