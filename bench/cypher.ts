import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis } from '../src/analysis/run';
import { generateAzureHound } from '../src/generate/azurehound';
import { generateSharpHound } from '../src/generate/sharphound';
import { isTier, TIERS } from '../src/generate/tiers';
import { PgGraphStore } from '../src/graph/pg/store';
import { Database } from '../src/db/pool';
import { TRAVERSABLE_KINDS } from '../src/graph/kinds';
import { fileType, inCollectionOrder } from '../src/ingest/collection-order';
import { ingestPath } from '../src/ingest/ingest-path';
import { benchConfig, benchService, log } from './harness';
import { keptDatabase } from './http-graph';
import { peakRssMb, settledMemory, smoke, summarise } from './stats';

/**
 * Cypher at a generated tier (BENCH_TIER, default M; `gas generate --tier M` then ingest and analysis, kept between
 * runs with BENCH_KEEP_GRAPH=1 on BENCH_DATABASE_URL):
 *  1. every query of BloodHound's public query library (bench/cypher/query-library.json, MIT, SpecterOps) through
 *     the service (`services.cypher.run`, as the REST and GraphQL routes call it), BENCH_CYPHER_RUNS timed runs each
 *     after one warm-up: p50, p99, max over every run, and each query's median;
 *  2. traversals against the same question in SQL, in the shape BloodHound's PostgreSQL backend translates them to
 *     (recursive CTEs over the edge table carrying an edge-id path for relationship uniqueness), on the same random
 *     users, results compared equal: a variable-length MemberOf* expansion, and all shortest paths to Domain Admins
 *     over the traversable kinds (the store's recursive-CTE reference);
 *  3. memory: heap and RSS around the library run (the engine's per-query bound is its value budget).
 * BENCH_CYPHER_ONLY=<regex> times only the library queries whose name matches it (case-insensitive), for
 * re-measuring a few; BENCH_CYPHER_PAIRS=0 skips part 2.
 */
