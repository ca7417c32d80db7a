import { ANALYSIS_STEPS, runAnalysis } from '../../src/analysis/run';
import { startEmbedded } from '../../src/db/embedded';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { createLogger } from '../../src/logger';

/**
 * Diagnosis, not a benchmark: where a full analysis run's time goes. Runs analysis over the graph at <url> and
 * prints each store read, each rule and each write of the analysis transaction that took over 20 ms, with the
 * process's RSS and heap after it. The run writes its results, as analysis does (the same graph again).
 *
 *   node --import tsx bench/probes/analysis-phases.ts postgres://postgres@127.0.0.1:5432/<db with an ingested graph>
 *   node --import tsx bench/probes/analysis-phases.ts embedded:<DATA_DIR>   (PGlite in this process; with
 *     PROBE_NO_COPY_OUT=1 it reads by pages over the socket, as before the in-process COPY out)
 * (a graph: `DATABASE_URL=<url> node dist/cli.js ingest <tier dir> --no-analysis`, or DATA_DIR=<dir> without the URL)
 */
const times: [string, number][] = [];
const memory = () => `rss ${Math.round(process.memoryUsage().rss / 1e6)} MB heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`;

/** Times every method call on `obj`; the writer handed to store.write is timed too. */
function timed<T extends object>(obj: T, prefix: string): T {
  return new Proxy(obj, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const started = performance.now();
        const wrapped = args.map((a) =>
          prefix === 'store' && key === 'write' && typeof a === 'function'
            ? (w: object) => (a as (w: object) => unknown)(timed(w, 'writer'))
            : a,
        );
        const out = (v as (...a: unknown[]) => unknown).apply(target, wrapped);
        const done = () => times.push([`${prefix}.${String(key)} (${memory()})`, performance.now() - started]);
        if (out instanceof Promise) return out.finally(done);
        done();
        return out;
      };
    },
  });
}

ANALYSIS_STEPS.forEach((step, i) => {
  ANALYSIS_STEPS[i] = async (g, c, o) => {
    const started = performance.now();
    await step(g, c, o);
    times.push([`rule ${step.name || i} (${memory()})`, performance.now() - started]);
  };
});

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: analysis-phases <url>');
  // embedded:<dir>: PGlite on <dir> in this process, as `gas serve` runs it.
  const log = createLogger('silent');
  const embedded = url.startsWith('embedded:') ? await startEmbedded(url.slice('embedded:'.length), log, { publish: false }) : undefined;
  const db = new Database(embedded?.url ?? url, { log, inProcess: embedded });
  // PROBE_NO_COPY_OUT=1: the store is told the database cannot COPY out, and pages (writes still COPY).
  const reads = process.env.PROBE_NO_COPY_OUT
    ? new Proxy(db, { get: (target, key) => (key === 'copyOut' ? async () => false : Reflect.get(target, key, target)) })
    : db;
  const started = performance.now();
  const r = await runAnalysis(timed(new PgGraphStore(reads), 'store'));
  process.stdout.write(
    `total ${Math.round(performance.now() - started)} ms, ${Object.values(r.edges).reduce((a, b) => a + b, 0)} derived edges\n`,
  );
  for (const [what, ms] of times) if (ms > 20) process.stdout.write(`${String(Math.round(ms)).padStart(7)} ms  ${what}\n`);
  await db.close();
  await embedded?.stop();
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
