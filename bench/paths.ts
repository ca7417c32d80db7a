import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Database } from '../src/db/pool';
import { GraphIndex } from '../src/graph/index/graph-index';
import { allShortestPaths } from '../src/graph/index/shortest-paths';
import { PgGraphStore } from '../src/graph/pg/store';
import { GraphIndexHolder } from '../src/services/graph/graph-index-holder';
import pg from 'pg';
import { migrate } from '../src/db/migrate';
import { benchDatabase, log, ratio } from './harness';
import { sqlHarnessAllShortestPaths } from './paths-harness';
import { settledMemory, smoke, summarise } from './stats';

/**
 * All-shortest-paths on a random directed graph (70 % of edges into a hub set of n/20 nodes, as in the perf
 * anchors' worst case), the same random reachable pairs through four methods in the same run:
 *  (a) the in-memory index (bidirectional BFS over compressed sparse rows, then path enumeration, ≤ 1,000 paths);
 *  (b) a lean level-by-level bidirectional BFS in SQL, after the shape of BloodHound's PostgreSQL harness but not
 *      its tables: one parameterised query per frontier level over the edge table, always expanding the smaller
 *      side, the visited set passed as an array parameter; it stops at the meeting level (it finds the length and
 *      the last level's edges, enumerates nothing, so it does less work than (a));
 *  (b2) BloodHound's harness itself (DAWGS' bidirectional all-shortest-paths harness, see paths-harness.ts): per
 *      query a transaction with temporary front and visited tables, one insert per level that carries the full
 *      edge-id path of every frontier walk, the smaller front expanded each time, and at the meeting level the
 *      complete paths (forward || backward) built in SQL and sent to the client; it finds all shortest paths, so
 *      its path count is compared with (a)'s wherever (a) was not truncated at 1,000;
 *  (c) the store's recursive-CTE reference (all shortest paths in one query), on the first few pairs only.
 * Also: index build time and retained bytes per edge, and a rebuild through the holder while queries run.
 * Sizes: BENCH_NODES (default 20000), BENCH_EDGES (default 200000); BENCH_PAIRS (1000), BENCH_BFS_PAIRS (all),
 * BENCH_HARNESS_PAIRS (100; 5 in smoke), BENCH_HARNESS_VISITED (1; 0 runs DAWGS' all-shortest-paths harness without
 * visited tables, as it is written), BENCH_RECURSIVE_PAIRS (3). BENCH_SMOKE=1 makes it tiny.
 */
