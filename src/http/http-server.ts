import http from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server for the app, whose requests and responses are made with express's prototypes from the start,
 * and sized for the fields node gives them.
 *
 * Express gives every request and response its own prototypes (`Object.setPrototypeOf` in `app.handle`). Changing
 * the prototype of an object V8 has already shaped costs more than the call: in this process it made ~3 MB of each
 * young generation survive into the old one, so every scavenge copied it (10–14 ms pauses) and major collections
 * followed every few seconds. A plain node:http server answered 22,000 requests/s here, the same with the prototype
 * change per request 8,700 (docs/decisions.md, "Serving speed"). Made with the right prototype, the request is
 * left as it is: express's call sees the prototype already in place and V8 does nothing.
 *
 * The constructors are subclasses of node's, not plain functions that call them: V8 sizes an object for the
 * fields its constructor chain assigns, and a plain function assigns none itself. Objects so made had 10 in-object
 * fields for node's ~30, and a symbol-keyed store past that turned each response, and each request once the
 * router had run, into a dictionary (every property read a hash look-up; docs/decisions.md, "Serving speed").
 * A subclass's prototype cannot be replaced, so express's prototypes are rebuilt as the subclasses' prototypes and
 * the app is pointed at them.
 */
export function createHttpServer(app: Express): http.Server {
  const { AppRequest, AppResponse } = constructorsFor(app);
  return http.createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
}

interface Constructors {
  AppRequest: typeof http.IncomingMessage;
  AppResponse: typeof http.ServerResponse;
}

/** One pair per app: a second server for the same app must not move the app's prototypes from under the first. */
const made = new WeakMap<Express, Constructors>();

function constructorsFor(app: Express): Constructors {
  const known = made.get(app);
  if (known) return known;
  class AppRequest extends http.IncomingMessage {}
  class AppResponse extends http.ServerResponse {}
  app.request = adopt(AppRequest.prototype, app.request) as Express['request'];
  app.response = adopt(AppResponse.prototype, app.response) as Express['response'];
  const c = { AppRequest, AppResponse: AppResponse as typeof http.ServerResponse };
  made.set(app, c);
  return c;
}

/** Makes `target` what `proto` is (same parent, same own properties: express's `app` back-reference), and returns it. */
function adopt(target: object, proto: object): object {
  Object.setPrototypeOf(target, Object.getPrototypeOf(proto) as object | null);
  const { constructor: _constructor, ...own }: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(proto);
  Object.defineProperties(target, own);
  return target;
}
