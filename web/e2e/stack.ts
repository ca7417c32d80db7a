import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/http/http-server';
import { createTestApp, login, type TestApp } from '../../test/helpers/app';
import { GOLDEN_INPUT } from '../../test/helpers/fixtures';
import { ingestAsAdmin } from '../../test/helpers/upload';

export interface Stack {
  t: TestApp & { adminJwt: string };
  /** http://127.0.0.1:<port> */
  base: string;
  close(): Promise<void>;
}

/**
 * The real stack for the browser: migrations, services and the app with /ui on a fresh schema of the test
 * database, the golden TESTLAB collection ingested and analysed (unless `ingest: false`), served on an ephemeral
 * port of 127.0.0.1. Background work (ingest, analysis, the path index) runs on short timers, as on a server.
 * ROOT_URL is that address, as a deployment's is where its users reach it: the URLs the server hands out (an SSO
 * provider's login and callback) are ones the browser can follow.
 */
export async function startStack(opts: { ingest?: boolean } = {}): Promise<Stack> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ datapipePollMs: 300, indexCheckMs: 300, rootUrl: base });
  const withJwt = Object.assign(t, { adminJwt: await login(t.app) });
  if (opts.ingest !== false) await ingestAsAdmin(withJwt, [...GOLDEN_INPUT]);
  const server: http.Server = createHttpServer(t.app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    t: withJwt,
    base,
    async close() {
      await new Promise((r) => server.close(r));
      await t.close();
    },
  };
}

/** A port of 127.0.0.1 free a moment ago (the app needs its address before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
