import type { PreparedBatch } from '../graph/prepared.js';
import type { FileResult, IngestLimits } from './ingest-types.js';

/** Messages from the writer's thread to a conversion worker, one file at a time. */
export type ToWorker =
  | { op: 'start'; file: string; now: string; limits: IngestLimits; metaHint?: Record<string, unknown> }
  /** The file's next bytes (the buffer is transferred, not copied). */
  | { op: 'chunk'; chunk: Uint8Array }
  | { op: 'end' }
  /** A batch the worker sent has gone to the writer: the worker may send another. */
  | { op: 'credit' }
  /** The writer gave up on the file: the worker stops reading it (and answers "failed"). */
  | { op: 'abort' };

/** Messages from a conversion worker. */
export type FromWorker =
  /** Bytes of input the worker has parsed: the writer's thread sends more. */
  | { op: 'consumed'; bytes: number }
  | { op: 'batch'; batch: PreparedBatch; deletes: string[]; objects: number }
  | { op: 'done'; result: FileResult }
  /** The file is refused (an IngestError's reason); nothing of it may be committed. */
  | { op: 'failed'; reason: string };

/** A queue of messages read in order by one awaiting consumer; a failure is thrown to it once what came before is read. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private waiting: { resolve: (v: T) => void; reject: (e: unknown) => void } | undefined;
  private error: { err: unknown } | undefined;

  push(item: T): void {
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w.resolve(item);
    } else this.items.push(item);
  }

  /** Delivers an item ahead of those waiting (a stop request). */
  interrupt(item: T): void {
    if (this.waiting) this.push(item);
    else this.items.unshift(item);
  }

  fail(err: unknown): void {
    this.error ??= { err };
    const w = this.waiting;
    if (w && !this.items.length) {
      this.waiting = undefined;
      w.reject(err);
    }
  }

  next(): Promise<T> {
    if (this.items.length) return Promise.resolve(this.items.shift()!);
    if (this.error) return Promise.reject(this.error.err);
    return new Promise<T>((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}
