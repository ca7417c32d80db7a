import { launchChromium, openSession, signIn } from './harness';
import { startWebStack } from '../../bench/web-stack';
(async () => {
  const st = await startWebStack({ generatedUsers: 600 });
  const b = await launchChromium();
  const s = await openSession(b);
  const page = s.page;
  await page.goto(`${st.base}/ui/`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(st.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation').waitFor();
  await page.goto(`${st.base}/ui/explore?tab=cypher`);
  await page.getByRole('textbox', { name: 'Cypher query' }).waitFor();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  await page.goto(`${st.base}/ui/explore?tab=cypher&run=1&cypher=${encodeURIComponent('MATCH (a)-[r]->(b) WHERE a.domain = "BENCH.LOCAL" RETURN a, r, b LIMIT 20000')}`);
  await page.waitForFunction(() => Number(document.querySelector('[aria-label="Graph"]')?.getAttribute('data-node-count')) > 10, undefined, { timeout: 120000 });
  const t1 = Date.now();
  await page.waitForFunction(() => document.querySelector('[aria-label="Graph"]')?.getAttribute('data-layout') === 'done', undefined, { timeout: 300000 });
  const t2 = Date.now();
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map<string, number>();
  const dt = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  (profile.samples ?? []).forEach((id: number, i: number) => {
    const n: any = byId.get(id);
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
    self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  console.log(await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/graphql')).map((e) => [Math.round(e.startTime), Math.round((e as PerformanceResourceTiming).responseEnd)])));

  console.log({ drawn: t1 - t0, layout: t2 - t1, counts: await page.evaluate(() => document.querySelector('[aria-label="Graph"]')!.getAttribute('data-edge-count')) });
  console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0)}ms ${k}`).join('\n'));
  await b.close(); await st.close();
  process.exit(0);
})();
