import express from 'express';
import http from 'node:http';
import { createHttpServer } from '../src/http/http-server';

/**
 * The baseline of the graph HTTP benchmark, alone in its process as the server is: a bare express route that
 * answers every GET with a fixed JSON body of BODY_BYTES bytes (the size of the lookup it is compared with).
 * BARE_SERVER=born serves it as `gas serve` serves the app (createHttpServer: requests made with express's
 * prototypes), to show what the same server construction gives a bare route.
 */
const size = Number(process.env.BODY_BYTES ?? 1000);
const body = JSON.stringify({ data: { pad: 'x'.repeat(Math.max(0, size - 22)) } });
const app = express();
app.get('/bare', (_req, res) => {
  res.json(JSON.parse(body));
});
const server = process.env.BARE_SERVER === 'born' ? createHttpServer(app) : http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
