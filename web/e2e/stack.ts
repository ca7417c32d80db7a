import type http from 'node:http';
import type { AddressInfo } from 'node:net';
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
 */
export async function startStack(opts: { ingest?: boolean } = {}): Promise<Stack> {
  const t = await createTestApp({ datapipePollMs: 300, indexCheckMs: 300 });
  const withJwt = Object.assign(t, { adminJwt: await login(t.app) });
  if (opts.ingest !== false) await ingestAsAdmin(withJwt, [...GOLDEN_INPUT]);
  const server: http.Server = createHttpServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    t: withJwt,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      await t.close();
    },
  };
}
