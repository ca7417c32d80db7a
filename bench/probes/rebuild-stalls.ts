import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { GraphIndex } from '../../src/graph/index/graph-index';
import { createLogger } from '../../src/logger';
/**
 * Diagnosis, not a benchmark: the event-loop stalls (over 15 ms) of path index builds, and which store read was
 * last entered or left when each began (scanNodes, scanEdges, kindNames; after "scanEdges<" the rows are being
 * built). One warm build, then three measured ones, over the graph at <url>; the paths bench's graph is in its own
 * schema:
 *
 *   node --import tsx bench/probes/rebuild-stalls.ts \
 *     "postgres://postgres@127.0.0.1:5432/wt_perf_query?options=-c%20search_path%3Dpaths_100000_2000000%2Cpublic"
 */
async function main() {
  const db = new Database(process.argv[2]!, { log: createLogger('silent') });
  const store = new PgGraphStore(db);
  const marks: [string, number][] = [];
  const mark = (s: string) => marks.push([s, Math.round(performance.now())]);
  // The three reads wrapped on this instance, so each entry and exit is marked.
  const reads = store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const m of ['scanNodes', 'scanEdges', 'kindNames']) {
    const orig = reads[m]!.bind(store);
    reads[m] = async (...a: unknown[]) => {
      mark(`${m}>`);
      try {
        return await orig(...a);
      } finally {
        mark(`${m}<`);
      }
    };
  }
  await GraphIndex.build(store); // warm
  for (let round = 0; round < 3; round++) {
    marks.length = 0;
    const stalls: [number, number][] = [];
    let last = performance.now();
    const t = setInterval(() => {
      const now = performance.now();
      if (now - last > 15) stalls.push([Math.round(now - last), Math.round(last)]);
      last = now;
    }, 1);
    const t0 = performance.now();
    await GraphIndex.build(store);
    const t1 = performance.now();
    clearInterval(t);
    const phaseAt = (at: number) => marks.filter(([, m]) => m <= at).pop()?.[0] ?? 'start';
    console.log(
      JSON.stringify({
        round,
        build_ms: Math.round(t1 - t0),
        max: Math.max(...stalls.map((s) => s[0])),
        stalls: stalls.map(([d, at]) => `${d}@${phaseAt(at)}`),
      }),
    );
  }
  await db.close();
}
void main();
