import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { benchDatabase } from '../harness';
import { tierFiles } from './tier-files';

/**
 * Diagnosis, not a benchmark: when an ingest's PostgreSQL backend waits on its socket (for us), what was on the
 * connection. Ingests the files of PROBE_DIR (tier M, the generator's order) over one connection into fresh tables
 * of BENCH_DATABASE_URL (a local server), samples the backend's state every millisecond from a worker thread (as
 * `ingest-waits.ts` does) and charges each sample in `do_epoll_wait` to
 *  - the statement in flight then (handed to pg, its answer not yet handled here): the backend is reading it, or has
 *    answered and waits for the next one while this thread is busy;
 *  - else "none after X": nothing was in flight, X the statement answered last (this thread was preparing the next).
 * Also prints the time from each direct edge COPY's answer to the next statement (what a batch boundary costs).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/tierM \
 *     node --import tsx bench/probes/ingest-socket-waits.ts
 */

const SAMPLER = `
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const { parentPort, workerData } = require('node:worker_threads');
const waits = [];
let samples = 0;
let stop = false;
parentPort.on('message', () => (stop = true));
const tick = () => {
  if (stop) return parentPort.postMessage({ waits, samples });
  try {
    samples++;
    const state = fs.readFileSync('/proc/' + workerData + '/stat', 'utf8').split(') ')[1].split(' ')[0];
    if (state !== 'R' && fs.readFileSync('/proc/' + workerData + '/wchan', 'utf8') === 'do_epoll_wait') {
      waits.push(performance.timeOrigin + performance.now());
    }
  } catch {}
  setTimeout(tick, 1);
};
tick();
`;

const now = () => performance.timeOrigin + performance.now();
interface Span {
  label: string;
  start: number;
  end: number;
}
const spans: Span[] = [];

/** Every statement handed to pg, by its `-- label` or first words, from then until its answer is handled. */
function recordStatements(): void {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args) {
    const config = args[0] as { text?: string; done?: Promise<unknown> } | string;
    const text = typeof config === 'string' ? config : (config.text ?? '');
    const span: Span = {
      label: (/^\s*--\s*([\w.]+)/.exec(text)?.[1] ?? text.slice(0, 30)).replace(/\s+/g, ' '),
      start: now(),
      end: Infinity,
    };
    spans.push(span);
    const done = () => void (span.end = now());
    const r = query.apply(this, args) as { then?: unknown } | undefined;
    // A promise (a plain statement), or a submittable: our COPY exposes `done`, pg-copy-streams is a stream.
    if (r && typeof r.then === 'function') (r as Promise<unknown>).then(done, done);
    else if (typeof config !== 'string' && config.done) config.done.then(done, done);
    else if (r && typeof (r as NodeJS.EventEmitter).on === 'function')
      for (const e of ['finish', 'end', 'error']) (r as NodeJS.EventEmitter).on(e, done);
    return r;
  };
}

async function main(): Promise<void> {
  if (!process.env.BENCH_DATABASE_URL) throw new Error('BENCH_DATABASE_URL: a local PostgreSQL server');
  recordStatements();
  const target = await benchDatabase('_socket_waits');
  const db = new Database(target.url, { log: createLogger('silent'), max: 1 });
  try {
    const pid = (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
    spans.length = 0;
    const sampler = new Worker(SAMPLER, { eval: true, workerData: pid });
    const sampled = new Promise<{ waits: number[]; samples: number }>((resolve) => sampler.once('message', resolve));
    const store = new PgGraphStore(db);
    const t0 = now();
    for (const [, file] of tierFiles(process.env.PROBE_DIR ?? '/tmp/tierM')) {
      const r = await ingestPath(store, file);
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
    }
    const ms = now() - t0;
    sampler.postMessage('stop');
    const { waits, samples } = await sampled;
    await sampler.terminate();

    spans.sort((a, b) => a.start - b.start);
    const ended = [...spans].sort((a, b) => a.end - b.end);
    const answeredLast = (t: number): string => {
      let lo = 0;
      let hi = ended.length - 1;
      let best = '(start)';
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (ended[mid]!.end <= t) {
          best = ended[mid]!.label;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return best;
    };
    const charged = new Map<string, number>();
    let first = 0;
    for (const w of waits.sort((a, b) => a - b)) {
      while (first < spans.length && spans[first]!.end <= w) first++;
      let label = `none after ${answeredLast(w)}`;
      for (let j = first; j < spans.length && spans[j]!.start <= w; j++) {
        if (spans[j]!.end > w) {
          label = spans[j]!.label;
          break;
        }
      }
      charged.set(label, (charged.get(label) ?? 0) + 1);
    }
    const afterCopy = spans
      .map((s, i) => (s.label.startsWith('savepoint') && spans[i + 1] ? spans[i + 1]!.start - s.end : undefined))
      .filter((g): g is number => g !== undefined)
      .sort((a, b) => a - b);
    const pct = (n: number) => Number(((100 * n) / samples).toFixed(1));
    console.log(
      JSON.stringify(
        {
          ms: Math.round(ms),
          samples,
          socket_wait_pct: pct(waits.length),
          by_statement_pct: Object.fromEntries([...charged].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, pct(v)])),
          after_direct_copy_ms: afterCopy.length && {
            n: afterCopy.length,
            sum: Math.round(afterCopy.reduce((a, b) => a + b, 0)),
            p50: Number(afterCopy[afterCopy.length >> 1]!.toFixed(2)),
            max: Number(afterCopy.at(-1)!.toFixed(2)),
          },
        },
        null,
        1,
      ),
    );
  } finally {
    await db.close();
    await target.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
