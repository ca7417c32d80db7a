import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { benchDatabase } from '../harness';
import { backendCpuMs, ownCpuMs } from '../stats';
import { tierFiles } from './tier-files';

/**
 * Diagnosis, not a benchmark: what an ingest's PostgreSQL backend waits for. Ingests the files of PROBE_DIR (tier M
 * from `gas generate --tier M --out DIR`, in the generator's order) over one connection into fresh tables of
 * BENCH_DATABASE_URL (a local server: the backend is read from /proc) and prints
 *  - per file: wall time, this process's CPU, the backend's CPU, and the difference (the backend not on CPU);
 *  - how busy this process's main thread was (event loop utilisation; parsing runs in a conversion worker);
 *  - the backend's run-queue wait (/proc/<pid>/schedstat: runnable but not running, the two sides sharing cores);
 *  - the backend's state sampled every millisecond by a worker thread (so the samples do not wait for this
 *    process's busy event loop): running or runnable, sleeping and where (`epoll_wait`: waiting on its socket, for
 *    us), in disk waits.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/tierM \
 *     node --import tsx bench/probes/ingest-waits.ts
 */

const SAMPLER = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const counts = {};
let stop = false;
parentPort.on('message', () => (stop = true));
const tick = () => {
  if (stop) return parentPort.postMessage(counts);
  try {
    const state = fs.readFileSync('/proc/' + workerData + '/stat', 'utf8').split(') ')[1].split(' ')[0];
    const where = state === 'R' ? '' : fs.readFileSync('/proc/' + workerData + '/wchan', 'utf8');
    const key = where ? state + ' ' + where : state;
    counts[key] = (counts[key] || 0) + 1;
  } catch {}
  setTimeout(tick, 1);
};
tick();
`;

/** Time on CPU and time runnable but waiting for one (nanoseconds), from /proc/<pid>/schedstat. */
function schedstat(pid: number): [number, number] {
  const [run, wait] = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return [run!, wait!];
}

async function main(): Promise<void> {
  const dir = process.env.PROBE_DIR ?? '/tmp/tierM';
  if (!process.env.BENCH_DATABASE_URL) throw new Error('BENCH_DATABASE_URL: a local PostgreSQL server');
  const target = await benchDatabase('_waits');
  const db = new Database(target.url, { log: createLogger('silent'), max: 1 });
  try {
    const pid = (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
    const sampler = new Worker(SAMPLER, { eval: true, workerData: pid });
    const sampled = new Promise<Record<string, number>>((resolve) => sampler.once('message', resolve));
    const store = new PgGraphStore(db);
    const sched0 = schedstat(pid);
    const files: Record<string, unknown>[] = [];
    // How busy this thread's event loop was: with conversion in a worker it only writes.
    const loop0 = performance.eventLoopUtilization();
    for (const [name, file] of tierFiles(dir)) {
      const [t0, c0, s0] = [Date.now(), ownCpuMs(), backendCpuMs(pid)!];
      const r = await ingestPath(store, file);
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
      const [ms, cpu, server] = [Date.now() - t0, Math.round(ownCpuMs() - c0), backendCpuMs(pid)! - s0];
      files.push({ file: name, ms, client_cpu_ms: cpu, backend_cpu_ms: server, backend_not_on_cpu_ms: ms - server });
    }
    const sched1 = schedstat(pid);
    sampler.postMessage('stop');
    const states = await sampled;
    await sampler.terminate();
    const samples = Object.values(states).reduce((a, b) => a + b, 0);
    const total = (k: string) => files.reduce((a, f) => a + (f[k] as number), 0);
    console.log(
      JSON.stringify(
        {
          ms: total('ms'),
          main_thread_busy_pct: Math.round(performance.eventLoopUtilization(loop0).utilization * 1000) / 10,
          client_cpu_ms: total('client_cpu_ms'),
          backend_cpu_ms: total('backend_cpu_ms'),
          backend_not_on_cpu_ms: total('backend_not_on_cpu_ms'),
          backend_runqueue_wait_ms: Math.round((sched1[1] - sched0[1]) / 1e6),
          backend_states_pct: Object.fromEntries(
            Object.entries(states)
              .sort((a, b) => b[1] - a[1])
              .map(([k, v]) => [k, Number(((100 * v) / samples).toFixed(1))]),
          ),
          samples,
          files,
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
