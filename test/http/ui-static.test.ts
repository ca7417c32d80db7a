import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { errorHandler, notFoundHandler } from '../../src/http/errors';
import { requestId } from '../../src/http/request-id';
import { mountStaticUi, uiCsp } from '../../src/http/ui/static-app';
import { expectWrapper } from '../helpers/app';
import { testLog } from '../helpers/db';

/** The serving rules on a build laid out as vite writes it: index.html and hashed files under assets/. */
function appOn(dir: string) {
  const app = express();
  app.use(requestId());
  mountStaticUi(app, dir);
  app.use(notFoundHandler);
  app.use(errorHandler(testLog()));
  return app;
}

describe('the web app under /ui/', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-ui-'));
  const html =
    '<!doctype html><meta name="csp-nonce" nonce="__CSP_NONCE__"><script type="module" src="/ui/assets/index-AbC123.js"></script>';
  beforeAll(() => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), html);
    fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log(1);'.repeat(200));
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const app = appOn(dir);

  it('redirects / and /ui to the app', async () => {
    expect((await request(app).get('/')).headers.location).toBe('/ui/');
    expect((await request(app).get('/ui')).headers.location).toBe('/ui/');
  });

  it.each(['/ui/', '/ui/login', '/ui/explore?node=S-1-5-21-1-2-3-500', '/ui/administration/users'])(
    'answers %s with index.html, revalidated on every load, under the strict CSP',
    async (url) => {
      const res = await request(app).get(url);
      expect(res.status).toBe(200);
      const nonce = /nonce="([^"]+)"/.exec(res.text)![1]!;
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.text).toBe(html.replace('__CSP_NONCE__', nonce));
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(uiCsp(nonce));
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|style-src '[^;]*unsafe-inline/);
    },
  );

  it('serves hashed assets for a year, compressed, and a missing asset as a 404 (never the page)', async () => {
    const res = await request(app).get('/ui/assets/index-AbC123.js').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expectWrapper(await request(app).get('/ui/assets/index-Gone00.js'), 404);
    expect((await request(app).get('/ui/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('gives every page a fresh nonce', async () => {
    const a = /nonce="([^"]+)"/.exec((await request(app).get('/ui/')).text)![1];
    const b = /nonce="([^"]+)"/.exec((await request(app).get('/ui/')).text)![1];
    expect(a).not.toBe(b);
  });

  it('says the app is not built (503) rather than serving nothing', async () => {
    const res = await request(appOn(path.join(dir, 'nowhere'))).get('/ui/explore');
    expect(expectWrapper(res, 503).message).toMatch(/npm run build/);
  });
});
