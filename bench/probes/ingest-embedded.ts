import { migrate } from '../../src/db/migrate';
import { startEmbedded } from '../../src/db/embedded';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { median } from '../stats';
import { tierFiles } from './tier-files';

/**
 * The ingest as `gas serve` runs it without DATABASE_URL: embedded PGlite in this very process, so the database
 * and the writer share one thread. Ingests PROBE_DIR (tier M from `gas generate --tier M --out DIR`) into a fresh
 * in-memory database per run, alternating conversion in the worker thread (the default) and on this thread
 * (`convertInWorker: false`), PROBE_ROUNDS (2) pairs; prints each run's wall time and the medians.
 *
 *   PROBE_DIR=/tmp/tierM node --import tsx bench/probes/ingest-embedded.ts
 */

async function once(dir: string, convertInWorker: boolean): Promise<number> {
  const log = createLogger('silent');
  const embedded = await startEmbedded('memory://', log);
  const db = new Database(embedded.url, { log });
  try {
    await migrate(db, log);
    const store = new PgGraphStore(db);
    const started = performance.now();
    for (const [, file] of tierFiles(dir)) {
      const r = await ingestPath(store, file, { convertInWorker });
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
    }
    return Math.round(performance.now() - started);
  } finally {
    await db.close();
    await embedded.stop();
  }
}

async function main(): Promise<void> {
  const dir = process.env.PROBE_DIR ?? '/tmp/tierM';
  const rounds = Number(process.env.PROBE_ROUNDS ?? 2);
  const runs: { worker: number[]; here: number[] } = { worker: [], here: [] };
  for (let i = 0; i < rounds; i++) {
    // A, B, B, A…: a drift of the machine falls on both sides alike.
    for (const worker of i % 2 ? [false, true] : [true, false]) {
      const ms = await once(dir, worker);
      (worker ? runs.worker : runs.here).push(ms);
      console.log(JSON.stringify({ round: i, convertInWorker: worker, ms }));
    }
  }
  const [w, h] = [median(runs.worker), median(runs.here)];
  console.log(JSON.stringify({ rounds, worker_ms: w, here_ms: h, worker_over_here: Number((w / h).toFixed(3)) }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
