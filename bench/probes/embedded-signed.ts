import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signRequest } from '../../src/auth/signature';
import { benchToken, cpuMs, startServerChild } from '../server-child';
import { median } from '../stats';

/**
 * Signed requests against `gas serve` on its embedded default (PGlite in the server's own process, a fresh
 * DATA_DIR): PROBE_ROUNDS (3) rounds of PROBE_SECONDS (8) s of autocannon, 32 connections, on PROBE_ROUTE
 * (`/api/v2/self`, or `user`: a user look-up on an uploaded TESTLAB users.json); PROBE_NODE_ARGS are the server's node flags. Prints requests/s, p50 and p99 and the server's CPU per request per round, and their medians.
 * Run it from another checkout (copied there) to compare builds:
 *
 *   BENCH_SERVER_DIST=1 BENCH_SERVER_CPUS=1 taskset -c 0 node --import tsx bench/probes/embedded-signed.ts
 */
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 8);
const ROUTE = process.env.PROBE_ROUTE ?? '/api/v2/self';
// PROBE_ROUTE=user: a user's entity look-up (`?counts=false`) on TESTLAB's users, uploaded first.
const USERS = path.join(__dirname, '..', '..', 'test', 'fixtures', 'sharphound-v6-testlab', 'users.json');
const KEY = Buffer.from('gas-embedded-signed-probe-key-32').toString('base64');

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-signed-'));
  // PROBE_NODE_ARGS: flags for the server's node (`--cpu-prof --cpu-prof-dir=/tmp/prof`, say).
  const nodeArgs = process.env.PROBE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const server = await startServerChild({ DATA_DIR: dataDir, RATE_LIMIT_RPS: '1000000', GAS_SECRET_KEY: KEY }, { nodeArgs });
  try {
    const token = await benchToken(server.url, 'probe');
    const signed = (method: string, target: string, body?: Buffer) =>
      signRequest({ tokenId: token.id, tokenKey: token.key, method, target, body });
    const route = ROUTE === 'user' ? `/api/v2/users/${await uploadUsers(server.url, signed)}?counts=false` : ROUTE;
    // The signature covers the method, the target, the RequestDate's hour and the body: one set of headers serves.
    const headers = signed('GET', route);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}${route}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${await res.text()}`);
    }
    const rounds: { rps: number; p50: number; p99: number; cpu_us_per_request: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const cpu0 = cpuMs(server.child.pid);
      const result = await autocannon({ url: `${server.url}${route}`, connections: 32, duration: SECONDS, headers });
      const cpu = cpuMs(server.child.pid) - cpu0;
      if (result.non2xx) throw new Error(`${result.non2xx} answers were not 2xx`);
      rounds.push({
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        cpu_us_per_request: Math.round((cpu * 1000) / Math.max(result.requests.total, 1)),
      });
    }
    const m = (k: keyof (typeof rounds)[number]) => median(rounds.map((x) => x[k]));
    console.log(
      JSON.stringify({
        route,
        rounds,
        median: { rps: m('rps'), p50: m('p50'), p99: m('p99'), cpu_us_per_request: m('cpu_us_per_request') },
        server_errors: server.errors,
      }),
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Uploads TESTLAB's users.json through the signed file-upload API; resolves a user's object id once it is served. */
async function uploadUsers(
  url: string,
  signed: (method: string, target: string, body?: Buffer) => Record<string, string>,
): Promise<string> {
  const body = fs.readFileSync(USERS);
  const call = async (target: string, payload?: Buffer) => {
    const res = await fetch(`${url}${target}`, {
      method: 'POST',
      headers: { ...signed('POST', target, payload), ...(payload && { 'content-type': 'application/json' }) },
      body: payload && new Uint8Array(payload),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`POST ${target}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: { id: number } }) : undefined;
  };
  const job = (await call('/api/v2/file-upload/start'))!.data.id;
  await call(`/api/v2/file-upload/${job}`, body);
  await call(`/api/v2/file-upload/${job}/end`);
  const id = (JSON.parse(body.toString('utf8')) as { data: { ObjectIdentifier: string }[] }).data[0]!.ObjectIdentifier;
  for (const started = Date.now(); Date.now() - started < 60_000; await new Promise((r) => setTimeout(r, 250))) {
    const target = `/api/v2/users/${id}?counts=false`;
    if ((await fetch(`${url}${target}`, { headers: signed('GET', target) })).status === 200) return id;
  }
  throw new Error('the uploaded user was not served within a minute');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
