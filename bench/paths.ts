import { GraphIndex } from '../src/graph/index/graph-index';
import { allShortestPaths } from '../src/graph/index/shortest-paths';
import { PgGraphStore } from '../src/graph/pg/store';
import { benchDatabase, ratio } from './harness';

/**
 * All-shortest-paths on a random directed graph (70 % of edges into a hub set of n/20 nodes, as in the perf
 * anchors' worst case): the in-memory index against the store's recursive-SQL reference, same pairs, same run.
 * Sizes: BENCH_NODES (default 20000), BENCH_EDGES (default 200000).
 */
export async function pathsBench(): Promise<Record<string, unknown>> {
  const n = Number(process.env.BENCH_NODES ?? 20_000);
  const m = Number(process.env.BENCH_EDGES ?? 200_000);
  const store = await benchDatabase();
  try {
    const loadStarted = Date.now();
    await store.db.query(`insert into graph_kinds (name) select 'K' || g from generate_series(0, 4) g on conflict do nothing`);
    await store.db.query(
      `insert into graph_nodes (objectid, kind_ids, properties) select 'N' || g, '{}', jsonb_build_object('objectid', 'N' || g) from generate_series(0, $1 - 1) g`,
      [n],
    );
    await store.db.query(
      `insert into graph_edges (start_id, end_id, kind_id)
       select s, t, k from (
         select 1 + floor(random() * $1)::bigint as s,
                case when random() < 0.7 then 1 + floor(random() * ($1 / 20))::bigint else 1 + floor(random() * $1)::bigint end as t,
                (select min(id) from graph_kinds where name like 'K%') + floor(random() * 5)::smallint as k
         from generate_series(1, $2)) e
       where s <> t on conflict do nothing`,
      [n, m],
    );
    await store.db.query('analyze graph_nodes; analyze graph_edges');
    const loadMs = Date.now() - loadStarted;
    const graph = new PgGraphStore(store.db);

    const buildStarted = process.hrtime.bigint();
    const index = await GraphIndex.build(graph);
    const buildMs = Number(process.hrtime.bigint() - buildStarted) / 1e6;

    // The same random pairs for both; pairs are store ids.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pairs = Array.from(
      { length: 200 },
      () => [index.dbId(Math.floor(next() * index.nodeCount)), index.dbId(Math.floor(next() * index.nodeCount))] as const,
    );

    const idxStarted = process.hrtime.bigint();
    const idxCounts = pairs.map(
      ([s, t]) => allShortestPaths(index, index.dense(s), index.dense(t), { kinds: null, maxPaths: 1000 }).paths.length,
    );
    const idxMs = Number(process.hrtime.bigint() - idxStarted) / 1e6;

    const sqlPairs = pairs.slice(0, Number(process.env.BENCH_SQL_PAIRS ?? 20));
    const sqlStarted = process.hrtime.bigint();
    const sqlCounts: number[] = [];
    for (const [s, t] of sqlPairs) sqlCounts.push((await graph.allShortestPaths(s, t, null, 15)).length);
    const sqlMs = Number(process.hrtime.bigint() - sqlStarted) / 1e6;
    // Path counts agree where neither side hit the 1,000-path cap.
    const agree = sqlPairs.every((_, i) => sqlCounts[i] === idxCounts[i] || (idxCounts[i] === 1000 && sqlCounts[i]! >= 1000));

    const perIdx = idxMs / pairs.length;
    const perSql = sqlMs / sqlPairs.length;
    return {
      storage: store.kind,
      nodes: index.nodeCount,
      edges: index.edgeCount,
      load_ms: loadMs,
      index_build_ms: Math.round(buildMs),
      index_ms_per_query: Number(perIdx.toFixed(3)),
      sql_ms_per_query: Number(perSql.toFixed(1)),
      speedup_index_over_sql: ratio(perSql, perIdx),
      queries: { index: pairs.length, sql: sqlPairs.length, with_paths: idxCounts.filter((c) => c > 0).length },
      results_agree: agree,
      heap_mb: Math.round(process.memoryUsage().heapUsed / 1e6),
    };
  } finally {
    await store.close();
  }
}
