import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { signRequest } from '../src/auth/signature';
import { runAnalysis } from '../src/analysis/run';
import { generateSharpHound } from '../src/generate/sharphound';
import { PgGraphStore } from '../src/graph/pg/store';
import { ingestPath } from '../src/ingest/ingest-path';
import pg from 'pg';
import { migrate } from '../src/db/migrate';
import { Database } from '../src/db/pool';
import { isTier, TIERS } from '../src/generate/tiers';
import { benchDatabase, log } from './harness';
import { benchLogin, cpuMs, serverCommand, startServerChild, type GcTotals } from './server-child';
import { median, smoke } from './stats';

const BENCH_SECRET_KEY = Buffer.from('gas-http-graph-benchmark-key-32b').toString('base64');

/**
 * The graph read routes as collectors and the UI call them, over HTTP with SIGNED requests (HMAC token, as
 * collectors sign), against `gas serve` in its own process on a generated forest, with a bare express route
 * (own process too) serving a body of the same size as the user lookup, in the same run. 32 connections.
 * Sizes: BENCH_USERS (default 3000) and BENCH_ACES (ACEs per object, default 8); BENCH_HTTP_SECONDS per route (5).
 */
export async function httpGraphBench(): Promise<Record<string, unknown>> {
  const tier = process.env.BENCH_TIER?.toUpperCase();
  if (tier !== undefined && !isTier(tier)) throw new Error(`BENCH_TIER must be one of ${Object.keys(TIERS).join(', ')}`);
  const users = smoke ? 200 : Number(process.env.BENCH_USERS ?? (tier ? TIERS[tier].users : 3000));
  const aces = Number(process.env.BENCH_ACES ?? (tier ? TIERS[tier].acesPerObject : 8));
  const seconds = smoke ? 1 : Number(process.env.BENCH_HTTP_SECONDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-http-'));
  const store = await keptDatabase(`http_graph_analysed_${users}_${aces}`);
  let server: Awaited<ReturnType<typeof startServerChild>> | undefined;
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  let bareBorn: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    const ingestStarted = Date.now();
    const graph = new PgGraphStore(store.db);
    if (!store.kept) {
      generateSharpHound(dir, { users, seed: 11, acesPerObject: aces });
      for (const t of ['domains', 'ous', 'gpos', 'groups', 'users', 'computers']) {
        const r = await ingestPath(graph, path.join(dir, `${t}.json`));
        if (r.errors.length) throw new Error(`ingest of ${t}.json failed: ${r.errors.map((e) => e.message).join('; ')}`);
      }
      // As a server in use holds it: analysed, so CanPSRemote, AdminTo and the other derived edges exist and the
      // ps-remote-rights route answers a real list (before analysis it measured an empty one).
      await runAnalysis(graph);
      await store.ingested();
    }
    const ingestMs = Date.now() - ingestStarted;
    const counts = await graph.counts();
    const pick = async (sql: string) => (await store.db.query<{ objectid: string }>(sql))[0]?.objectid;
    const user = await pick(
      `select n.objectid from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name = 'User' order by n.id offset 100 limit 1`,
    );
    const group =
      (await pick(`select s.objectid from graph_edges e join graph_kinds k on k.id = e.kind_id and k.name = 'CanPSRemote'
                   join graph_nodes s on s.id = e.start_id join graph_kinds g on g.id = any(s.kind_ids) and g.name = 'Group'
                   order by s.id limit 1`)) ??
      (await pick(
        `select n.objectid from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name = 'Group' order by n.id limit 1`,
      ));
    const target = await pick(`select objectid from graph_nodes where properties ->> 'name' like 'DOMAIN ADMINS@%' limit 1`);
    if (!user || !group || !target) throw new Error('the generated graph has no user, group or Domain Admins group');

    // BENCH_SERVER_PROF=<dir>: the server writes a CPU profile there when it stops.
    const prof = process.env.BENCH_SERVER_PROF;
    server = await startServerChild(
      // A fixed server key: a kept schema holds secrets sealed by the previous run's server.
      { DATABASE_URL: store.url, RATE_LIMIT_RPS: '1000000', GAS_SECRET_KEY: BENCH_SECRET_KEY },
      // With V8's collection trace: what each route costs in garbage collection is reported next to its CPU.
      { nodeArgs: prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [], gcTrace: true },
    );
    const jwt = await benchLogin(server.url);
    const tokenRes = await fetch(`${server.url}/api/v2/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token_name: 'bench' }),
    });
    if (tokenRes.status !== 200) throw new Error(`token create failed: ${tokenRes.status} ${await tokenRes.text()}`);
    const token = ((await tokenRes.json()) as { data: { id: string; key: string } }).data;
    const signedHeaders = (target: string) => signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target });

    // One user looked up again and again (an entity panel's pattern), and, to show what a look-up costs when the node
    // is not in the server's memory, random users out of BENCH_ROTATING_USERS (more than the node memory keeps).
    const rotating = (
      await store.db.query<{ objectid: string }>(
        `select n.objectid from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name = 'User' order by n.id limit $1`,
        [smoke ? 50 : Number(process.env.BENCH_ROTATING_USERS ?? 20_000)],
      )
    ).map((r) => `/api/v2/users/${r.objectid}?counts=false`);
    const routes: Record<string, string> = {
      user_counts_false: `/api/v2/users/${user}?counts=false`,
      users_rotating_counts_false: rotating[0]!,
      user_counts_true: `/api/v2/users/${user}?counts=true`,
      ps_remote_rights: `/api/v2/groups/${group}/ps-remote-rights`,
      // An entity panel of another kind (members, memberships, controllers, sessions), counted on the index.
      group_counts_true: `/api/v2/groups/${group}?counts=true`,
      shortest_path: `/api/v2/graphs/shortest-path?start_node=${user}&end_node=${target}`,
    };
    // BENCH_ROUTES=name,… drives only those routes (profiling one route); the bare route always runs.
    const only = process.env.BENCH_ROUTES?.split(',');
    const unknown = only?.filter((n) => !(n in routes)) ?? [];
    if (unknown.length > 0)
      throw new Error(`BENCH_ROUTES: no route named ${unknown.join(', ')} (routes: ${Object.keys(routes).join(', ')})`);
    // First touch of every route, even those BENCH_ROUTES leaves out: builds the path index (as a server in use has
    // one), and checks every route answers 200 before it is measured.
    const bodyBytes: Record<string, number> = {};
    for (const [name, r] of Object.entries(routes)) {
      const res = await fetch(server.url + r, { headers: signedHeaders(r) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${r} answered ${res.status}: ${text.slice(0, 300)}`);
      bodyBytes[name] = Buffer.byteLength(text);
    }
    bare = await startBare(bodyBytes.user_counts_false!);
    bareBorn = await startBare(bodyBytes.user_counts_false!, 'born');

    if (only) for (const name of Object.keys(routes)) if (!only.includes(name)) delete routes[name];
    const results: Record<string, unknown> = {};
    // Warm-up, unmeasured: the first route driven after start otherwise pays for JIT compilation and cold caches.
    const warmup = smoke ? 0 : Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
    if (warmup > 0) for (const r of Object.values(routes)) await drive(server.url + r, signedHeaders(r), warmup, connections, undefined);
    const serverPid = server.child.pid;
    const baseline = await drive(`${bare.url}/bare`, {}, seconds, connections, bare.pid);
    // Database transactions per request (every autocommit statement is one), from the server's statistics: the
    // round trips a route costs, a figure the machine's load does not blur. A backend flushes its counters once idle
    // for 10 s at the latest, hence the wait; the few background statements meanwhile add ~0.01 per request.
    const xacts = async () => {
      if (store.kind !== 'postgres') return 0;
      await new Promise((r) => setTimeout(r, smoke ? 0 : 11_000));
      const sql = 'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()';
      return (await store.db.query<{ n: number }>(sql))[0]!.n;
    };
    let counted = await xacts();
    const signedRotating = rotating.map((r) => ({ method: 'GET' as const, path: r, headers: signedHeaders(r) }));
    const pickOf = (name: string) => (name === 'users_rotating_counts_false' ? signedRotating : undefined);
    for (const [name, r] of Object.entries(routes)) {
      const run = await drive(server.url + r, signedHeaders(r), seconds, connections, serverPid, pickOf(name), server.gc);
      const now = await xacts();
      results[name] = {
        ...run,
        db_transactions_per_request: store.kind === 'postgres' ? Number(((now - counted) / run.requests).toFixed(2)) : undefined,
      };
      counted = now;
    }
    const bareAgain = await drive(`${bare.url}/bare`, {}, seconds, connections, bare.pid); // the load moved meanwhile?
    // The same bare route served as `gas serve` serves (createHttpServer): what that construction alone gives.
    const born = await drive(`${bareBorn.url}/bare`, {}, seconds, connections, bareBorn.pid);
    const baseRps = (baseline.rps + bareAgain.rps) / 2;
    const rel = (name: string) => Number(((results[name] as { rps: number }).rps / baseRps).toFixed(2));
    const bareCpu = (baseline.cpu_us_per_request + bareAgain.cpu_us_per_request) / 2;
    const cpuRel = (name: string) => Number((bareCpu / (results[name] as { cpu_us_per_request: number }).cpu_us_per_request).toFixed(2));
    // BENCH_TRIALS=n: n-1 more rounds of the bare route then each route, each route's ratio taken against the bare
    // run just before it. On a machine whose neighbours come and go, the median of several such pairs is steadier
    // than one run's figure.
    const ratios: Record<string, number[]> = Object.fromEntries(Object.keys(routes).map((n) => [n, [rel(n)]]));
    // p99 of every sequential run of a route: one 4-second run's p99 moves by several ms with the machine.
    const p99s: Record<string, number[]> = Object.fromEntries(Object.keys(routes).map((n) => [n, [(results[n] as { p99: number }).p99]]));
    // And the bare route's p99 in the run before each: at 32 connections in a closed loop the mean latency is the
    // connections over the throughput, so a slow machine lifts every p99, the bare route's too.
    const bareP99s: Record<string, number[]> = Object.fromEntries(Object.keys(routes).map((n) => [n, [baseline.p99]]));
    for (let t = 1; t < Number(process.env.BENCH_TRIALS ?? 1); t++) {
      for (const [name, r] of Object.entries(routes)) {
        const b = await drive(`${bare.url}/bare`, {}, seconds, connections, bare.pid);
        const run = await drive(server.url + r, signedHeaders(r), seconds, connections, serverPid, pickOf(name), server.gc);
        ratios[name]!.push(Number((run.rps / b.rps).toFixed(2)));
        p99s[name]!.push(run.p99);
        bareP99s[name]!.push(b.p99);
      }
    }
    // BENCH_CONCURRENT=n: n rounds of the bare route and each route driven at the same time, for the same seconds.
    // With both servers pinned to one CPU (BENCH_SERVER_CPUS) they share it, so whatever slows the machine during a
    // round slows both alike; the ratio of their CPU per request is then the steadiest figure this machine gives.
    const concurrent: Record<string, { cpu: number[]; rps: number[] }> = {};
    for (let t = 0; t < Number(process.env.BENCH_CONCURRENT ?? 0); t++) {
      for (const [name, r] of Object.entries(routes)) {
        const [b, run] = await Promise.all([
          drive(`${bare.url}/bare`, {}, seconds, connections, bare.pid),
          drive(server.url + r, signedHeaders(r), seconds, connections, serverPid, pickOf(name), server.gc),
        ]);
        const c = (concurrent[name] ??= { cpu: [], rps: [] });
        c.cpu.push(Number((b.cpu_us_per_request / run.cpu_us_per_request).toFixed(2)));
        c.rps.push(Number((run.rps / b.rps).toFixed(2)));
      }
    }
    return {
      storage: store.kind,
      nodes: counts.nodes,
      edges: counts.edges,
      ingest_and_analysis_ms: ingestMs,
      graph_reused: store.kept,
      connections,
      seconds_per_route: seconds,
      body_bytes: bodyBytes,
      bare_route: { first: baseline, last: bareAgain },
      bare_route_born: born,
      ...results,
      rps_ratio_to_bare: Object.fromEntries(Object.keys(routes).map((n) => [n, rel(n)])),
      rps_ratio_to_bare_born: Object.fromEntries(
        Object.keys(routes).map((n) => [n, Number(((results[n] as { rps: number }).rps / born.rps).toFixed(2))]),
      ),
      // The bare route's CPU per request over the route's own: the throughput ratio the server would reach were it
      // the only thing the machine's cores ran (load generator and database elsewhere).
      cpu_ratio_to_bare: Object.fromEntries(Object.keys(routes).map((n) => [n, cpuRel(n)])),
      ...(ratios[Object.keys(routes)[0]!]!.length > 1 && {
        rps_ratio_trials: ratios,
        rps_ratio_median: Object.fromEntries(Object.entries(ratios).map(([n, v]) => [n, median(v)])),
        p99_ms_trials: p99s,
        p99_ms_median: Object.fromEntries(Object.entries(p99s).map(([n, v]) => [n, median(v)])),
        bare_p99_ms_trials: bareP99s,
        p99_ratio_to_bare_median: Object.fromEntries(
          Object.entries(p99s).map(([n, v]) => [n, Number(median(v.map((p, i) => p / bareP99s[n]![i]!)).toFixed(2))]),
        ),
      }),
      ...(Object.keys(concurrent).length > 0 && {
        concurrent: Object.fromEntries(
          Object.entries(concurrent).map(([n, c]) => [
            n,
            { cpu_ratio_trials: c.cpu, cpu_ratio_median: median(c.cpu), rps_ratio_trials: c.rps, rps_ratio_median: median(c.rps) },
          ]),
        ),
      }),
      server_rss_mib: server.rssMiB(),
      server_errors: server.errors,
    };
  } finally {
    await server?.stop();
    bare?.stop();
    bareBorn?.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Drives one route, or with `pick` a random one of several per request (in this thread: a function cannot go to a worker). */
async function drive(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  pid: number | undefined,
  pick?: { method: 'GET'; path: string; headers: Record<string, string> }[],
  gc?: GcTotals,
) {
  const cpuBefore = cpuMs(pid);
  const gcBefore = gc && { ...gc };
  const random = pick && [{ setupRequest: (req: object) => ({ ...req, ...pick[Math.floor(Math.random() * pick.length)]! }) }];
  const r = await autocannon(
    random ? { url, duration: seconds, connections, requests: random } : { url, headers, duration: seconds, connections, workers: 1 },
  );
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: Number(r.latency.average.toFixed(2)),
    requests: r.requests.total,
    /** CPU (user + system) the serving process spent per answered request, in microseconds. */
    cpu_us_per_request: Math.round(((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total)),
    ...(gc && gcBefore && { gc: gcOfRun(gcBefore, gc, r.requests.total, seconds) }),
  };
}

/** The serving process's garbage collection during one run: pause time per second, and what a request promotes. */
function gcOfRun(before: GcTotals, after: GcTotals, requests: number, seconds: number) {
  return {
    scavenges: after.scavenges - before.scavenges,
    full_gcs: after.fullGcs - before.fullGcs,
    pause_ms_per_s: Number(((after.scavengeMs - before.scavengeMs + (after.fullGcMs - before.fullGcMs)) / seconds).toFixed(1)),
    promoted_bytes_per_request: Math.round((after.promotedBytes - before.promotedBytes) / Math.max(1, requests)),
  };
}

async function startBare(bodyBytes: number, server?: 'born'): Promise<{ url: string; pid: number | undefined; stop(): void }> {
  const child = spawn(...serverCommand(['--import', 'tsx', path.join(__dirname, 'http-bare-child.ts')]), {
    env: { PATH: process.env.PATH ?? '', BODY_BYTES: String(bodyBytes), ...(server && { BARE_SERVER: server }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * The bench's database. With BENCH_KEEP_GRAPH=1 on a real server the ingested forest stays in a schema named after
 * its size and is reused by later runs (`kept`): ingesting tier M takes minutes on the shared machine.
 */
export async function keptDatabase(
  schema: string,
): Promise<{ db: Database; url: string; kind: string; kept: boolean; ingested(): Promise<void>; close(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url || process.env.BENCH_KEEP_GRAPH !== '1' || smoke)
    return { ...(await benchDatabase()), kept: false, ingested: async () => undefined };
  const boot = new pg.Client({ connectionString: url });
  await boot.connect();
  // Reused only when a whole ingest finished (an interrupted run leaves a partial forest: start it again).
  const done = await boot.query(`select 1 from pg_tables where schemaname = $1 and tablename = 'bench_ingested'`, [schema]);
  if (!done.rowCount) await boot.query(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  await boot.end();
  const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
  const db = new Database(schemaUrl, { log, max: 20 });
  await migrate(db, log);
  return {
    db,
    url: schemaUrl,
    kind: 'postgres',
    kept: done.rowCount! > 0,
    ingested: () => db.query('create table if not exists bench_ingested (at timestamptz not null default now())').then(() => undefined),
    close: () => db.close(),
  };
}
