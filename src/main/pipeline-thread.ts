import type { Worker } from 'node:worker_threads';
import type { AnalysisProgress } from '../analysis/run.js';
import type { DatabaseSettings } from '../db/pool.js';
import { AppError, type ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { PipelineThreadStopped, type PipelineThread } from '../services/datapipe/upload-ingest.js';
import type { FromPipeline, PipelineWorkerData, ToPipeline, WorkerFailure } from './pipeline-protocol.js';
import { spawnWorker } from './spawn-worker.js';

/** An idle worker is ended after this long (the next task starts a new one). */
const IDLE_MS = 60_000;
/** A worker asked to close is terminated after this long at most. */
const CLOSE_MS = 5_000;

interface Task {
  resolve(result: unknown): void;
  reject(err: unknown): void;
  onProgress?: (p: AnalysisProgress) => void;
}

function rebuild(f: WorkerFailure): Error {
  if (f.kind === 'app') return new AppError(f.code as ErrorCode, f.context, f.message);
  const err = new Error(f.message);
  err.name = f.name;
  if (f.stack) err.stack = f.stack;
  return err;
}

/**
 * The data pipeline's worker thread, started on first use and ended when idle: the serving thread sends it a file's
 * path or an analysis request and awaits the answer. A worker that dies fails the task it was running with
 * PipelineThreadStopped (its open transaction rolled back with its connection); the next task starts a new one.
 */
export function createPipelineThread(opts: { db: DatabaseSettings; log: Logger; poolSize?: number }): PipelineThread {
  const data: PipelineWorkerData = { db: opts.db, logLevel: opts.log.level, poolSize: opts.poolSize ?? 3 };
  let worker: Worker | undefined;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;
  const tasks = new Map<number, Task>();

  const stopped = (w: Worker, reason: string) => {
    if (worker !== w) return;
    worker = undefined;
    clearTimeout(idle);
    if (tasks.size) opts.log.error({ reason }, 'the pipeline worker stopped while it ran a task');
    for (const t of tasks.values()) t.reject(new PipelineThreadStopped(reason));
    tasks.clear();
  };

  const close = (w: Worker): Promise<void> => {
    stopped(w, 'closed');
    const timer = setTimeout(() => void w.terminate(), CLOSE_MS);
    timer.unref();
    return new Promise<void>((resolve) => {
      w.once('exit', () => (clearTimeout(timer), resolve()));
      w.postMessage({ op: 'close' } satisfies ToPipeline);
    });
  };

  function current(): Worker {
    clearTimeout(idle);
    if (worker) return (worker.ref(), worker);
    const w = spawnWorker('pipeline-worker', data);
    w.on('message', (m: FromPipeline) => {
      const task = tasks.get(m.id);
      if (!task) return;
      if (m.op === 'progress') return task.onProgress?.(m.progress);
      tasks.delete(m.id);
      if (m.op === 'failed') task.reject(rebuild(m.failure));
      else task.resolve(m.result);
      if (!tasks.size) {
        // Kept a while for the next file of a job; it does not keep the process alive meanwhile.
        w.unref();
        idle = setTimeout(() => void close(w), IDLE_MS);
        idle.unref();
      }
    });
    w.on('error', (err: Error & { code?: string }) =>
      stopped(w, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'it ran out of memory' : `it failed: ${err.message}`),
    );
    w.on('exit', (code) => stopped(w, `it exited with code ${code}`));
    worker = w;
    return w;
  }

  function call<T>(m: ToPipeline & { id: number }, signal?: AbortSignal, onProgress?: Task['onProgress']): Promise<T> {
    const w = current();
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => w.postMessage({ op: 'abort', id: m.id } satisfies ToPipeline);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      tasks.set(m.id, {
        resolve: (r) => (done(), resolve(r as T)),
        reject: (e) => (done(), reject(e)),
        onProgress,
      });
      w.postMessage(m);
      if (signal?.aborted) onAbort();
    });
  }

  return {
    ingestUpload: (req, signal) => call({ op: 'ingest', id: ++nextId, req }, signal),
    analyze: (req, onProgress) => call({ op: 'analyze', id: ++nextId, req }, undefined, onProgress),
    matchRules: (rules) => call({ op: 'matchRules', id: ++nextId, rules }),
    busy: () => tasks.size > 0,
    async kill() {
      if (worker) await worker.terminate();
    },
    async close() {
      if (worker) await close(worker);
    },
  };
}
