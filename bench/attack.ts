import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { generateSharpHound } from '../src/generate/sharphound';
import { benchDatabase } from './harness';
import { healthProbe, percentiles, slowSlot, SLOW_KINDS, type SlowStats } from './attack-clients';
import { benchLogin, startServerChild, type ServerChild } from './server-child';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The smoke run (CI) proves the bench works: short waits, small files. */
const smoke = () => process.env.BENCH_SMOKE === '1';
const MiB = 1024 * 1024;
const FIXTURES = path.resolve(__dirname, '..', 'test', 'fixtures', 'sharphound-v6-testlab');

/**
 * `npm run bench attack`: one client trying to slow everybody down, against `gas serve` in its own process (on
 * BENCH_DATABASE_URL, else its embedded store), with a monitor asking GET /health from 127.0.0.1 throughout.
 *   slow      ATTACK_CONNECTIONS (200) slow anonymous connections from ATTACK_ADDRESSES (4) other loopback addresses
 *             for ATTACK_SECONDS (60): bodies declared at 9.5 MiB, headers a line a second, bodies a kilobyte a
 *             second, connections that send nothing; each reconnects when closed. Server RSS growth, /health
 *             latency against its own baseline, RSS 30 s after.
 *   ingest    an Upload-Only user's 1 GiB zip bomb (~1 MB) and 20,000-entry zip, then the administrator's small job:
 *             how long each bomb ran once it began expanding, when the small job completed.
 *   graphql   six costly GraphQL documents at once from a Read-Only user, each just under the response budget, in
 *             a loop for ATTACK_GRAPHQL_SECONDS (30), over a tier-S-sized graph; /health latency meanwhile.
 * ATTACK_PHASES picks some (comma-separated).
 */
export async function attackBench(): Promise<Record<string, unknown>> {
  const phases = (process.env.ATTACK_PHASES ?? 'slow,ingest,graphql').split(',');
  const store = process.env.BENCH_DATABASE_URL ? await benchDatabase('_attack') : undefined;
  // The server's limits can be tried here too (COSTLY_WORK_TOTAL=2 npm run bench attack, …).
  const limits = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => /^(COSTLY_WORK_|ARCHIVE_|MAX_|[A-Z_]*TIMEOUT_SECONDS)/.test(e[0]) && !!e[1],
    ),
  );
  const server = await startServerChild({ ...limits, ...(store ? { DATABASE_URL: store.url } : {}) });
  const out: Record<string, unknown> = { storage: store ? 'postgres' : 'embedded' };
  try {
    const jwt = await benchLogin(server.url);
    if (phases.includes('slow')) out.slow = await slowConnections(server);
    if (phases.includes('ingest')) out.ingest = await ingestAttack(server, jwt);
    if (phases.includes('graphql')) out.graphql = await costlyGraphql(server, jwt);
    out.serverStillUp = !server.exited();
    out.errorLogLines = server.errors;
    return out;
  } finally {
    await server.stop();
    await store?.close();
  }
}

async function slowConnections(server: ServerChild) {
  const seconds = Number(process.env.ATTACK_SECONDS ?? 60);
  const connections = Number(process.env.ATTACK_CONNECTIONS ?? 200);
  const addresses = Number(process.env.ATTACK_ADDRESSES ?? 4);
  const port = Number(new URL(server.url).port);
  await sleep(2000);
  const baselineProbe = healthProbe(server.url);
  await sleep(smoke() ? 2000 : 10_000);
  const baseline = percentiles(await baselineProbe.stop());
  const restMiB = server.rssMiB();

  let peakMiB = restMiB;
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, server.rssMiB())), 200);
  const probe = healthProbe(server.url);
  const until = Date.now() + seconds * 1000;
  const stats: SlowStats = { connections: 0, byStatus: {}, closedUnanswered: 0, longestMs: 0 };
  await Promise.all(
    Array.from({ length: connections }, (_, i) =>
      slowSlot(port, SLOW_KINDS[i % SLOW_KINDS.length]!, `127.0.0.${2 + (i % addresses)}`, until, stats),
    ),
  );
  const during = percentiles(await probe.stop());
  clearInterval(sampler);
  const endMiB = server.rssMiB();
  await sleep(smoke() ? 2000 : 30_000);
  const afterMiB = server.rssMiB();
  return {
    connections,
    fromAddresses: addresses,
    seconds,
    healthBaselineMs: baseline,
    healthDuringMs: during,
    healthFailures: probe.failures(),
    p99RatioToBaseline: +(during.p99 / Math.max(1, baseline.p99)).toFixed(2),
    rssRestMiB: restMiB,
    rssPeakMiB: peakMiB,
    rssGrowthMiB: peakMiB - restMiB,
    rssAtEndMiB: endMiB,
    rss30sAfterMiB: afterMiB,
    growth30sAfterMiB: afterMiB - restMiB,
    slowClients: stats,
    targets: {
      rssGrowthUnder150MiB: peakMiB - restMiB <= 150,
      healthP99Under200ms: during.p99 <= 200,
      backWithin150MiB30sAfter: afterMiB - restMiB <= 150,
    },
  };
}

