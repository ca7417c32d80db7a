import type { Express, Request, RequestHandler, Response } from 'express';
import type { Envelope, OperationRunner } from '../../rest/run.js';
import { readBody, type BodyOptions } from '../body.js';
import { mountSessionRoutes } from './session-routes.js';
import { mountStaticUi } from './static-app.js';

export { cookieSession, sameOrigin } from './cookie-session.js';
export { uiCsp, UI_DIR } from './static-app.js';

export interface UiDeps {
  runner: OperationRunner;
  envelope: (req: Request, res: Response) => ReturnType<Envelope>;
  limiter: (routeKey: string) => RequestHandler;
  authenticate: RequestHandler;
  bodyOpts: BodyOptions;
  rootUrl: string;
  /** The built app (default: dist/web). */
  dir?: string;
}

/** The web app: its sign-in and sign-out (/ui/session) and its files under /ui/ (GET / leads there). */
export function mountUi(app: Express, deps: UiDeps): void {
  mountSessionRoutes(app, {
    ...deps,
    jsonBody: readBody('json', deps.bodyOpts),
    noBody: readBody('none', deps.bodyOpts),
  });
  mountStaticUi(app, deps.dir);
}
