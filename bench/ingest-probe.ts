import fs from 'node:fs';
import pg from 'pg';
import { Database } from '../src/db/pool';
import { migratedSchema } from './harness';
import type { EdgeInput, NodeInput } from '../src/graph/model';
import { PgGraphStore } from '../src/graph/pg/store';
import { convertAzure } from '../src/ingest/azure/index';
import { ingestPath } from '../src/ingest/ingest-path';
import { SharpHoundConverter } from '../src/ingest/sharphound';
import { createLogger } from '../src/logger';

/**
 * Diagnosis, not a benchmark: where an ingest's time goes. Ingests the files over one connection into a fresh
 * schema `ingest_probe` of the database at <url> and reports
 *  - how late a 1 ms timer fired on the ingesting thread (stalls of its event loop, by length);
 *  - what the backend was doing, sampled every 3 ms from a second connection (`pg_stat_activity`: active, or idle in
 *    transaction after which statement).
 * PROBE_MODE=preconverted converts every item before the clock starts and times only the writes (same batches of
 * 20,000 rows, same writer): what the ingest would take if parsing cost the writing thread nothing.
 *
 *   node --import tsx bench/ingest-probe.ts postgres://postgres@127.0.0.1:5432/wt_ingest <files…>
 * (files: `node --import tsx src/cli.ts generate --tier M --out <dir>`, then <dir>/*.json)
 */
async function main() {
  const [base, ...files] = process.argv.slice(2);
  if (!base || !files.length) throw new Error('usage: ingest-probe <url> <files…>');
  const mode = process.env.PROBE_MODE ?? 'stream';
  const url = await migratedSchema(base, 'ingest_probe');
  const log = createLogger('silent');

  const batches = mode === 'preconverted' ? files.map(convertWhole) : undefined;
  const db = new Database(url, { log, max: 1 });
  const store = new PgGraphStore(db);
  const pid = (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
  const sampler = sampleBackend(base, pid);
  const lag = lagMonitor();
  const started = Date.now();
  const cpu = process.cpuUsage();
  if (batches) {
    for (const file of batches) {
      await store.write(async (w) => {
        for (const b of file) {
          if (b.nodes.length) await w.upsertNodes(b.nodes);
          if (b.edges.length) await w.upsertEdges(b.edges);
        }
      });
    }
  } else {
    for (const f of files) {
      const r = await ingestPath(store, f);
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
    }
  }
  const used = process.cpuUsage(cpu);
  const ms = Date.now() - started;
  const stalls = lag.stop();
  const backend = await sampler.stop();
  await db.close();
  process.stdout.write(
    JSON.stringify({ mode, ms, client_cpu_ms: Math.round((used.user + used.system) / 1000), stalls_ms: stalls, backend_percent: backend }) +
      '\n',
  );
}

/** One file converted whole into batches of about 20,000 rows, as the streaming ingest hands them over. */
function convertWhole(file: string): { nodes: NodeInput[]; edges: EdgeInput[] }[] {
  const now = new Date().toISOString();
  const convert = new SharpHoundConverter(now);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { meta: { type: string }; data: unknown[] };
  const out: { nodes: NodeInput[]; edges: EdgeInput[] }[] = [];
  let cur = { nodes: [] as NodeInput[], edges: [] as EdgeInput[] };
  for (const item of doc.data) {
    const c = doc.meta.type === 'azure' ? convertAzure(item, now) : convert.convert(doc.meta.type, item);
    for (const n of c.nodes) cur.nodes.push(n);
    for (const e of c.edges) cur.edges.push(e);
    if (cur.nodes.length + cur.edges.length >= 20_000) {
      out.push(cur);
      cur = { nodes: [], edges: [] };
    }
  }
  out.push(cur);
  return out;
}

/** Counts how late a 1 ms timer fires, by bucket: count and seconds lost. */
function lagMonitor(): { stop(): Record<string, { n: number; s: number }> } {
  const buckets: Record<string, { n: number; s: number }> = {};
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - 1;
    last = now;
    const b = late < 2 ? '<2' : late < 5 ? '2-5' : late < 10 ? '5-10' : late < 20 ? '10-20' : late < 50 ? '20-50' : '50+';
    const x = (buckets[b] ??= { n: 0, s: 0 });
    x.n++;
    x.s = Math.round((x.s + late / 1000) * 1000) / 1000;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return buckets;
    },
  };
}

/** Samples the backend's state every 3 ms until stopped: share of samples per state and last statement. */
function sampleBackend(url: string, pid: number): { stop(): Promise<Record<string, number>> } {
  const client = new pg.Client({ connectionString: url });
  const counts: Record<string, number> = {};
  let samples = 0;
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const r = await client.query<{ state: string; q: string; wait_event: string | null }>(
        'select state, left(query, 40) as q, wait_event from pg_stat_activity where pid = $1',
        [pid],
      );
      const row = r.rows[0];
      if (row) {
        const what = row.state === 'active' ? `active${row.wait_event ? ` (${row.wait_event})` : ''}` : row.state;
        const key = `${what} | ${row.q.replace(/\s+/g, ' ')}`;
        counts[key] = (counts[key] ?? 0) + 1;
        samples++;
      }
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const top = Object.entries(counts).sort((a, b) => b[1] - a[1]);
      return Object.fromEntries(top.slice(0, 12).map(([k, n]) => [k, Math.round((1000 * n) / samples) / 10]));
    },
  };
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