export async function pathsBench(): Promise<Record<string, unknown>> {
  const n = smoke ? 2_000 : Number(process.env.BENCH_NODES ?? 20_000);
  const m = smoke ? 20_000 : Number(process.env.BENCH_EDGES ?? 200_000);
  const pairCount = smoke ? 20 : Number(process.env.BENCH_PAIRS ?? 1000);
  const store = await pathsDatabase(n, m);
  try {
    const loadStarted = Date.now();
    if (!store.loaded) await randomGraph(store.db, n, m);
    const loadMs = Date.now() - loadStarted;
    const graph = new PgGraphStore(store.db);

    const memBefore = await settledMemory();
    const buildStarted = process.hrtime.bigint();
    const index = await GraphIndex.build(graph);
    const buildMs = Number(process.hrtime.bigint() - buildStarted) / 1e6;
    const memAfter = await settledMemory();
    const retained = memAfter.heapUsed + memAfter.arrayBuffers - (memBefore.heapUsed + memBefore.arrayBuffers);
    // The baseline build in the same run: the store paging through edges with selects (no COPY), as before.
    const pagedStarted = process.hrtime.bigint();
    const db = store.db;
    await GraphIndex.build(
      new PgGraphStore({ query: (sql, p) => db.query(sql, p), execute: (sql, p) => db.execute(sql, p), tx: (fn) => db.tx(fn) }),
    );
    const pagedMs = Number(process.hrtime.bigint() - pagedStarted) / 1e6;

    // Random pairs (store ids) that are reachable, found with the index; the same list goes to every method.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pairs: [number, number][] = [];
    for (let tries = 0; pairs.length < pairCount && tries < pairCount * 50; tries++) {
      const s = Math.floor(next() * index.nodeCount);
      const t = Math.floor(next() * index.nodeCount);
      if (s !== t && allShortestPaths(index, s, t, { kinds: null, maxPaths: 1 }).length > 0) pairs.push([index.dbId(s), index.dbId(t)]);
    }

    // (a) the index, one timing per query
    const idxTimes: number[] = [];
    const idxLengths: number[] = [];
    const idxPaths: (number | undefined)[] = []; // undefined when truncated at 1,000
    for (const [s, t] of pairs) {
      const started = process.hrtime.bigint();
      const r = allShortestPaths(index, index.dense(s), index.dense(t), { kinds: null, maxPaths: 1000 });
      idxTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      idxLengths.push(r.length);
      idxPaths.push(r.truncated ? undefined : r.paths.length);
    }

    // (b) level-by-level bidirectional BFS in SQL
    const bfsPairs = pairs.slice(0, Number(process.env.BENCH_BFS_PAIRS ?? pairs.length));
    const bfsTimes: number[] = [];
    let bfsQueries = 0;
    let bfsAgree = true;
    for (const [i, [s, t]] of bfsPairs.entries()) {
      const started = process.hrtime.bigint();
      const r = await sqlBidirectionalBfs(store.db, s, t, 15);
      bfsTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      bfsQueries += r.queries;
      if (r.length !== idxLengths[i]) bfsAgree = false;
    }

    // (b2) BloodHound's harness: temporary path-space tables, full paths per frontier row, all shortest paths
    const harnessPairs = pairs.slice(0, smoke ? 5 : Number(process.env.BENCH_HARNESS_PAIRS ?? 100));
    const harnessVisited = process.env.BENCH_HARNESS_VISITED !== '0';
    const harnessTimes: number[] = [];
    let harnessQueries = 0;
    let harnessPathCount = 0;
    let harnessLengthsAgree = true;
    let harnessPathsAgree = true;
    let harnessPathsCompared = 0;
    for (const [i, [s, t]] of harnessPairs.entries()) {
      const started = process.hrtime.bigint();
      const r = await sqlHarnessAllShortestPaths(store.db, s, t, 15, { visited: harnessVisited });
      harnessTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      harnessQueries += r.queries;
      harnessPathCount += r.paths;
      if (r.length !== idxLengths[i]) harnessLengthsAgree = false;
      if (idxPaths[i] !== undefined) {
        harnessPathsCompared++;
        if (r.paths !== idxPaths[i]) harnessPathsAgree = false;
      }
    }

    // (c) the recursive query
    const recPairs = pairs.slice(0, smoke ? 2 : Number(process.env.BENCH_RECURSIVE_PAIRS ?? 3));
    const recTimes: number[] = [];
    let recAgree = true;
    for (const [i, [s, t]] of recPairs.entries()) {
      const started = process.hrtime.bigint();
      const paths = await graph.allShortestPaths(s, t, null, 15);
      recTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      if ((paths[0]?.length ?? 0) !== idxLengths[i]) recAgree = false;
    }

    const rebuild = await rebuildWhileQuerying(store.db, graph, pairs);
    const a = summarise(idxTimes);
    const b = summarise(bfsTimes);
    const b2 = summarise(harnessTimes);
    const c = summarise(recTimes);
    return {
      storage: store.kind,
      nodes: index.nodeCount,
      edges: index.edgeCount,
      load_ms: loadMs,
      index_build_ms: Math.round(buildMs),
      index_build_s_per_million_edges: Number((buildMs / 1000 / (index.edgeCount / 1e6)).toFixed(2)),
      index_build_paged_scan_ms: Math.round(pagedMs),
      index_build_paged_s_per_million_edges: Number((pagedMs / 1000 / (index.edgeCount / 1e6)).toFixed(2)),
      index_bytes_per_edge: Number((index.byteSize() / index.edgeCount).toFixed(1)),
      retained_heap_plus_arraybuffers_bytes_per_edge: Number((retained / index.edgeCount).toFixed(1)),
      index_ms: a,
      sql_bidirectional_bfs_ms: { ...b, queries_per_pair: Number((bfsQueries / Math.max(1, bfsPairs.length)).toFixed(1)) },
      sql_harness_ms: {
        ...b2,
        queries_per_pair: Number((harnessQueries / Math.max(1, harnessPairs.length)).toFixed(1)),
        paths_per_pair: Number((harnessPathCount / Math.max(1, harnessPairs.length)).toFixed(1)),
        visited_tables: harnessVisited,
      },
      sql_recursive_ms: c,
      pairs: { index: pairs.length, bfs: bfsPairs.length, harness: harnessPairs.length, recursive: recPairs.length },
      speedup_index_over_bfs: { p50: ratio(b.p50, a.p50), mean: ratio(b.mean, a.mean) },
      speedup_index_over_harness: { p50: ratio(b2.p50, a.p50), mean: ratio(b2.mean, a.mean) },
      speedup_index_over_recursive: { p50: ratio(c.p50, a.p50), mean: ratio(c.mean, a.mean) },
      lengths_agree: { bfs: bfsAgree, harness: harnessLengthsAgree, recursive: recAgree },
      // Pairs where the index was not truncated: its path count equals the harness's.
      paths_agree: { harness: harnessPathsAgree, pairs_compared: harnessPathsCompared },
      rebuild_while_querying: rebuild,
    };
  } finally {
    await store.close();
  }
}

/**
 * The bench's database. With BENCH_KEEP_GRAPH=1 on a real server, the random graph lives in a schema named after
 * its size that is kept between runs (loading 2M edges takes minutes on the shared machine): loaded once, reused.
 */
