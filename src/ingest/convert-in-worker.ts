import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PreparedBatch } from '../graph/prepared.js';
import type { GraphWriter } from '../graph/store.js';
import { Inbox, type FromWorker, type ToWorker } from './convert-protocol.js';
import { IngestError, type FileResult, type IngestLimits } from './ingest-types.js';

/** Bytes sent to the worker and not yet parsed, at most: reading waits beyond (memory stays flat). */
const MAX_AHEAD = 4 * 1024 * 1024;
/** A worker told to stop a file is terminated after this long at most. */
const ABORT_MS = 2000;
/** An idle worker is ended after this long (the next ingest starts a new one in ~50 ms). */
const IDLE_MS = 30_000;
/**
 * The worker's young generation, in MiB (V8's default: 48). Parsing and converting make short-lived objects at a
 * high rate; with twice the room fewer scavenges run and fewer objects survive into the old generation: tier M
 * client CPU 32.3 -> 30.3 s (lower in 4 of 4 alternating pairs), ~+30 MB peak RSS. Set for this thread alone: the
 * process-wide flag made request p99 a few ms worse (docs/decisions.md, "Ingest: the writer").
 */
const YOUNG_MB = 96;

/**
 * Conversion workers kept between files: a tier M collection is a dozen files, and starting a worker for each
 * would cost more than it saves on small ones. Idle workers do not keep the process alive.
 */
class ConvertWorkers {
  private idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  /** Each worker's heap cap (a file asks for its limits' cap). */
  private readonly heapOf = new WeakMap<Worker, number>();

  /** Workers kept for the next file. */
  get idleCount(): number {
    return this.idle.length;
  }

  /** A worker whose heap is capped at `heapMb` MiB (a kept one when its cap is the same). */
  acquire(heapMb: number): Worker {
    const kept = this.idle.find((k) => this.heapOf.get(k.worker) === heapMb);
    if (kept) {
      this.idle = this.idle.filter((k) => k !== kept);
      clearTimeout(kept.timer);
      kept.worker.ref();
      return kept.worker;
    }
    const worker = spawn(heapMb);
    this.heapOf.set(worker, heapMb);
    // A worker must never emit 'error' with nobody listening (that would end the process): idle ones are dropped.
    worker.on('error', () => this.drop(worker));
    worker.on('exit', () => this.drop(worker));
    return worker;
  }

  release(worker: Worker): void {
    if (this.idle.length) return void worker.terminate();
    worker.unref();
    const timer = setTimeout(() => this.drop(worker, true), IDLE_MS);
    timer.unref();
    this.idle.push({ worker, timer });
  }

  private drop(worker: Worker, terminate = false): void {
    const kept = this.idle.find((k) => k.worker === worker);
    if (kept) clearTimeout(kept.timer);
    this.idle = this.idle.filter((k) => k.worker !== worker);
    if (terminate) void worker.terminate();
  }
}

/**
 * The worker's entry beside this file: compiled JavaScript, or TypeScript loaded through tsx (tests, benches). Its
 * heap is capped: past the cap V8 ends the worker (ERR_WORKER_OUT_OF_MEMORY), which fails its file, not the process.
 */
function spawn(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_MB };
  const entry = path.join(__dirname, `convert-worker${path.extname(__filename)}`);
  if (!entry.endsWith('.ts')) return new Worker(entry, { resourceLimits });
  const tsx = require.resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, { eval: true, resourceLimits });
}

const workers = new ConvertWorkers();

/** Conversion workers waiting for a file (observability: a finished worker-read file leaves one). */
export const idleConversionWorkers = () => workers.idleCount;

export interface WorkerReadOptions {
  now: string;
  limits: IngestLimits;
  metaHint?: Record<string, unknown>;
  onProgress?: (objects: number, edges: number) => void;
}

/**
 * Reads a collector file in a conversion worker while this thread writes the batches it prepares, in the
 * writer's transaction. Throws an IngestError when the worker refuses the file, or what reading the input threw.
 */
export async function readInWorker(
  w: GraphWriter & { writePrepared: (batch: PreparedBatch) => Promise<void> },
  file: string,
  input: AsyncIterable<Buffer>,
  opts: WorkerReadOptions,
): Promise<FileResult> {
  const worker = workers.acquire(opts.limits.conversionHeapMb);
  const inbox = new Inbox<FromWorker>();
  const onMessage = (m: FromWorker) => inbox.push(m);
  const onError = (err: Error & { code?: string }) =>
    inbox.fail(
      new IngestError(
        file,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `converting it needs more than the ${opts.limits.conversionHeapMb} MiB of memory a file may use (objects with very many properties or edges); nothing of it was written`
          : `conversion failed: ${err.message}`,
      ),
    );
  const onExit = (code: number) => inbox.fail(new IngestError(file, `conversion stopped (exit code ${code})`));
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  const post = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer);
  let ahead = 0;
  let space: (() => void) | undefined;
  let stopped = false;
  let done = false;
  let reported: number | undefined;
  let edges = 0;
  const feed = async () => {
    for await (const chunk of input) {
      if (stopped) return;
      // A copy the worker owns: a stream's chunk may share its memory with other chunks.
      const own = new Uint8Array(chunk);
      ahead += own.byteLength;
      post({ op: 'chunk', chunk: own }, [own.buffer as ArrayBuffer]);
      while (ahead > MAX_AHEAD && !stopped) await new Promise<void>((resolve) => (space = resolve));
    }
    if (!stopped) post({ op: 'end' });
  };
  try {
    post({ op: 'start', file, now: opts.now, limits: opts.limits, metaHint: opts.metaHint });
    feed().catch((err: unknown) => inbox.fail(err));
    for (;;) {
      const m = await inbox.next();
      if (m.op === 'consumed') {
        ahead -= m.bytes;
        if (ahead <= MAX_AHEAD) space?.();
      } else if (m.op === 'batch') {
        await w.writePrepared(m.batch);
        if (m.deletes.length) await w.deleteNodes(m.deletes);
        post({ op: 'credit' });
        for (const slice of m.batch.edges) edges += slice.start.length;
        opts.onProgress?.((reported = m.objects), edges);
      } else if (m.op === 'failed') throw new IngestError(file, m.reason);
      else {
        done = true;
        if (m.result.objects !== reported || m.result.edges !== edges) opts.onProgress?.(m.result.objects, m.result.edges);
        return m.result;
      }
    }
  } finally {
    stopped = true;
    space?.();
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    if (done) workers.release(worker);
    else abandon(worker);
  }
}

/**
 * Ends a worker that did not finish its file (it may hold the rest of it): it is told to stop, so that it removes
 * what it spooled, and is terminated once it has answered, or after ABORT_MS. Nothing waits for it.
 */
function abandon(worker: Worker): void {
  const end = () => {
    clearTimeout(timer);
    void worker.terminate();
  };
  const timer = setTimeout(end, ABORT_MS);
  timer.unref();
  worker.unref();
  worker.on('message', (m: FromWorker) => (m.op === 'failed' || m.op === 'done') && end());
  worker.postMessage({ op: 'abort' } satisfies ToWorker);
}
