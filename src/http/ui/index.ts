import type { Express, Request, RequestHandler, Response } from 'express';
import type { Envelope, OperationRunner } from '../../rest/run.js';
import { mountSessionRoutes } from './session-routes.js';
import { mountStaticUi } from './static-app.js';

export { cookieSession, sameOrigin } from './cookie-session.js';
export { uiCsp, UI_DIR } from './static-app.js';

export interface UiDeps {
  runner: OperationRunner;
  envelope: (req: Request, res: Response) => ReturnType<Envelope>;
  limiter: (routeKey: string) => RequestHandler;
  authenticate: RequestHandler;
  /** Receives and parses a body of this kind within the server's limits (receiveRouteBody + parseRouteBody). */
  body: (kind: 'json' | 'none') => RequestHandler[];
  rootUrl: string;
  /** The built app (default: dist/web). */
  dir?: string;
}

/** The web app: its sign-in and sign-out (/ui/session) and its files under /ui/ (GET / leads there). */
export function mountUi(app: Express, deps: UiDeps): void {
  mountSessionRoutes(app, {
    ...deps,
    jsonBody: deps.body('json'),
    noBody: deps.body('none'),
  });
  mountStaticUi(app, deps.dir);
}