async function pathsDatabase(n: number, m: number): Promise<{ db: Database; kind: string; loaded: boolean; close(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url || process.env.BENCH_KEEP_GRAPH !== '1' || smoke) return { ...(await benchDatabase()), loaded: false };
  const schema = `paths_${n}_${m}`;
  const boot = new pg.Client({ connectionString: url });
  await boot.connect();
  await boot.query(`create schema if not exists ${schema}`);
  await boot.end();
  const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
  const db = new Database(schemaUrl, { log, max: 20 });
  await migrate(db, log);
  const [{ edges }] = await db.query<{ edges: number }>('select count(*)::int as edges from graph_edges');
  return { db, kind: 'postgres', loaded: edges! > 0, close: () => db.close() };
}

async function randomGraph(db: Database, n: number, m: number): Promise<void> {
  await db.query(`insert into graph_kinds (name) select 'K' || g from generate_series(0, 4) g on conflict do nothing`);
  await db.query(
    `insert into graph_nodes (objectid, kind_ids, properties) select 'N' || g, '{}', jsonb_build_object('objectid', 'N' || g) from generate_series(0, $1 - 1) g`,
    [n],
  );
  await db.query(
    `insert into graph_edges (start_id, end_id, kind_id)
     select s, t, k from (
       select 1 + floor(random() * $1)::bigint as s,
              case when random() < 0.7 then 1 + floor(random() * ($1 / 20))::bigint else 1 + floor(random() * $1)::bigint end as t,
              (select min(id) from graph_kinds where name like 'K%') + floor(random() * 5)::smallint as k
       from generate_series(1, $2)) e
     where s <> t on conflict do nothing`,
    [n, m],
  );
  await db.query(`update graph_state set generation = generation + 1 where id = 1`);
  await db.query('analyze graph_nodes; analyze graph_edges');
}

// One level of each side: the edges leaving (entering) the frontier towards nodes this side has not visited.
const FORWARD_LEVEL = /* SQL */ `select e.start_id, e.end_id from graph_edges e
where e.start_id = any($1::int8[]) and e.end_id not in (select unnest($2::int8[]))`;
const BACKWARD_LEVEL = /* SQL */ `select e.start_id, e.end_id from graph_edges e
where e.end_id = any($1::int8[]) and e.start_id not in (select unnest($2::int8[]))`;

/** The shortest length from `s` to `t` (0 when none within `maxDepth`), one SQL query per BFS level. */
async function sqlBidirectionalBfs(db: Database, s: number, t: number, maxDepth: number): Promise<{ length: number; queries: number }> {
  const distF = new Map<number, number>([[s, 0]]);
  const distB = new Map<number, number>([[t, 0]]);
  let frontF = [s];
  let frontB = [t];
  let depthF = 0;
  let depthB = 0;
  let queries = 0;
  while (frontF.length && frontB.length && depthF + depthB < maxDepth) {
    const forward = frontF.length <= frontB.length;
    const [mine, other, depth] = forward ? [distF, distB, depthF] : [distB, distF, depthB];
    const rows = await db.query<{ start_id: number; end_id: number }>(forward ? FORWARD_LEVEL : BACKWARD_LEVEL, [
      forward ? frontF : frontB,
      [...mine.keys()],
    ]);
    queries++;
    const next: number[] = [];
    let best = Infinity;
    for (const r of rows) {
      const v = Number(forward ? r.end_id : r.start_id);
      if (!mine.has(v)) {
        mine.set(v, depth + 1);
        next.push(v);
      }
      const o = other.get(v);
      if (o !== undefined) best = Math.min(best, depth + 1 + o);
    }
    if (forward) {
      depthF++;
      frontF = next;
    } else {
      depthB++;
      frontB = next;
    }
    if (best !== Infinity) return { length: best <= maxDepth ? best : 0, queries };
  }
  return { length: 0, queries };
}

/**
 * A rebuild through the holder (as after an ingest) while queries keep running on the event loop: how many were
 * answered during it, their worst latency, and the longest event-loop stall the rebuild caused.
 */
async function rebuildWhileQuerying(db: Database, graph: PgGraphStore, pairs: [number, number][]): Promise<Record<string, unknown>> {
  const holder = new GraphIndexHolder(graph, { checkIntervalMs: 0, log });
  await holder.current();
  await db.query(`update graph_state set generation = generation + 1 where id = 1`);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = Date.now();
  const rebuilt = holder.invalidate();
  let answered = 0;
  let worst = 0;
  while (holder.rebuilding) {
    const [s, t] = pairs[answered % pairs.length]!;
    const q = process.hrtime.bigint();
    const index = await holder.current();
    allShortestPaths(index, index.dense(s), index.dense(t), { kinds: null, maxPaths: 1000 });
    worst = Math.max(worst, Number(process.hrtime.bigint() - q) / 1e6);
    answered++;
    await new Promise((r) => setImmediate(r));
  }
  await rebuilt;
  delay.disable();
  return {
    rebuild_ms: Date.now() - started,
    queries_answered_during_rebuild: answered,
    worst_query_ms: Number(worst.toFixed(2)),
    max_event_loop_stall_ms: Number((delay.max / 1e6).toFixed(1)),
  };
}
