import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signRequest } from '../src/auth/signature';
import { generateAzureHound } from '../src/generate/azurehound';
import { generateSharpHound } from '../src/generate/sharphound';
import { isTier, TIERS } from '../src/generate/tiers';
import { benchDatabase, ratio } from './harness';
import { benchToken, startServerChild, type ServerChild } from './server-child';
import { smoke, summarise } from './stats';

const TESTLAB = path.resolve(__dirname, '..', 'test', 'fixtures', 'sharphound-v6-testlab');
const EVERY_MS = Number(process.env.BENCH_EVERY_MS ?? 50);
const TARGET = { p99Ms: 100, maxMs: 500 };
/** [route index, sent at (epoch ms), ms, status], as the reader child prints them. */
type Sample = [number, number, number, number];
type Token = { id: string; key: string };

async function signed(server: ServerChild, token: Token, method: 'GET' | 'POST', target: string, body?: Buffer, name?: string) {
  const headers: Record<string, string> = signRequest({ tokenId: token.id, tokenKey: token.key, method, target, body });
  if (name) Object.assign(headers, { 'content-type': 'application/json', 'content-disposition': `attachment; filename="${name}"` });
  const res = await fetch(`${server.url}${target}`, { method, headers, body: body && new Uint8Array(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${target}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as { data: any }) : undefined;
}

/** Uploads the files as one file-upload job; `onStatus` hears each status the job list shows, every 250 ms, to its end. */
async function uploadJob(server: ServerChild, token: Token, files: [string, Buffer][], onStatus: (s: number) => void = () => undefined) {
  const job = (await signed(server, token, 'POST', '/api/v2/file-upload/start'))!.data.id as number;
  for (const [name, body] of files) await signed(server, token, 'POST', `/api/v2/file-upload/${job}`, body, name);
  await signed(server, token, 'POST', `/api/v2/file-upload/${job}/end`);
  for (const until = Date.now() + 30 * 60_000; Date.now() < until;) {
    // A refused poll (a 503 while the database is busy) tells nothing of the job: asked again (the reader counts those).
    const list = ((await signed(server, token, 'GET', '/api/v2/file-upload?limit=100').catch(() => undefined))?.data ?? []) as {
      id: number;
      status: number;
    }[];
    const status = list.find((j) => j.id === job)?.status;
    if (status !== undefined) onStatus(status);
    if (status === 2) return;
    if (status === 3 || status === 4 || status === 5 || status === 8 || status === -1) throw new Error(`upload job ${job} ended ${status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`upload job ${job} did not complete within 30 minutes`);
}

/** The collection to ingest: BENCH_COLLECTION_DIR's *.json, else a generated tier (BENCH_TIER, M) or BENCH_USERS in a smoke run. */
function collection(tmp: string): { files: string[]; label: string } {
  const given = process.env.BENCH_COLLECTION_DIR;
  const dir = given ?? tmp;
  let label = given ?? '';
  if (!given) {
    const tierName = (process.env.BENCH_TIER ?? 'M').toUpperCase();
    const tier = isTier(tierName) ? TIERS[tierName] : TIERS.M;
    const users = smoke ? Number(process.env.BENCH_USERS ?? 200) : tier.users;
    generateSharpHound(dir, { users, seed: 1, acesPerObject: smoke ? undefined : tier.acesPerObject });
    generateAzureHound(dir, { users: smoke ? users : tier.azureUsers, seed: 1 });
    label = smoke ? `${users} users` : `tier ${tierName}`;
  }
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(dir, f));
  return { files, label };
}

/**
 * Reads while a collection ingests, on `gas serve` (its own process; the embedded cluster in a fresh DATA_DIR, or
 * BENCH_DATABASE_URL): the TESTLAB collection first, then a reader process asks a signed `GET /api/v2/self` and a
 * signed entity look-up (a TESTLAB user) every BENCH_EVERY_MS (50) ms each, while idle (the baseline, same run) and
 * then through the whole upload job of a tier-M collection (upload, ingest, analysis, until the job is complete).
 * Targets through the job: p99 ≤ 100 ms, max ≤ 500 ms, no answer other than 2xx.
 */
export async function ingestLatencyBench(): Promise<Record<string, unknown>> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-ingest-latency-'));
  const store = process.env.BENCH_DATABASE_URL ? await benchDatabase('_latency') : undefined;
  let server: ServerChild | undefined;
  try {
    const { files, label } = collection(tmp);
    server = await startServerChild({ ...(store ? { DATABASE_URL: store.url } : {}), RATE_LIMIT_RPS: '1000000' });
    const token = await benchToken(server.url, 'ingest-latency');
    const read = (dir: string, names: string[]) =>
      names.map((f): [string, Buffer] => [path.basename(f), fs.readFileSync(path.join(dir, f))]);
    await uploadJob(
      server,
      token,
      read(
        TESTLAB,
        fs.readdirSync(TESTLAB).filter((f) => f.endsWith('.json') && f !== 'deleted.json'),
      ),
    );
    const user = (JSON.parse(fs.readFileSync(path.join(TESTLAB, 'users.json'), 'utf8')) as { data: { ObjectIdentifier: string }[] })
      .data[0]!.ObjectIdentifier;
    const routes = ['/api/v2/self', `/api/v2/users/${user}`];
    const bodies = read('/', files);

    const reader = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'ingest-latency-child.ts'), server.url, token.id, token.key, String(EVERY_MS), ...routes],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    reader.stdout!.on('data', (d) => (out += d));
    const readerDone = new Promise<void>((resolve, reject) =>
      reader.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the reader exited ${code}`)))),
    );
    // The idle window opens once the reader asks (its own start under tsx takes seconds on a loaded machine).
    for (const until = Date.now() + 60_000; !out.startsWith('ready\n');) {
      if (Date.now() > until || reader.exitCode !== null) throw new Error('the reader did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const idleFrom = Date.now() + 200;
    await new Promise((r) => setTimeout(r, smoke ? 3000 : 6000));
    const marks: Record<string, number> = { idle: idleFrom, upload: Date.now() };
    await uploadJob(server, token, bodies, (s) => {
      if (s === 6) marks.ingesting ??= Date.now();
      if (s === 7) marks.analyzing ??= Date.now();
    });
    marks.complete = Date.now();
    await new Promise((r) => setTimeout(r, 500));
    reader.stdin!.end();
    await readerDone;
    const { samples, skipped } = JSON.parse(out.slice('ready\n'.length)) as { samples: Sample[]; skipped: number };

    const window = (from: number, to: number) => {
      const byRoute = routes.map((route, r) => {
        const inside = samples.filter((s) => s[0] === r && s[1] >= from && s[1] < to);
        const ms = inside.map((s) => s[2]);
        return [
          route,
          { ...summarise(ms), max: Math.round(Math.max(0, ...ms)), not_2xx: inside.filter((s) => s[3] < 200 || s[3] >= 300).length },
        ];
      });
      return Object.fromEntries(byRoute) as Record<string, ReturnType<typeof summarise> & { max: number; not_2xx: number }>;
    };
    const idle = window(marks.idle!, marks.upload!);
    const job = window(marks.upload!, marks.complete);
    const met = routes.every((r) => job[r]!.p99 <= TARGET.p99Ms && job[r]!.max <= TARGET.maxMs && job[r]!.not_2xx === 0);
    return {
      storage: store ? 'postgres' : 'embedded',
      collection: label,
      files_mb: Math.round(bodies.reduce((a, [, b]) => a + b.length, 0) / 1e6),
      every_ms: EVERY_MS,
      job_ms: {
        upload: (marks.ingesting ?? marks.complete) - marks.upload!,
        ingest: marks.ingesting ? (marks.analyzing ?? marks.complete) - marks.ingesting : undefined,
        analysis: marks.analyzing ? marks.complete - marks.analyzing : undefined,
        whole: marks.complete - marks.upload!,
      },
      baseline_idle: idle,
      through_the_job: job,
      ingesting_only: marks.ingesting ? window(marks.ingesting, marks.analyzing ?? marks.complete) : undefined,
      analyzing_only: marks.analyzing ? window(marks.analyzing, marks.complete) : undefined,
      // Path-index rebuilds on the serving thread while the job ran (each a stretch the reader may wait through).
      index_builds: (() => {
        const ms = server.indexBuilds.filter((b) => b.at >= marks.upload! && b.at <= marks.complete).map((b) => b.ms);
        return { n: ms.length, total_ms: ms.reduce((a, b) => a + b, 0), max_ms: Math.max(0, ...ms) };
      })(),
      ratio_p99_to_idle: Object.fromEntries(routes.map((r) => [r, ratio(job[r]!.p99, idle[r]!.p99)])),
      target: { ...TARGET, not_2xx: 0, met },
      reader_skipped_beats: skipped,
      server_errors: server.errors,
    };
  } finally {
    await server?.stop();
    await store?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
