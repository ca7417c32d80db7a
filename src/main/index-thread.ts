import type { Worker } from 'node:worker_threads';
import type { DatabaseSettings } from '../db/pool.js';
import { GraphIndex } from '../graph/index/graph-index.js';
import type { Logger } from '../logger.js';
import type { FromIndex, IndexWorkerData, ToIndex } from './index-protocol.js';
import { spawnWorker } from './spawn-worker.js';

/** An idle worker is ended after this long (the next build starts a new one). */
const IDLE_MS = 60_000;
/** A worker asked to close is terminated after this long at most. */
const CLOSE_MS = 5_000;

/** Builds of the path index on a worker thread (GraphIndexHolder's `build`). */
export interface IndexThread {
  /** Builds an index from the store as it is now; `signal` ends the build by ending its worker. */
  build(signal: AbortSignal): Promise<GraphIndex>;
  /** Whether a build is running. */
  busy(): boolean;
  /** Ends the worker at once (its build fails): for tests of a worker that dies. */
  kill(): Promise<void>;
  /** Ends the worker; a build under way fails. */
  close(): Promise<void>;
}

/**
 * The path index's worker thread, started on first build and ended when idle. A worker that dies (or is ended by
 * an abort) fails the build it was running, and the next build starts a new one; the holder keeps the index it has.
 */
export function createIndexThread(opts: { db: DatabaseSettings; log: Logger }): IndexThread {
  const data: IndexWorkerData = { db: opts.db, logLevel: opts.log.level };
  let worker: Worker | undefined;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;
  let task: { id: number; resolve(index: GraphIndex): void; reject(err: Error): void } | undefined;

  const stopped = (w: Worker, err: Error) => {
    if (worker !== w) return;
    worker = undefined;
    clearTimeout(idle);
    task?.reject(err);
    task = undefined;
  };

  function current(): Worker {
    clearTimeout(idle);
    if (worker) return (worker.ref(), worker);
    const w = spawnWorker('index-worker', data);
    w.on('message', (m: FromIndex) => {
      if (!task || m.id !== task.id) return;
      const t = task;
      task = undefined;
      if (m.op === 'built') t.resolve(GraphIndex.fromParts(m.parts));
      // The log's error serializer appends the cause's message: the outer one says only where it failed.
      else t.reject(Object.assign(new Error("the index worker's build failed"), { cause: m.failure }));
      // Kept a while for the next build of a job; it does not keep the process alive meanwhile.
      w.unref();
      idle = setTimeout(() => void close(w), IDLE_MS);
      idle.unref();
    });
    w.on('error', (err: Error & { code?: string }) =>
      stopped(w, new Error(`the index worker ${err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'ran out of memory' : `failed: ${err.message}`}`)),
    );
    w.on('exit', (code) => stopped(w, new Error(`the index worker exited with code ${code} before it finished the build`)));
    worker = w;
    return w;
  }

  const close = (w: Worker): Promise<void> => {
    stopped(w, new Error('the index worker was closed before it finished the build'));
    const timer = setTimeout(() => void w.terminate(), CLOSE_MS);
    timer.unref();
    return new Promise<void>((resolve) => {
      w.once('exit', () => (clearTimeout(timer), resolve()));
      w.postMessage({ op: 'close' } satisfies ToIndex);
    });
  };

  return {
    build(signal) {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      if (task) return Promise.reject(new Error('an index build is already running on the worker'));
      const w = current();
      const id = ++nextId;
      return new Promise<GraphIndex>((resolve, reject) => {
        // Ending the worker is the abort: a scan in the middle of a COPY has no batch boundary to stop at sooner.
        // The build fails once the worker has gone, so a stopping server closes the storage after its connections.
        const onAbort = () => {
          const t = task;
          task = undefined;
          if (worker === w) worker = undefined;
          clearTimeout(idle);
          void w.terminate().finally(() => t?.reject(signal.reason as Error));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = () => signal.removeEventListener('abort', onAbort);
        task = { id, resolve: (i) => (done(), resolve(i)), reject: (e) => (done(), reject(e)) };
        w.postMessage({ op: 'build', id } satisfies ToIndex);
      });
    },
    busy: () => task !== undefined,
    async kill() {
      if (worker) await worker.terminate();
    },
    async close() {
      if (worker) await close(worker);
    },
  };
}
