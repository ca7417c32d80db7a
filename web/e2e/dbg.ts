import { launchChromium, openSession, signIn } from './harness';
import { startStack } from './stack';
(async () => {
  const st = await startStack();
  const b = await launchChromium();
  const s = await openSession(b);
  await s.page.addInitScript(() => {
    const d = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')!;
    (window as any).__imgs = [];
    Object.defineProperty(HTMLImageElement.prototype, 'src', { set(v) { const rec = { v: String(v).slice(0, 40), st: 'pending' }; (window as any).__imgs.push(rec); this.addEventListener('load', () => (rec.st = 'load')); this.addEventListener('error', () => (rec.st = 'error')); d.set!.call(this, v); }, get() { return d.get!.call(this); } });
  });
  await signIn(s.page, st.base);
  await s.page.goto(`${st.base}/ui/explore?tab=pathfinding&start=S-1-5-21-3130019616-2776909439-2417379446-1105&end=S-1-5-21-3130019616-2776909439-2417379446-512`);
  await s.page.waitForFunction(() => document.querySelector('[aria-label="Graph"]')?.getAttribute('data-layout') === 'done');
  await s.page.waitForTimeout(600);
  await s.page.screenshot({ path: '/tmp/shot2.png' });
  await s.page.evaluate(() => document.querySelector<HTMLButtonElement>('[aria-label^="Switch to dark"]')?.click());
  await s.page.goto(`${st.base}/ui/explore?node=S-1-5-21-3130019616-2776909439-2417379446-512&list=members&select=S-1-5-21-3130019616-2776909439-2417379446-512`);
  await s.page.waitForFunction(() => document.querySelector('[aria-label="Graph"]')?.getAttribute('data-layout') === 'done');
  await s.page.waitForTimeout(300);
  await s.page.screenshot({ path: '/tmp/shot3.png' });
  console.log(await s.page.evaluate(async () => {
    const src = document.querySelector<HTMLImageElement>('.panel header img')!.src;
    const img = new Image();
    img.setAttribute('crossOrigin', 'anonymous');
    const r = await new Promise((res) => { img.onload = () => res('load ' + img.naturalWidth); img.onerror = (e) => res('error ' + String(e)); img.src = src; });
    const c = document.createElement('canvas'); c.width = 64; c.height = 64; const ctx = c.getContext('2d')!; ctx.drawImage(img, 0, 0, 64, 64);
    let tainted = 'ok'; try { ctx.getImageData(0, 0, 1, 1); } catch (e) { tainted = String(e); }
    return [r, tainted, src.slice(0, 80)];
  }));
  console.log(await s.page.evaluate(() => JSON.stringify((window as any).__imgs)));
  console.log(s.errors);
  await b.close(); await st.close();
})();