/** `{"meta":…,"data":[` then `mib` MiB of spaces then `]}`: valid JSON that compresses about a thousand times. */
function spaces(mib: number): Readable {
  const blank = Buffer.alloc(MiB, 0x20);
  return Readable.from(
    (function* () {
      yield Buffer.from('{"meta":{"type":"users","version":6},"data":[');
      for (let i = 0; i < mib; i++) yield blank;
      yield Buffer.from(']}');
    })(),
  );
}

async function api(server: ServerChild, jwt: string, method: string, target: string, body?: Buffer | string, type = 'application/json') {
  const res = await fetch(`${server.url}${target}`, {
    method,
    headers: { authorization: `Bearer ${jwt}`, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${target}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as { data: any }) : { data: undefined };
}

/** A user with a role, created by the administrator, and their session. */
async function userWith(server: ServerChild, adminJwt: string, role: string, name: string): Promise<string> {
  const roles = (await api(server, adminJwt, 'GET', '/api/v2/roles')).data.roles as { id: number; name: string }[];
  const roleId = roles.find((r) => r.name === role)!.id;
  const secret = 'bench-user-password';
  await api(server, adminJwt, 'POST', '/api/v2/bloodhound-users', JSON.stringify({ principal: name, secret, roles: [roleId] }));
  const res = await fetch(`${server.url}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_method: 'secret', username: name, secret }),
  });
  return ((await res.json()) as { data: { session_token: string } }).data.session_token;
}

/** Uploads files as one job and ends it; returns the job id and when it was ended. */
async function uploadJob(server: ServerChild, jwt: string, files: { name: string; path: string; type: string }[]) {
  const id = (await api(server, jwt, 'POST', '/api/v2/file-upload/start')).data.id as number;
  for (const f of files) {
    const res = await fetch(`${server.url}/api/v2/file-upload/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': f.type, 'content-disposition': `attachment; filename="${f.name}"` },
      body: new Uint8Array(fs.readFileSync(f.path)),
    });
    if (res.status !== 202) throw new Error(`upload ${f.name}: ${res.status} ${await res.text()}`);
  }
  await api(server, jwt, 'POST', `/api/v2/file-upload/${id}/end`);
  return { id, endedAt: Date.now() };
}

const DONE = new Set([2, 3, 4, 5, 8]);

/** Polls the job list until every job is done; when each began ingesting and when each ended. */
async function watchJobs(server: ServerChild, jwt: string, ids: number[], timeoutMs: number) {
  const seen: Record<number, { ingestingAt?: number; ingestedAt?: number; doneAt?: number; status?: number; message?: string }> = {};
  for (const id of ids) seen[id] = {};
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const jobs = (await api(server, jwt, 'GET', '/api/v2/file-upload?limit=100')).data as {
      id: number;
      status: number;
      status_message: string;
    }[];
    for (const j of jobs) {
      const s = seen[j.id];
      if (!s || s.doneAt) continue;
      if (j.status === 6 && j.status_message === 'ingesting') s.ingestingAt ??= Date.now();
      // Its files are done once it leaves "ingesting" (analysis, which runs after all ingest, comes next).
      if (j.status === 7 || DONE.has(j.status)) s.ingestedAt ??= Date.now();
      if (DONE.has(j.status)) Object.assign(s, { doneAt: Date.now(), status: j.status, message: j.status_message });
    }
    if (ids.every((id) => seen[id]!.doneAt)) break;
    await sleep(100);
  }
  return seen;
}

