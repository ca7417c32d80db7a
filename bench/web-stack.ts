import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis } from '../src/analysis/run';
import { generateSharpHound } from '../src/generate/sharphound';
import { PgGraphStore } from '../src/graph/pg/store';
import { fileType, inCollectionOrder } from '../src/ingest/collection-order';
import { ingestPath } from '../src/ingest/ingest-path';
import { benchConfig, benchDatabase, benchService, listen } from './harness';

const TESTLAB = path.join(__dirname, '..', 'test', 'fixtures', 'sharphound-v6-testlab');

export interface WebStack {
  base: string;
  password: string;
  services: Awaited<ReturnType<typeof benchService>>['services'];
  close(): Promise<void>;
}

/**
 * The service for a browser run outside the test suite (benchmarks, the README screenshot): a database from
 * benchDatabase (BENCH_DATABASE_URL, or the embedded store), the TESTLAB collection and, with `generatedUsers`, a
 * generated BENCH.LOCAL domain of that size, ingested and analysed, served on an ephemeral port of 127.0.0.1.
 */
export async function startWebStack(opts: { generatedUsers?: number } = {}): Promise<WebStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-web-stack-'));
  const store = await benchDatabase('_web');
  const graph = new PgGraphStore(store.db);
  const files = fs
    .readdirSync(TESTLAB)
    .filter((f) => f.endsWith('.json') && f !== 'deleted.json')
    .map((f) => path.join(TESTLAB, f));
  if (opts.generatedUsers)
    files.push(...generateSharpHound(dir, { users: opts.generatedUsers, seed: 7, acesPerObject: 8, domain: 'BENCH.LOCAL' }).files);
  for (const f of inCollectionOrder(files, (x) => fileType(x))) {
    const r = await ingestPath(graph, f);
    if (r.errors.length) throw new Error(`ingest of ${f} failed: ${r.errors.map((e) => e.message).join('; ')}`);
  }
  await runAnalysis(graph);
  const config = benchConfig();
  const composed = await benchService(store, config);
  // The path index is built once, as a server warms it on start.
  await composed.services.cypher.run('MATCH (n:Domain) RETURN count(n)', { deadline: Date.now() + 60_000 });
  const server = await listen(composed.app);
  return {
    base: server.url,
    password: config.adminPassword,
    services: composed.services,
    async close() {
      await server.close();
      await composed.stop();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
