import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * The HTTP server for the app, whose requests and responses are made with express's prototypes from the start.
 *
 * Express gives every request and response its own prototypes (`Object.setPrototypeOf` in `app.handle`). Changing
 * the prototype of an object V8 has already shaped costs more than the call: in this process it made ~3 MB of each
 * young generation survive into the old one, so every scavenge copied it (10–14 ms pauses) and major collections
 * followed every few seconds. A plain node:http server answered 22,000 requests/s here, the same with the prototype
 * change per request 8,700 (docs/benchmarks.md, fourteenth pass). Made with the right prototype, the request is
 * left as it is: express's call sees the prototype already in place and V8 does nothing.
 */
export function createHttpServer(app: Express): http.Server {
  // Node's constructors are plain functions, run here on an object made with express's prototype. Were they ever
  // classes (which cannot be called so), the server is made as express makes it.
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) return http.createServer(app);
  function AppRequest(this: http.IncomingMessage, socket: Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: http.ServerOptions): void {
    (http.ServerResponse as unknown as (req: http.IncomingMessage, options?: http.ServerOptions) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
    },
    app,
  );
}

function isClass(fn: unknown): boolean {
  return typeof fn !== 'function' || Function.prototype.toString.call(fn).startsWith('class');
}
