import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { signRequest } from '../../src/auth/signature';
import { benchToken, cpuMs, startServerChild } from '../server-child';

/**
 * Where a route's latency tail comes from: drives one route of `gas serve` on the http-graph bench's kept tier M
 * schema (run that bench once with BENCH_KEEP_GRAPH=1 first) at 32 connections, records every response's time and
 * latency, and prints the percentiles, the server's CPU per request and collections, and the 100 ms windows that hold
 * most of the slowest 1 %, as wall-clock times. Run the server with `bench/probes/loop-stalls.cjs` preloaded
 * (PROBE_NODE_ARGS) to match those windows to its stalls and collections.
 *
 *   BENCH_SERVER_DIST=1 BENCH_SERVER_CPUS=1 PROBE_NODE_ARGS="--require $PWD/bench/probes/loop-stalls.cjs" \
 *   BENCH_DATABASE_URL=postgres://…/wt_perfserve taskset -c 0 node --import tsx bench/probes/latency-timeline.ts
 *
 * PROBE_ROTATE=1 asks for random users among 20,000 instead of one (the bench's users_rotating_counts_false);
 * PROBE_PATH drives another route (a path with its query); PROBE_SECONDS (5), PROBE_ROUNDS (2) and
 * PROBE_CONNECTIONS (32) set the runs.
 */
const SCHEMA = process.env.PROBE_SCHEMA ?? 'http_graph_analysed_26000_28';
const KEY = Buffer.from('gas-http-graph-benchmark-key-32b').toString('base64');

async function main(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('BENCH_DATABASE_URL: the database holding the http-graph bench kept schema');
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA},public`)}`;
  const users = new pg.Client({ connectionString: url });
  await users.connect();
  const sql = `select n.objectid from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name = 'User' order by n.id`;
  const ids = (await users.query<{ objectid: string }>(`${sql} limit 20000`)).rows.map((r) => r.objectid);
  await users.end();
  const nodeArgs = (process.env.PROBE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startServerChild({ DATABASE_URL: url, RATE_LIMIT_RPS: '1000000', GAS_SECRET_KEY: KEY }, { nodeArgs, gcTrace: true });
  try {
    const token = await benchToken(server.url, 'probe');
    const sign = (path: string) => ({
      method: 'GET' as const,
      path,
      headers: signRequest({ tokenId: token.id, tokenKey: token.key, method: 'GET', target: path }),
    });
    const one = sign(process.env.PROBE_PATH ?? `/api/v2/users/${ids[100]}?counts=false`);
    const many = ids.map((id) => sign(`/api/v2/users/${id}?counts=false`));
    const pick =
      process.env.PROBE_ROTATE === '1'
        ? [{ setupRequest: (req: object) => ({ ...req, ...many[Math.floor(Math.random() * many.length)]! }) }]
        : undefined;
    const options = {
      url: server.url + one.path,
      headers: one.headers,
      connections: Number(process.env.PROBE_CONNECTIONS ?? 32),
      ...(pick && { requests: pick }),
    };
    await autocannon({ ...options, duration: 2 }); // warm-up
    for (let round = 0; round < Number(process.env.PROBE_ROUNDS ?? 2); round++) {
      const seen: [number, number][] = [];
      const t0 = performance.now();
      const cpu0 = cpuMs(server.child.pid);
      const gc0 = { ...server.gc };
      const r = await new Promise<autocannon.Result>((resolve, reject) => {
        const run = autocannon({ ...options, duration: Number(process.env.PROBE_SECONDS ?? 5) }, (err, result) =>
          err ? reject(err as Error) : resolve(result),
        );
        run.on('response', (_c: unknown, _s: number, _b: number, ms: number) => seen.push([performance.now() - t0, ms]));
      });
      const cpu = cpuMs(server.child.pid) - cpu0;
      const sorted = seen.map(([, ms]) => ms).sort((a, b) => a - b);
      const q = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1));
      const slow = q(0.99);
      const windows = new Map<number, number>();
      for (const [t, ms] of seen) if (ms >= slow) windows.set(Math.floor(t / 100), (windows.get(Math.floor(t / 100)) ?? 0) + 1);
      const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1];
      console.log(
        JSON.stringify({
          rps: Math.round(r.requests.average),
          p50: q(0.5),
          p90: q(0.9),
          p99: slow,
          p999: q(0.999),
          max: sorted[sorted.length - 1],
          server_cpu_us_per_request: Math.round((cpu * 1000) / seen.length),
          scavenges: server.gc.scavenges - gc0.scavenges,
          full_gcs: server.gc.fullGcs - gc0.fullGcs,
          promoted_bytes_per_request: Math.round((server.gc.promotedBytes - gc0.promotedBytes) / seen.length),
          server_rss_mib: rss ? Math.round(Number(rss) / 1024) : undefined,
          // [wall-clock ms of the window's start, responses of the slowest 1 % in it], most first
          slowest_windows: [...windows]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8)
            .map(([w, n]) => [Math.round(performance.timeOrigin + t0 + w * 100), n]),
        }),
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
