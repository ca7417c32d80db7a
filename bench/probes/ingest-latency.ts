import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signRequest } from '../../src/auth/signature';
import { benchDatabase } from '../harness';
import { benchToken, startServerChild } from '../server-child';
import { summarise } from '../stats';

/**
 * What an analyst feels while a collection is ingested: starts `gas serve` (this checkout) on fresh tables, uploads
 * PROBE_FILES of PROBE_DIR through the signed file-upload API, and meanwhile asks a cheap signed route
 * (`GET /api/v2/self`) every PROBE_EVERY_MS (20) ms. Prints the route's latency while nothing runs, and while the
 * job is ingesting (status 6), with the ingest's duration. PROBE_ROUTE=version asks `GET /api/version` instead, a
 * route a kept token's request answers from memory (no read of its own). Run it from another checkout (copied there)
 * to compare. Answers that are not 2xx are counted, not thrown (a 503 while the database is busy, say).
 *
 *   BENCH_SERVER_DIST=1 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/tierM \
 *     node --import tsx bench/probes/ingest-latency.ts
 *   BENCH_SERVER_DIST=1 PROBE_EMBEDDED=1 PROBE_DIR=/tmp/tierM node --import tsx bench/probes/ingest-latency.ts
 */
const DIR = process.env.PROBE_DIR ?? '/tmp/tierM';
const FILES = (process.env.PROBE_FILES ?? 'groups,users,computers').split(',');
const EVERY_MS = Number(process.env.PROBE_EVERY_MS ?? 20);
const ROUTE = process.env.PROBE_ROUTE === 'version' ? '/api/version' : '/api/v2/self';
const KEY = Buffer.from('gas-ingest-latency-probe-key-32b').toString('base64');

type Sample = { at: number; ms: number; status: number };

async function main(): Promise<void> {
  // PROBE_EMBEDDED=1: the server on its embedded default (its own PostgreSQL cluster in a fresh DATA_DIR).
  const dataDir = process.env.PROBE_EMBEDDED === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'gas-latency-')) : undefined;
  const target = dataDir ? undefined : await benchDatabase('_latency');
  const storage: Record<string, string> = target ? { DATABASE_URL: target.url } : { DATA_DIR: dataDir! };
  const server = await startServerChild({ ...storage, RATE_LIMIT_RPS: '1000000', GAS_SECRET_KEY: KEY });
  try {
    const token = await benchToken(server.url, 'probe');
    const send = async (method: 'GET' | 'POST', target: string, body?: Buffer, headers: Record<string, string> = {}) => {
      const signed = signRequest({ tokenId: token.id, tokenKey: token.key, method, target, body });
      const res = await fetch(`${server.url}${target}`, { method, headers: { ...signed, ...headers }, body: body && new Uint8Array(body) });
      return { status: res.status, text: await res.text() };
    };
    const call = async (method: 'GET' | 'POST', target: string, body?: Buffer, headers: Record<string, string> = {}) => {
      const { status, text } = await send(method, target, body, headers);
      if (status >= 300) throw new Error(`${method} ${target}: ${status} ${text.slice(0, 300)}`);
      return text ? (JSON.parse(text) as { data: any }) : undefined;
    };
    const samples: Sample[] = [];
    let pinging = true;
    const pinger = (async () => {
      while (pinging) {
        const t0 = performance.now();
        const { status } = await send('GET', ROUTE);
        const ms = performance.now() - t0;
        samples.push({ at: t0, ms, status });
        await new Promise((r) => setTimeout(r, Math.max(0, EVERY_MS - ms)));
      }
    })();
    await new Promise((r) => setTimeout(r, 3000));
    const idleEnd = performance.now();
    const job = (await call('POST', '/api/v2/file-upload/start'))!.data.id as number;
    for (const f of FILES) {
      const body = fs.readFileSync(path.join(DIR, `${f}.json`));
      await call('POST', `/api/v2/file-upload/${job}`, body, {
        'content-type': 'application/json',
        'content-disposition': `attachment; filename="${f}.json"`,
      });
    }
    await call('POST', `/api/v2/file-upload/${job}/end`);
    const uploaded = performance.now();
    // The job's status as the list shows it, every 100 ms: when it leaves "ingesting" the window closes.
    let ingestStart: number | undefined;
    const pollsRefused: number[] = [];
    let ingestEnd: number | undefined;
    for (;;) {
      // A refused poll (a 503 while the database is busy) is counted and asked again: it tells nothing of the job.
      const polled = await send('GET', '/api/v2/file-upload?limit=100');
      const now = performance.now();
      if (polled.status !== 200) pollsRefused.push(polled.status);
      else {
        const list = (JSON.parse(polled.text) as { data: { id: number; status: number }[] }).data;
        const status = list.find((j) => j.id === job)?.status;
        if (status === 6) ingestStart ??= now;
        else if (ingestStart !== undefined || (status !== undefined && status !== 0 && status !== 1)) {
          ingestEnd = now;
          break;
        }
      }
      if (now - uploaded > 600_000) throw new Error('the job did not finish ingesting within 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    pinging = false;
    await pinger;
    const window = (from: number, to: number) => {
      const inside = samples.filter((s) => s.at >= from && s.at < to);
      const ms = inside.map((s) => s.ms);
      return { ...summarise(ms), max: Math.round(Math.max(...ms)), not_2xx: inside.filter((s) => s.status >= 300).map((s) => s.status) };
    };
    console.log(
      JSON.stringify(
        {
          route: ROUTE,
          files: FILES,
          ingest_ms: Math.round(ingestEnd - (ingestStart ?? uploaded)),
          idle: window(0, idleEnd),
          ingesting: window(ingestStart ?? uploaded, ingestEnd),
          status_polls_refused: pollsRefused,
          server_errors: server.errors,
        },
        null,
        1,
      ),
    );
  } finally {
    await server.stop();
    await target?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
