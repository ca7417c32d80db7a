import { launchChromium, openSession, signIn } from './harness';
import { startStack } from './stack';
(async () => {
  const st = await startStack();
  const b = await launchChromium();
  const s = await openSession(b);
  const page = s.page;
  await page.addInitScript(() => {
    (window as any).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as any).__csp.push([e.violatedDirective, e.sample, e.sourceFile, e.lineNumber, e.columnNumber, (e.target as Element)?.outerHTML?.slice(0, 200)]));
  });
  await signIn(page, st.base, undefined, '/ui/explore?tab=cypher');
  await page.getByRole('textbox', { name: 'Cypher query' }).fill('MATCH p=(u:User)-[:MemberOf]->(g:Group) RETURN p LIMIT 10');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForTimeout(1500);
  const ed = page.getByRole('textbox', { name: 'Cypher query' });
  await ed.fill('MATCH (n:Domain) RETURN n');
  await ed.press('Control+Enter');
  await page.waitForTimeout(1500);
  console.log(page.url());
  console.log(JSON.stringify(await page.evaluate(() => (window as any).__csp), null, 1), s.errors);
  await b.close(); await st.close();
})();