export async function cypherBench(): Promise<Record<string, unknown>> {
  const tierName = (process.env.BENCH_TIER ?? 'M').toUpperCase();
  if (!isTier(tierName)) throw new Error(`BENCH_TIER must be one of ${Object.keys(TIERS).join(', ')}`);
  const tier = TIERS[tierName];
  const users = smoke ? 200 : tier.users;
  const azureUsers = smoke ? 50 : tier.azureUsers;
  const runs = smoke ? 1 : Number(process.env.BENCH_CYPHER_RUNS ?? 5);
  const pairsWanted = smoke ? 5 : Number(process.env.BENCH_CYPHER_PAIRS ?? 50);
  const store = await keptDatabase(`cypher_tier_${smoke ? 'smoke' : tierName.toLowerCase()}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-cypher-'));
  const composed = await benchService(store, benchConfig());
  try {
    const graph = new PgGraphStore(store.db);
    const ingestStarted = Date.now();
    if (!store.kept) {
      const files = [
        ...generateSharpHound(dir, { users, seed: 11, acesPerObject: tier.acesPerObject }).files,
        ...generateAzureHound(dir, { users: azureUsers, seed: 11 }).files,
      ];
      for (const f of inCollectionOrder(files, (x) => fileType(x))) {
        const r = await ingestPath(graph, f);
        if (r.errors.length) throw new Error(`ingest of ${f} failed: ${r.errors.map((e) => e.message).join('; ')}`);
      }
      await runAnalysis(graph);
      await store.ingested();
    }
    const ingestMs = Date.now() - ingestStarted;
    const counts = await graph.counts();
    const cypher = composed.services.cypher;
    const deadline = () => Date.now() + 10_000;

    // The index is built once, as a server warms it on start; it is not part of any query's time.
    const warmStarted = Date.now();
    await cypher.run('MATCH (n:Domain) RETURN count(n)', { deadline: deadline() });
    const warmMs = Date.now() - warmStarted;

    // 1. BloodHound's query library
    const only = process.env.BENCH_CYPHER_ONLY ? new RegExp(process.env.BENCH_CYPHER_ONLY, 'i') : undefined;
    const library = (
      JSON.parse(fs.readFileSync(path.join(__dirname, 'cypher', 'query-library.json'), 'utf8')) as {
        name: string;
        category: string;
        query: string;
      }[]
    ).filter((q) => !only || only.test(q.name));
    const memBefore = await settledMemory();
    let heapPeak = memBefore.heapUsed;
    const all: number[] = [];
    const perQuery: { name: string; medianMs: number; maxMs: number; status: string; rows?: number }[] = [];
    for (const q of library) {
      const times: number[] = [];
      let status = 'ok';
      let rows: number | undefined;
      for (let i = 0; i <= runs; i++) {
        const started = process.hrtime.bigint();
        try {
          const r = await cypher.run(q.query, { deadline: deadline() });
          rows = r.nodes.length + r.edges.length + r.literals.length;
        } catch (err) {
          status = (err as { status?: number }).status === 504 ? 'timeout' : `error: ${(err as Error).message.slice(0, 120)}`;
        }
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        if (i > 0) times.push(ms);
        if (status !== 'ok') break;
      }
      if (status === 'ok' || status === 'timeout') all.push(...(times.length ? times : [10_000]));
      // A query cut by the deadline counts at it (no NaN: it would leave the slowest list unsorted).
      const s = summarise(times.length ? times : [status === 'timeout' ? 10_000 : 0]);
      const maxMs = status === 'timeout' ? 10_000 : Math.max(...times, 0);
      perQuery.push({ name: q.name, medianMs: round(s.p50), maxMs: round(maxMs), status, rows });
    }
    const memAfter = await settledMemory();
    const overall = summarise(all);

    // 2. traversals vs SQL in BloodHound's recursive-CTE shape, on the same users
    const userIds = (
      await store.db.query<{ objectid: string; id: number }>(
        `select n.objectid, n.id from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) and k.name = 'User' order by n.id`,
      )
    )
      .filter((_, i, a) => i % Math.max(1, Math.floor(a.length / pairsWanted)) === 0)
      .slice(0, pairsWanted);
    const da = (
      await store.db.query<{ objectid: string; id: number }>(`select objectid, id from graph_nodes where objectid like '%-512' limit 1`)
    )[0]!;
    const memberOf = await store.db.query<{ id: number }>(`select id from graph_kinds where name = 'MemberOf'`);

    const varCypher: number[] = [];
    const varSql: number[] = [];
    let varEqual = 0;
    for (const u of userIds) {
      let started = process.hrtime.bigint();
      const r = await cypher.run('MATCH (u:User {objectid: $id})-[:MemberOf*1..]->(g:Group) RETURN DISTINCT g.objectid AS g', {
        params: { id: u.objectid },
        deadline: deadline(),
      });
      varCypher.push(Number(process.hrtime.bigint() - started) / 1e6);
      started = process.hrtime.bigint();
      const rows = await store.db.query<{ objectid: string }>(VAR_LENGTH_SQL, [u.id, memberOf.map((k) => k.id), 15]);
      varSql.push(Number(process.hrtime.bigint() - started) / 1e6);
      const a = r.literals.map((l) => String(l.value)).sort();
      const b = rows.map((x) => x.objectid).sort();
      if (JSON.stringify(a) === JSON.stringify(b)) varEqual++;
    }

    // The recursive CTE takes minutes per pair at tier M (it walks every node within 15 hops both ways before it
    // keeps the shortest): a few pairs, each with a statement timeout; a pair past it counts at the timeout.
    const spCypher: number[] = [];
    const spSql: number[] = [];
    let spEqual = 0;
    let spFound = 0;
    let spSqlTimeouts = 0;
    const sqlPairs = smoke ? 3 : Number(process.env.BENCH_CYPHER_SQL_PAIRS ?? 8);
    const sqlTimeoutMs = Number(process.env.BENCH_CYPHER_SQL_TIMEOUT_MS ?? 20_000);
    const kinds = [...TRAVERSABLE_KINDS];
    // Its own connection, with the timeout as a startup option (the service's pool sets statement timeouts itself).
    const timedUrl = store.url.replace(
      /options=([^&]*)/,
      (_m, o: string) => `options=${o}${encodeURIComponent(` -c statement_timeout=${Math.floor(sqlTimeoutMs)}`)}`,
    );
    const timedDb = new Database(timedUrl, { log, max: 1 });
    const timed = new PgGraphStore(timedDb);
    for (const u of userIds.slice(0, sqlPairs)) {
      let started = process.hrtime.bigint();
      const r = await cypher.run(
        'MATCH p = allShortestPaths((u:User {objectid: $u})-[:AD_ATTACK_PATHS*1..]->(g:Group {objectid: $g})) RETURN p',
        {
          params: { u: u.objectid, g: da.objectid },
          deadline: deadline(),
        },
      );
      spCypher.push(Number(process.hrtime.bigint() - started) / 1e6);
      started = process.hrtime.bigint();
      const adKinds = kinds.filter((k) => !k.startsWith('AZ') && k !== 'SyncedToADUser');
      const ref = await timed.allShortestPaths(u.id, da.id, adKinds, 15).catch(() => undefined);
      spSql.push(ref ? Number(process.hrtime.bigint() - started) / 1e6 : sqlTimeoutMs);
      if (!ref) {
        spSqlTimeouts++;
        continue;
      }
      const ours = new Set(r.edges.map((e) => `${e.source}>${e.kind}>${e.target}`));
      const theirs = new Set(ref.flat().map((e) => `${e.startId}>${e.kind}>${e.endId}`));
      if (ours.size) spFound++;
      if (ours.size === theirs.size && [...ours].every((x) => theirs.has(x))) spEqual++;
    }
    await timedDb.close();
    const v = { cypher: summarise(varCypher), sql: summarise(varSql) };
    const sp = { cypher: summarise(spCypher), sql: summarise(spSql) };

    return {
      tier: smoke ? 'smoke' : tierName,
      graph: counts,
      ingestMs,
      indexBuildMs: warmMs,
      library: {
        queries: library.length,
        answered: perQuery.filter((q) => q.status === 'ok').length,
        timeouts: perQuery.filter((q) => q.status === 'timeout').length,
        errors: perQuery.filter((q) => q.status.startsWith('error')).map((q) => `${q.name}: ${q.status}`),
        runsPerQuery: runs,
        p50Ms: round(overall.p50),
        p99Ms: round(overall.p99),
        maxMs: round(Math.max(...all, 0)),
        over2s: perQuery.filter((q) => q.maxMs > 2000).map((q) => q.name),
        slowest: [...perQuery].sort((a, b) => b.medianMs - a.medianMs).slice(0, 8),
      },
      variableLength: {
        pairs: userIds.length,
        equal: varEqual,
        cypherP50Ms: round(v.cypher.p50),
        sqlP50Ms: round(v.sql.p50),
        ratio: round(v.sql.p50 / v.cypher.p50),
      },
      allShortestPaths: {
        pairs: spCypher.length,
        sqlTimeouts: spSqlTimeouts,
        sqlTimeoutMs,
        withPath: spFound,
        equal: spEqual,
        cypherP50Ms: round(sp.cypher.p50),
        sqlP50Ms: round(sp.sql.p50),
        ratio: round(sp.sql.p50 / sp.cypher.p50),
      },
      memory: {
        heapBeforeMb: mb(memBefore.heapUsed),
        heapAfterMb: mb(memAfter.heapUsed),
        heapPeakMb: mb(heapPeak),
        peakRssMb: peakRssMb(),
      },
    };
  } finally {
    await composed.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    void log;
  }
}

/**
 * `(u)-[:MemberOf*1..15]->(g:Group)` as BloodHound's PostgreSQL translation runs a variable-length pattern: a
 * recursive CTE that extends each walk by one edge of the allowed kinds, carrying the walk's edge ids so no edge
 * repeats (relationship uniqueness), then the end nodes that have the label.
 */
const VAR_LENGTH_SQL = /* SQL */ `-- bench.cypherVariableLength
with recursive walk(node, depth, path) as (
  select e.end_id, 1, array[e.id] from graph_edges e where e.start_id = $1 and e.kind_id = any($2::smallint[])
  union all
  select e.end_id, w.depth + 1, w.path || e.id
  from walk w join graph_edges e on e.start_id = w.node and e.kind_id = any($2::smallint[])
  where w.depth < $3 and not e.id = any(w.path)
)
select distinct n.objectid from walk w join graph_nodes n on n.id = w.node
join graph_kinds k on k.id = any(n.kind_ids) and k.name = 'Group'`;

const round = (x: number) => Math.round(x * 100) / 100;
const mb = (b: number) => Math.round(b / 1024 ** 2);
