import fs from 'node:fs';
import path from 'node:path';
import { benchConfig, benchService } from '../harness';
import { keptDatabase } from '../http-graph';

/**
 * Diagnosis, not a benchmark: times the library queries whose names contain PROBE_QUERIES (comma-separated) on the
 * tier graph `npm run bench cypher` keeps (BENCH_KEEP_GRAPH=1, BENCH_DATABASE_URL, BENCH_TIER), first run and
 * PROBE_RUNS more (default 2). Run it under `node --cpu-prof` to see where the time goes.
 *
 *   BENCH_KEEP_GRAPH=1 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> PROBE_QUERIES='ACEs across' \
 *     node --import tsx bench/probes/cypher-slow.ts
 */
async function main(): Promise<void> {
  const tier = (process.env.BENCH_TIER ?? 'M').toLowerCase();
  const store = await keptDatabase(`cypher_tier_${tier}`);
  if (!store.kept) throw new Error('no kept tier graph: run `npm run bench cypher` with BENCH_KEEP_GRAPH=1 first');
  const composed = await benchService(store, benchConfig());
  const library: { name: string; query: string }[] = JSON.parse(
    fs.readFileSync(path.join(__dirname, '..', 'cypher', 'query-library.json'), 'utf8'),
  );
  const wanted = (process.env.PROBE_QUERIES ?? '').split(',').filter(Boolean);
  const runs = Number(process.env.PROBE_RUNS ?? 2);
  try {
    await composed.services.cypher.run('MATCH (n:Domain) RETURN count(n)', { deadline: Date.now() + 60_000 });
    for (const q of library.filter((x) => wanted.some((w) => x.name.includes(w)))) {
      const times: number[] = [];
      let size = '';
      for (let i = 0; i <= runs; i++) {
        const started = process.hrtime.bigint();
        try {
          const r = await composed.services.cypher.run(q.query, { deadline: Date.now() + 30_000 });
          size = `${r.nodes.length} nodes, ${r.edges.length} edges, ${r.literals.length} literals`;
        } catch (err) {
          size = (err as Error).message.slice(0, 100);
        }
        times.push(Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10);
      }
      console.log(`${q.name}: ${times.join(' / ')} ms (${size})`);
    }
  } finally {
    await composed.stop();
    await store.close();
  }
}

void main();
