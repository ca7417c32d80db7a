import fs from 'node:fs';
import { runAnalysis } from '../src/analysis/run';
import { startEmbedded, type EmbeddedDatabase } from '../src/db/embedded';
import { migrate } from '../src/db/migrate';
import { Database } from '../src/db/pool';
import { PgGraphStore } from '../src/graph/pg/store';
import { convertAzure } from '../src/ingest/azure/index';
import { fileType, inCollectionOrder } from '../src/ingest/collection-order';
import { ingestPath } from '../src/ingest/ingest-path';
import { SharpHoundConverter } from '../src/ingest/sharphound';
import { createLogger } from '../src/logger';
import { backendCpuMs, ownCpuMs, peakRssMb } from './stats';

/**
 * One side of the ingest benchmark, alone in its process so its peak RSS is its own:
 *   parse   <files…>        the whole-file approach: read, JSON.parse, convert every object (no database)
 *   ingest  <url> <files…>  our streaming ingest into the database at <url>, the files taken as a collection
 *   analyze <url>           a full analysis run over what was ingested
 * A <url> of `embedded:<dir>` starts the embedded cluster on <dir>, as `gas serve` and `gas ingest` do (its CPU is
 * then this process's; the time is taken once it is open and migrated).
 */
async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  let started = Date.now();
  let cpuStarted = ownCpuMs();
  let embedded: EmbeddedDatabase | undefined;
  const open = async (url: string, max?: number): Promise<Database> => {
    const log = createLogger('silent');
    if (!url.startsWith('embedded:')) return new Database(url, { log, max });
    embedded = await startEmbedded(url.slice('embedded:'.length), log, { publish: false });
    const db = new Database(embedded.url, { log, max });
    await migrate(db, log);
    started = Date.now();
    cpuStarted = ownCpuMs();
    return db;
  };
  let serverCpuMs: number | undefined;
  let objects = 0;
  let edges = 0;
  if (mode === 'parse') {
    const now = new Date().toISOString();
    const convert = new SharpHoundConverter(now);
    for (const f of rest) {
      const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
      for (const item of doc.data) {
        edges += (doc.meta.type === 'azure' ? convertAzure(item, now) : convert.convert(doc.meta.type, item)).edges.length;
        objects++;
      }
    }
  } else if (mode === 'ingest') {
    const [url, ...given] = rest;
    // As a collection: in the order `gas ingest <dir>`, an upload job and a zip take their files in (users, computers
    // and groups first); BENCH_FILE_ORDER=given keeps the order of the command line.
    const files = process.env.BENCH_FILE_ORDER === 'given' ? given : inCollectionOrder(given, (f) => fileType(f));
    // One connection, so the server's CPU for the whole ingest is one backend's (read from /proc when local).
    const db = await open(url!, 1);
    const store = new PgGraphStore(db);
    const pid = (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
    const backendStarted = embedded ? undefined : backendCpuMs(pid);
    for (const f of files) {
      const r = await ingestPath(store, f);
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
      for (const x of r.files) {
        objects += x.objects;
        edges += x.edges;
      }
    }
    const backendEnded = backendCpuMs(pid);
    if (backendStarted !== undefined && backendEnded !== undefined) serverCpuMs = backendEnded - backendStarted;
    await db.close();
  } else if (mode === 'analyze') {
    const db = await open(rest[0]!);
    const r = await runAnalysis(new PgGraphStore(db));
    edges = Object.values(r.edges).reduce((a, b) => a + b, 0);
    objects = r.nodesUpdated;
    await db.close();
  } else throw new Error(`unknown mode ${mode}`);
  const ms = Date.now() - started;
  const cpu_ms = Math.round(ownCpuMs() - cpuStarted);
  await embedded?.stop();
  const max_rss_mb = peakRssMb();
  process.stdout.write(JSON.stringify({ ms, objects, edges, max_rss_mb, cpu_ms, server_cpu_ms: serverCpuMs }) + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
