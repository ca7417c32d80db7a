import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis } from '../src/analysis/run';
import { generateAzureHound } from '../src/generate/azurehound';
import { generateSharpHound } from '../src/generate/sharphound';
import { TIERS, type Tier } from '../src/generate/tiers';
import { PgGraphStore } from '../src/graph/pg/store';
import { ingestPath } from '../src/ingest/ingest-path';
import { benchDatabase, ratio } from './harness';
import { smoke } from './stats';

const seconds = (ms: number) => Math.round(ms) / 1000;

/** The generated groups (GROUP0 …) given replication rights: the most populated ones, as skewed picks favour low ids. */
const REPLICATING_GROUPS = 3;

/**
 * Gives the generated domain the replication rights a real one has (GetChanges and GetChangesAll for Domain
 * Controllers, Administrators, and a few groups, as delegated sync accounts get them), so analysis derives DCSync
 * edges to explain: the generator itself draws none.
 */
function addReplicationRights(dir: string): void {
  const file = path.join(dir, 'domains.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { data: { ObjectIdentifier: string; Aces: object[] }[] };
  const domain = doc.data[0]!;
  const sid = domain.ObjectIdentifier;
  const holders = [`${sid}-516`, `${sid}-512`, ...Array.from({ length: REPLICATING_GROUPS }, (_, i) => `${sid}-${900000 + i}`)];
  for (const PrincipalSID of holders)
    for (const RightName of ['GetChanges', 'GetChangesAll'])
      domain.Aces.push({ PrincipalSID, PrincipalType: 'Group', RightName, IsInherited: false, InheritanceHash: '' });
  fs.writeFileSync(file, JSON.stringify(doc));
}

/**
 * What the edge explanations cost (src/analysis/explain.ts): a `gas generate` tier (BENCH_TIER, default M, with its
 * ADCS and Azure files) ingested, analysed twice; the second run's time for finding and writing the explanations
 * against the whole run (the baseline), and the explanation table's size against the edge table's. The domain gets
 * replication rights first (addReplicationRights), so there are DCSync edges to explain.
 */
export async function graphDataBench(): Promise<Record<string, unknown>> {
  const tier = (process.env.BENCH_TIER ?? 'M') as Tier;
  // A smoke run: BENCH_USERS users (200) and as many Azure users, tier M's shape otherwise.
  const sized = smoke ? Number(process.env.BENCH_USERS ?? 200) : undefined;
  const t0 = sized ? { ...TIERS[tier], users: sized, azureUsers: sized } : TIERS[tier];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  const bench = await benchDatabase();
  try {
    generateSharpHound(dir, { users: t0.users, seed: 7, acesPerObject: t0.acesPerObject });
    generateAzureHound(dir, { users: t0.azureUsers, seed: 7 });
    addReplicationRights(dir);
    const store = new PgGraphStore(bench.db);
    for (const f of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort())
      await ingestPath(store, path.join(dir, f));
    await runAnalysis(store);
    let t = Date.now();
    const r = await runAnalysis(store);
    const analysisMs = Date.now() - t;
    const [sizes] = await bench.db.query<{ sources: number; edges: number; nodes: number; es: number }>(
      `select pg_total_relation_size('graph_edge_sources')::float8 as sources, pg_total_relation_size('graph_edges')::float8 as edges,
              (select count(*) from graph_nodes)::int as nodes, (select count(*) from graph_edges)::int as es`,
    );
    const byKind = Object.fromEntries(
      (
        await bench.db.query<{ kind: string; n: number; parts: number }>(
          'select kind, count(*)::int as n, sum(jsonb_array_length(parts))::int as parts from graph_edge_sources group by 1 order by 1',
        )
      ).map((x) => [x.kind, { edges: x.n, parts: x.parts }]),
    );
    return {
      storage: bench.kind,
      tier: sized ? `${sized} users` : tier,
      nodes: sizes!.nodes,
      edges: sizes!.es,
      baseline_analysis_s: seconds(analysisMs),
      ours_explanations_s: seconds(r.explanationMs),
      ratio_explanations_to_analysis: ratio(r.explanationMs, analysisMs),
      explained_edges: r.explained,
      explanation_parts: r.explanationParts,
      explained_by_kind: byKind,
      explanation_table_mb: Math.round(sizes!.sources / 1e4) / 100,
      graph_edges_table_mb: Math.round(sizes!.edges / 1e4) / 100,
      ratio_table_to_edges: ratio(sizes!.sources, sizes!.edges),
      max_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
    };
  } finally {
    await bench.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
