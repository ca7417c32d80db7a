/**
 * Regenerates the README's picture of Explore with a path drawn (docs/images/explore-path.png): the real server
 * on the TESTLAB collection (BENCH_DATABASE_URL, or the embedded store), Debian's Chromium at 1440×810 in the dark
 * theme, the shortest paths from DFM@TESTLAB.LOCAL to DOMAIN ADMINS, laid out left to right.
 * `npm run screenshot` (after `npm run build:web`).
 */
import path from 'node:path';
import { startWebStack } from '../../bench/web-stack';
import { launchChromium } from './chromium';

const DOMAIN = 'S-1-5-21-3130019616-2776909439-2417379446';
const OUT = path.resolve(__dirname, '..', '..', 'docs', 'images', 'explore-path.png');

async function main() {
  const stack = await startWebStack();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 810 }, deviceScaleFactor: 1 });
    await context.addInitScript(() => localStorage.setItem('gas.theme', 'dark'));
    const page = await context.newPage();
    await page.goto(`${stack.base}/ui/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(stack.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation').waitFor();
    await page.goto(`${stack.base}/ui/explore?tab=pathfinding&start=${DOMAIN}-1105&end=${DOMAIN}-512`);
    await page.waitForFunction(() => {
      const g = document.querySelector('[aria-label="Graph"]');
      return Number(g?.getAttribute('data-node-count')) >= 4 && g?.getAttribute('data-layout') === 'done';
    });
    // The camera's fit animation, then the icons' textures.
    await page.waitForTimeout(800);
    await page.screenshot({ path: OUT });
    process.stdout.write(`${OUT}\n`);
  } finally {
    await browser.close();
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