async function ingestAttack(server: ServerChild, adminJwt: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-attack-'));
  try {
    const uploader = await userWith(server, adminJwt, 'Upload-Only', 'bench-uploader');
    const bombMiB = Number(process.env.ATTACK_BOMB_MIB ?? 1024);
    const bomb = path.join(dir, 'bomb.zip');
    const z = new yazl.ZipFile();
    z.addReadStream(spaces(bombMiB), 'users.json');
    z.end();
    await pipeline(z.outputStream, fs.createWriteStream(bomb));
    const many = path.join(dir, 'many.zip');
    const m = new yazl.ZipFile();
    for (let i = 0; i < 20_000; i++) m.addBuffer(Buffer.alloc(0), `e${i}.json`, { compress: false });
    m.end();
    await pipeline(m.outputStream, fs.createWriteStream(many));
    // And an ordinary big job of the same caller's, ahead of everything: a tier-S-sized domain.
    const gen = path.join(dir, 'gen');
    generateSharpHound(gen, { users: Number(process.env.ATTACK_USERS ?? 2600), seed: 7 });
    const bigFiles = ['users', 'computers', 'groups'].map((n) => ({
      name: `${n}.json`,
      path: path.join(gen, `${n}.json`),
      type: 'application/json',
    }));
    const bigJob = await uploadJob(server, uploader, bigFiles);
    const bombJob = await uploadJob(server, uploader, [{ name: 'bomb.zip', path: bomb, type: 'application/zip' }]);
    const manyJob = await uploadJob(server, uploader, [{ name: 'many.zip', path: many, type: 'application/zip' }]);
    const small = await uploadJob(server, adminJwt, [
      { name: 'users.json', path: path.join(FIXTURES, 'users.json'), type: 'application/json' },
    ]);
    const seen = await watchJobs(server, adminJwt, [bigJob.id, bombJob.id, manyJob.id, small.id], 600_000);
    // Seconds from the first poll that saw it ingesting to the first that saw its files done; one never seen
    // ingesting was taken and ended between two polls (100 ms apart).
    const ran = (j: { id: number; endedAt: number }) => {
      const s = seen[j.id]!;
      const seconds = s.ingestedAt ? (s.ingestingAt ? (s.ingestedAt - s.ingestingAt) / 1000 : 0.1) : null;
      return { status: s.status, message: s.message, secondsIngesting: seconds };
    };
    const smallSeconds = seen[small.id]!.doneAt ? (seen[small.id]!.doneAt! - small.endedAt) / 1000 : null;
    const bigSeconds = seen[bigJob.id]!.doneAt ? (seen[bigJob.id]!.doneAt! - bigJob.endedAt) / 1000 : null;
    return {
      bigJobAhead: {
        files: bigFiles.length,
        bytes: bigFiles.reduce((n, f) => n + fs.statSync(f.path).size, 0),
        status: seen[bigJob.id]!.status,
        secondsFromEndToComplete: bigSeconds,
      },
      bombZip: { bytes: fs.statSync(bomb).size, expandsTo: bombMiB * MiB, ...ran(bombJob) },
      manyEntriesZip: { bytes: fs.statSync(many).size, entries: 20_000, ...ran(manyJob) },
      smallJob: { status: seen[small.id]!.status, secondsFromEndToComplete: smallSeconds },
      targets: {
        bombStoppedWithin10s: (ran(bombJob).secondsIngesting ?? Infinity) <= 10,
        manyEntriesStoppedWithin10s: (ran(manyJob).secondsIngesting ?? Infinity) <= 10,
        smallJobWithin60s: smallSeconds !== null && smallSeconds <= 60,
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function costlyGraphql(server: ServerChild, adminJwt: string) {
  const seconds = Number(process.env.ATTACK_GRAPHQL_SECONDS ?? 30);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-attack-gql-'));
  try {
    // A tier-S-sized domain, so each search has a thousand nodes to answer with.
    generateSharpHound(dir, { users: Number(process.env.ATTACK_USERS ?? 2600), seed: 5 });
    const files = ['users', 'groups', 'computers'].map((n) => ({
      name: `${n}.json`,
      path: path.join(dir, `${n}.json`),
      type: 'application/json',
    }));
    const job = await uploadJob(server, adminJwt, files);
    await watchJobs(server, adminJwt, [job.id], 600_000);
    const reader = await userWith(server, adminJwt, 'Read-Only', 'bench-reader');
    const search = (i: number) => `a${i}: search(query: "a", mode: CONTAINS, limit: 1000) { totalCount nodes { name objectId } }`;
    const doc = (n: number) => JSON.stringify({ query: `{ ${Array.from({ length: n }, (_, i) => search(i)).join(' ')} }` });
    const post = async (body: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        body,
      });
      const text = await res.text();
      return { status: res.status, bytes: text.length, ms: performance.now() - t0 };
    };
    const original = await post(doc(25));
    const baselineProbe = healthProbe(server.url);
    await sleep(smoke() ? 1000 : 5000);
    const baseline = percentiles(await baselineProbe.stop());
    const probe = healthProbe(server.url);
    const until = Date.now() + seconds * 1000;
    const results: { status: number; bytes: number; ms: number }[] = [];
    const costly = doc(9);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (Date.now() < until) results.push(await post(costly));
      }),
    );
    const during = percentiles(await probe.stop());
    const byStatus: Record<string, number> = {};
    for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const ok = results.filter((r) => r.status === 200);
    return {
      originalAttack: { aliases: 25, limit: 1000, ...original },
      costlyDocument: { aliases: 9, limit: 1000, concurrent: 6, seconds },
      answers: byStatus,
      answerBytes: ok.length ? Math.max(...ok.map((r) => r.bytes)) : 0,
      documentMs: percentiles(results.map((r) => r.ms)),
      healthBaselineMs: baseline,
      healthDuringMs: during,
      healthFailures: probe.failures(),
      targets: { healthP99Under200ms: during.p99 <= 200, originalRefused: original.status === 400 },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
