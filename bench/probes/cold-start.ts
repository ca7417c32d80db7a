import autocannon from 'autocannon';
import pg from 'pg';
import { signRequest } from '../../src/auth/signature';
import { benchToken, startServerChild } from '../server-child';

/**
 * What a server started under load serves afterwards: drives one route of a fresh `gas serve` on the http-graph
 * bench's kept tier M schema (run that bench once with BENCH_KEEP_GRAPH=1 first) at 32 connections from its first
 * request, so the requests that arrive while the path index is first built wait together (as they do when a
 * server is restarted under load), then measures PROBE_SECONDS more of the same load: requests/s, the server's
 * young collections (count, mean pause) and the bytes they promoted per request. PROBE_WARM=1 sends one request and
 * waits for it before the load starts (what the http-graph bench does): the same server without the pile-up; its
 * latency is reported as first_request_ms, and PROBE_DELAY_MS sends it that long after the server listens.
 *
 *   BENCH_SERVER_DIST=1 BENCH_SERVER_CPUS=1 BENCH_DATABASE_URL=postgres://…/wt_perfserve \
 *     taskset -c 0 node --import tsx bench/probes/cold-start.ts
 *
 * PROBE_ROUTE is shortest_path (default), ps_remote_rights or user; PROBE_NODE_ARGS are the server's node flags:
 * --trace-pretenuring-statistics adds how many times V8 decided to allocate a site's objects old (none once `gas
 * serve` has turned pretenuring off); `--require $PWD/bench/probes/survivors.cjs` samples what outlives young
 * collections. BENCH_SERVER_LOG_LEVEL=warn leaves the access log out.
 */
const SCHEMA = process.env.PROBE_SCHEMA ?? 'http_graph_analysed_26000_28';
const KEY = Buffer.from('gas-http-graph-benchmark-key-32b').toString('base64');

async function routeOf(url: string, name: string): Promise<string> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const one = async (sql: string) => (await db.query<{ objectid: string }>(sql)).rows[0]!.objectid;
    const user = await one(
      `select n.objectid from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name = 'User' order by n.id offset 100 limit 1`,
    );
    if (name === 'user') return `/api/v2/users/${user}?counts=false`;
    if (name === 'ps_remote_rights') {
      const group = await one(`select s.objectid from graph_edges e join graph_kinds k on k.id = e.kind_id and k.name = 'CanPSRemote'
                               join graph_nodes s on s.id = e.start_id join graph_kinds g on g.id = any(s.kind_ids) and g.name = 'Group'
                               order by s.id limit 1`);
      return `/api/v2/groups/${group}/ps-remote-rights`;
    }
    const target = await one(`select objectid from graph_nodes where properties ->> 'name' like 'DOMAIN ADMINS@%' limit 1`);
    return `/api/v2/graphs/shortest-path?start_node=${user}&end_node=${target}`;
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('BENCH_DATABASE_URL: the database holding the http-graph bench kept schema');
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA},public`)}`;
  const route = await routeOf(url, process.env.PROBE_ROUTE ?? 'shortest_path');
  const nodeArgs = (process.env.PROBE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startServerChild({ DATABASE_URL: url, RATE_LIMIT_RPS: '1000000', GAS_SECRET_KEY: KEY }, { nodeArgs, gcTrace: true });
  // With --trace-pretenuring-statistics among PROBE_NODE_ARGS: V8's decisions to allocate a site's objects old.
  let tenured = 0;
  server.child.stdout!.on('data', (d: Buffer) => (tenured += d.toString().split('=> tenure\n').length - 1));
  try {
    const token = await benchToken(server.url, 'cold-start');
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target: route });
    const options = { url: server.url + route, headers, connections: 32 };
    // PROBE_DELAY_MS: how long after the server listens its first request comes (a restart that is not under load).
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.PROBE_DELAY_MS ?? 0)));
    let firstMs: number | undefined;
    if (process.env.PROBE_WARM === '1') {
      const sent = performance.now();
      const first = await fetch(options.url, { headers });
      await first.arrayBuffer();
      firstMs = Math.round(performance.now() - sent);
      if (first.status !== 200) throw new Error(`${route} answered ${first.status}`);
    }
    const start = await autocannon({ ...options, duration: 3 });
    const gc0 = { ...server.gc };
    const r = await autocannon({ ...options, duration: Number(process.env.PROBE_SECONDS ?? 8) });
    const scavenges = server.gc.scavenges - gc0.scavenges;
    console.log(
      JSON.stringify({
        route: process.env.PROBE_ROUTE ?? 'shortest_path',
        warm: process.env.PROBE_WARM === '1',
        delay_ms: Number(process.env.PROBE_DELAY_MS ?? 0),
        first_request_ms: firstMs,
        node_args: nodeArgs,
        first_3s: { requests: start.requests.total, p99: start.latency.p99, non2xx: start.non2xx },
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        scavenges,
        scavenge_ms_mean: Number(((server.gc.scavengeMs - gc0.scavengeMs) / Math.max(1, scavenges)).toFixed(2)),
        full_gcs: server.gc.fullGcs - gc0.fullGcs,
        promoted_bytes_per_request: Math.round((server.gc.promotedBytes - gc0.promotedBytes) / Math.max(1, r.requests.total)),
        tenure_decisions: nodeArgs.includes('--trace-pretenuring-statistics') ? tenured : undefined,
      }),
    );
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
