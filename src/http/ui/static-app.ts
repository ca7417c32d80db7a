import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { notFound, unavailable } from '../../errors.js';

/** Where `npm run build` writes the web app (web/ → dist/web), from src/http/ui (tests) and dist/http/ui alike. */
export const UI_DIR = path.resolve(__dirname, '..', '..', '..', 'dist', 'web');

/**
 * The app's Content-Security-Policy: scripts, styles, workers and requests from this server only; no inline
 * script and no eval; <style> elements only with the page's nonce (the ones React Aria and CodeMirror add carry
 * it), style attributes allowed; images may be data: and blob: URLs (node icons are SVG data URLs, PNG export is a blob).
 */
export function uiCsp(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    // Style attributes only (never <style> elements): the browser's own editing commands write them into the
    // Cypher editor's content when text is replaced, and they cannot run anything.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The placeholder of index.html (web/index.html) that each answer replaces with a fresh nonce. */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Vite names every built asset with a hash of its content, so an asset URL never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app under /ui/: hashed assets with a year's cache, index.html revalidated on every load (so
 * a new build is picked up at once), and index.html for every other /ui/ path the app routes itself (deep links to
 * a node, a path or a query). `GET /` redirects to the app. Everything under /ui/ carries the strict CSP.
 */
export function mountStaticUi(app: Express, dir = UI_DIR): void {
  const index = path.join(dir, 'index.html');
  app.get('/', (_req, res) => res.redirect(302, '/ui/'));
  // express matches /ui and /ui/ alike; only the first is sent on to the app's base address.
  app.get('/ui', (req, res, next) => (req.originalUrl.startsWith('/ui/') ? next() : res.redirect(301, '/ui/')));
  const ui = express.Router();
  ui.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', uiCsp());
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  ui.use(compression());
  ui.use(
    '/assets',
    express.static(path.join(dir, 'assets'), {
      index: false,
      fallthrough: true,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
    // A missing asset is a 404, never the app's page (a script tag must not receive HTML).
    (req: Request) => {
      throw notFound('ui', `No such asset: ${req.path.slice(0, 200)}`);
    },
  );
  ui.use(express.static(dir, { index: false, redirect: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }));
  ui.get(['/', '/*splat'], (_req: Request, res: Response, next: NextFunction) => {
    fs.readFile(index, 'utf8', (err, html) => {
      if (err) {
        return next(unavailable('ui', 'The web app is not built on this server: run `npm run build` (npm start does it).'));
      }
      // A nonce per answer: the page's own <style> elements carry it, nothing injected can guess it.
      const nonce = crypto.randomBytes(16).toString('base64');
      res.setHeader('Content-Security-Policy', uiCsp(nonce));
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html.replaceAll(NONCE_PLACEHOLDER, nonce));
    });
  });
  app.use('/ui', ui);
}
