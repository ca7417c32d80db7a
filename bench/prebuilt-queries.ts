import { isTier, TIERS } from '../src/generate/tiers';
import { PgGraphStore } from '../src/graph/pg/store';
import { PREBUILT_QUERIES } from '../src/services/queries/prebuilt/index';
import { benchConfig, benchService } from './harness';
import { keptDatabase } from './http-graph';
import { smoke, summarise } from './stats';

/**
 * Every pre-built query (src/services/queries/prebuilt/) through the Cypher service, as the REST and GraphQL routes
 * run them, on the generated tier graph the cypher bench keeps (BENCH_TIER, default M; BENCH_KEEP_GRAPH=1 on
 * BENCH_DATABASE_URL, schema cypher_tier_<tier>: run `npm run bench cypher` once first). BENCH_PREBUILT_RUNS timed
 * runs each after one warm-up: p50, p99 and max over every run, and each query's median.
 */
export async function prebuiltQueriesBench(): Promise<Record<string, unknown>> {
  const tierName = (process.env.BENCH_TIER ?? 'M').toUpperCase();
  if (!isTier(tierName)) throw new Error(`BENCH_TIER must be one of ${Object.keys(TIERS).join(', ')}`);
  const runs = smoke ? 1 : Number(process.env.BENCH_PREBUILT_RUNS ?? 5);
  const store = await keptDatabase(`cypher_tier_${smoke ? 'smoke' : tierName.toLowerCase()}`);
  const composed = await benchService(store, benchConfig());
  try {
    if (!store.kept && !smoke) throw new Error('no kept tier graph: run `npm run bench cypher` with BENCH_KEEP_GRAPH=1 first');
    const counts = await new PgGraphStore(store.db).counts();
    const cypher = composed.services.cypher;
    const deadline = () => Date.now() + 10_000;
    await cypher.run('MATCH (n:Domain) RETURN count(n)', { deadline: deadline() }); // builds the index, as a server's start does
    const all: number[] = [];
    const perQuery: { id: string; medianMs: number; maxMs: number; status: string; nodes?: number }[] = [];
    for (const q of PREBUILT_QUERIES) {
      const times: number[] = [];
      let status = 'ok';
      let nodes: number | undefined;
      for (let i = 0; i <= runs; i++) {
        const started = process.hrtime.bigint();
        try {
          nodes = (await cypher.run(q.query, { deadline: deadline() })).nodes.length;
        } catch (err) {
          status = (err as { status?: number }).status === 504 ? 'timeout' : `error: ${(err as Error).message.slice(0, 120)}`;
        }
        if (i > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (status !== 'ok') break;
      }
      all.push(...(status === 'timeout' ? [10_000] : times));
      // A query cut by the deadline counts at it (no NaN: it would leave the slowest list unsorted).
      const s = summarise(times.length ? times : [status === 'timeout' ? 10_000 : 0]);
      const maxMs = status === 'timeout' ? 10_000 : Math.max(0, ...times);
      perQuery.push({ id: q.id, medianMs: Math.round(s.p50 * 10) / 10, maxMs: Math.round(maxMs * 10) / 10, status, nodes });
    }
    const overall = summarise(all);
    return {
      tier: smoke ? 'smoke' : tierName,
      graph: counts,
      queries: PREBUILT_QUERIES.length,
      runsEach: runs,
      p50Ms: Math.round(overall.p50 * 10) / 10,
      p99Ms: Math.round(overall.p99 * 10) / 10,
      maxMs: Math.round(Math.max(...all) * 10) / 10,
      over2s: perQuery.filter((q) => q.maxMs > 2000).map((q) => q.id),
      failed: perQuery.filter((q) => q.status !== 'ok').map((q) => `${q.id}: ${q.status}`),
      slowest: [...perQuery].sort((a, b) => b.medianMs - a.medianMs).slice(0, 8),
    };
  } finally {
    await composed.stop();
    await store.close();
  }
}
