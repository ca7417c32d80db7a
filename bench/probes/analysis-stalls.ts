import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ANALYSIS_STEPS, runAnalysis } from '../../src/analysis/run';
import { createLogger } from '../../src/logger';

/**
 * Diagnosis, not a benchmark: the event-loop stalls (over 15 ms) of one analysis run, as a serving process would
 * feel them (analysis runs on the thread that answers requests). Prints the run's time, the longest stall, the sum
 * of stalls over 50 ms, and every stall over 50 ms with when it began (ms from the start of the run) and the step
 * running then ("load" before the first step, "write" after the last; tier zero comes between).
 *
 *   node --import tsx bench/probes/analysis-stalls.ts postgres://postgres@127.0.0.1:5432/<db with an ingested graph>
 * (a graph: `DATABASE_URL=<url> node dist/cli.js ingest <tier dir> --no-analysis`)
 */
async function main() {
  const db = new Database(process.argv[2]!, { log: createLogger('silent') });
  const store = new PgGraphStore(db);
  const stalls: [number, number][] = [];
  const t0 = performance.now();
  const steps: [string, number][] = [['load', 0]];
  ANALYSIS_STEPS.forEach((step, i) => {
    ANALYSIS_STEPS[i] = async (g, c, o) => {
      steps.push([step.name || String(i), performance.now() - t0]);
      await step(g, c, o);
      steps.push(['tier zero, write', performance.now() - t0]);
    };
  });
  const stepAt = (at: number) => steps.filter(([, t]) => t <= at).pop()![0];
  let last = t0;
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last > 15) stalls.push([Math.round(now - last), Math.round(last - t0)]);
    last = now;
  }, 1);
  const result = await runAnalysis(store);
  const ms = Math.round(performance.now() - t0);
  clearInterval(tick);
  const long = stalls.filter(([d]) => d > 50);
  console.log(
    JSON.stringify({
      ms,
      derived_edges: Object.values(result.edges).reduce((a, b) => a + b, 0),
      max_stall_ms: Math.max(0, ...stalls.map(([d]) => d)),
      stalls_over_15_ms: stalls.length,
      ms_in_stalls_over_50_ms: long.reduce((a, [d]) => a + d, 0),
      over_50_ms: long.map(([d, at]) => `${d}@${at} ${stepAt(at)}`),
    }),
  );
  await db.close();
}
void main();
