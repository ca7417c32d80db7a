import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis, type AnalysisResult } from '../src/analysis/run';
import { generateSharpHound } from '../src/generate/sharphound';
import { PgGraphStore } from '../src/graph/pg/store';
import { ingestPath } from '../src/ingest/ingest-path';
import { benchDatabase, ratio } from './harness';

const seconds = (ms: number) => Math.round(ms) / 1000;

/** What an analysis run derived, in total and by edge kind, as both analysis benchmarks report it. */
export const derivedEdges = (r: AnalysisResult) => ({
  derived_edges: Object.values(r.edges).reduce((a, b) => a + b, 0),
  derived_by_kind: r.edges,
});

/**
 * Full analysis (every AD, ADCS, Azure and hybrid rule, and Tier Zero) next to the ingest of the same generated
 * collection (`gas generate` data, BENCH_USERS users; the M tier is 10,000): ingest time is the baseline, the target
 * is analysis ≤ ingest. A second analysis run is timed too (it must change nothing, and is what every later
 * upload pays).
 */
export async function analysisBench(): Promise<Record<string, unknown>> {
  const users = Number(process.env.BENCH_USERS ?? 10_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  const bench = await benchDatabase();
  try {
    generateSharpHound(dir, { users, seed: 7 });
    const store = new PgGraphStore(bench.db);
    const files = ['domains', 'ous', 'gpos', 'groups', 'users', 'computers'].map((t) => path.join(dir, `${t}.json`));
    let t = Date.now();
    for (const f of files) await ingestPath(store, f);
    const ingestMs = Date.now() - t;
    const counts = (
      await bench.db.query<{ nodes: number; edges: number }>(
        'select (select count(*) from graph_nodes)::int as nodes, (select count(*) from graph_edges)::int as edges',
      )
    )[0]!;
    t = Date.now();
    const first = await runAnalysis(store);
    const analysisMs = Date.now() - t;
    t = Date.now();
    const again = await runAnalysis(store);
    const againMs = Date.now() - t;
    // What the edge explanations cost: their table next to the edges', and their share of the run.
    const sizes = (
      await bench.db.query<{ sources: number; edges: number }>(
        `select pg_total_relation_size('graph_edge_sources')::float8 as sources, pg_total_relation_size('graph_edges')::float8 as edges`,
      )
    )[0]!;
    return {
      storage: bench.kind,
      users,
      nodes: counts.nodes,
      edges_ingested: counts.edges,
      baseline_ingest_s: seconds(ingestMs),
      ours_analysis_s: seconds(analysisMs),
      ours_analysis_again_s: seconds(againMs),
      ...derivedEdges(first),
      tier_zero: first.tierZero,
      explained_edges: again.explained,
      explanation_parts: again.explanationParts,
      explanation_s: seconds(again.explanationMs),
      explanation_share_of_analysis: ratio(again.explanationMs, againMs),
      explanation_table_mb: Math.round(sizes.sources / 1e4) / 100,
      graph_edges_table_mb: Math.round(sizes.edges / 1e4) / 100,
      max_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
      ratio_analysis_to_ingest: ratio(analysisMs, ingestMs),
    };
  } finally {
    await bench.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
