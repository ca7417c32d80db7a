import path from 'node:path';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { benchDatabase } from '../harness';
import { tierFiles } from './tier-files';

/**
 * Diagnosis, not a benchmark: how many graph_nodes rows each file of an ingest rewrites (most of them placeholders
 * an earlier edge made, turned into the object by its own item). Ingests the files of PROBE_DIR one `ingestPath` at
 * a time into fresh tables of BENCH_DATABASE_URL and prints, after each, the tables' inserted and updated row
 * counts so far (pg_stat_user_tables). PROBE_ORDER (file names without `.json`, comma-separated) puts those files
 * first; the rest follow in the generator's order.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/tierM \
 *     PROBE_ORDER=users,computers,groups node --import tsx bench/probes/ingest-placeholders.ts
 */
async function main(): Promise<void> {
  const order = (process.env.PROBE_ORDER ?? '').split(',').filter(Boolean);
  const rank = (f: string) => {
    const i = order.indexOf(path.basename(f, '.json'));
    return i < 0 ? order.length : i;
  };
  const files = tierFiles(process.env.PROBE_DIR ?? '/tmp/tierM')
    .map(([, f]) => f)
    .sort((a, b) => rank(a) - rank(b));
  const target = await benchDatabase('_placeholders');
  const db = new Database(target.url, { log: createLogger('silent'), max: 1 });
  const store = new PgGraphStore(db);
  try {
    for (const f of files) {
      const started = Date.now();
      await ingestPath(store, f);
      const ms = Date.now() - started;
      // The counters are flushed from the backend's own statistics, not at once: ask, then give it a moment.
      await db.query('select pg_stat_force_next_flush()');
      await new Promise((r) => setTimeout(r, 600));
      const rows = await db.query<{ relname: string; ins: number; upd: number }>(
        `select relname, n_tup_ins::int as ins, n_tup_upd::int as upd from pg_stat_user_tables
         where relid in ('graph_nodes'::regclass, 'graph_edges'::regclass) order by relname`,
      );
      console.log(
        JSON.stringify({ file: path.basename(f), ms, ...Object.fromEntries(rows.map((r) => [r.relname, { ins: r.ins, upd: r.upd }])) }),
      );
    }
  } finally {
    await db.close();
    await target.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
