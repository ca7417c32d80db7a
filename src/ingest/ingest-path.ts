import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { GraphStore } from '../graph/store.js';
import {
  DEFAULT_LIMITS,
  IngestError,
  ingestStream,
  type FileResult,
  type IngestLimits,
  type IngestOptions,
  type IngestProgress,
} from './ingest-stream.js';
import { inCollectionOrder, typeFromName } from './collection-order.js';
import { Meter } from './ingest-meter.js';
import { tailMeta } from './tail-meta.js';

export interface PathResult {
  files: FileResult[];
  errors: IngestError[];
}

export type PathOptions = IngestOptions & {
  displayName?: string;
  /** Called as the file is read and written (a progress bar): bytes of the file read, objects and edges written. */
  progress?: (p: IngestProgress) => void;
  /** Aborting it stops the ingest at once: the file (or zip entry) being read is rolled back, later ones not read. */
  signal?: AbortSignal;
};

/** Archives expand this much before their expansion ratio is checked: small files may compress any way they like. */
export const RATIO_FREE_BYTES = 1024 * 1024;

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const GZIP = Buffer.from([0x1f, 0x8b]);
/** Bytes per read of a plain file. */
const READ_BYTES = 1024 * 1024;

/**
 * Ingests a file from disk: SharpHound/AzureHound/OpenGraph JSON, a zip archive of them, or either
 * gzip-compressed. Each JSON file is its own transaction; a bad file is reported and the others still land.
 * Archives are checked while they expand, whatever their headers claim: at most `maxArchiveEntries` entries (from
 * the directory, before anything expands), `maxDecompressedBytes` in all, and `maxExpansionRatio` times their
 * compressed size (each zip entry, and the whole archive or gzip stream): a bomb stops as it starts expanding.
 */
export async function ingestPath(store: GraphStore, file: string, opts: PathOptions = {}): Promise<PathResult> {
  const name = opts.displayName ?? path.basename(file);
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  let read: number;
  try {
    read = fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  const out: PathResult = { files: [], errors: [] };
  const canceled = () => new IngestError(name, 'the ingest was canceled');
  const meter = opts.progress && new Meter(name, fs.statSync(file).size, opts.progress);
  const one = async (label: string, stream: Readable, metaHint?: Record<string, unknown>) => {
    if (opts.signal?.aborted) throw canceled();
    // A cancel ends the stream being read: its transaction rolls back like any failed file's.
    const stop = () => stream.destroy(new Error('the ingest was canceled'));
    opts.signal?.addEventListener('abort', stop, { once: true });
    const streamOpts = meter ? { ...opts, onProgress: meter.entry(label, opts.onProgress) } : opts;
    try {
      out.files.push(await ingestStream(store, label, stream, metaHint ? { ...streamOpts, metaHint } : streamOpts));
    } catch (err) {
      if (opts.signal?.aborted) throw canceled();
      if (err instanceof IngestError) out.errors.push(err);
      else throw err;
    } finally {
      opts.signal?.removeEventListener('abort', stop);
      meter?.entryDone();
    }
  };
  /** The file's bytes as read from disk, counted when progress is asked for (the plain path is left as it is). */
  const fromDisk = (s: Readable): Readable => (meter ? pipeline(s, meter.tap(), () => undefined) : s);
  if (read >= 4 && head.equals(ZIP)) {
    const budget = new Expansion(name, limits, fs.statSync(file).size);
    let entries = 0;
    try {
      for await (const entry of zipEntries(file, name, budget, limits.maxArchiveEntries)) {
        entries++;
        meter?.compressed(entry.compressedSize, entry.uncompressedSize);
        await one(`${name}:${entry.name}`, meter ? pipeline(entry.stream, meter.tap(), () => undefined) : entry.stream);
        // A limit of the archive failed this entry: the archive stops here, reported by the limit it passed.
        if (budget.exceeded) {
          out.errors.splice(-1, 1, budget.exceeded);
          meter?.finish();
          return out;
        }
      }
    } catch (err) {
      if (!(err instanceof IngestError)) throw err;
      out.errors.push(err);
      meter?.finish();
      return out;
    }
    if (!entries) out.errors.push(new IngestError(name, 'archive holds no JSON files'));
  } else if (read >= 2 && head.subarray(0, 2).equals(GZIP)) {
    const budget = new Expansion(name, limits, fs.statSync(file).size);
    // pipeline (not pipe) so an error of any stage reaches the stream ingest reads, never an unhandled 'error'.
    const gunzipped = pipeline(fromDisk(fs.createReadStream(file)), zlib.createGunzip(), budget.meter(), () => undefined);
    await one(name, gunzipped);
    if (budget.exceeded) out.errors.splice(-1, 1, budget.exceeded);
  } else {
    // A plain file can be read from its end: a data-first file's meta is known before its first item. Read a MiB at
    // a time: each chunk is a message to the conversion worker (64 KiB reads were ~4,700 of them at tier M).
    await one(name, fromDisk(fs.createReadStream(file, { highWaterMark: READ_BYTES })), tailMeta(file));
  }
  meter?.finish();
  return out;
}

/**
 * What an archive (or gzip stream) has expanded to, against its limits: the bytes in all, and the ratio to its
 * compressed size, for the whole and for the entry being read. The first limit passed fails the stream being read
 * and is kept (`exceeded`), naming the limit and where it stopped.
 */
class Expansion {
  expanded = 0;
  exceeded: IngestError | undefined;

  constructor(
    private readonly name: string,
    private readonly limits: IngestLimits,
    /** The archive's size as uploaded. */
    private readonly compressed: number,
  ) {}

  /** A stream stage counting bytes out of the decompressor; `entry` for a zip entry of that compressed size. */
  meter(entry?: { name: string; compressedSize: number }): Transform {
    let mine = 0;
    return new Transform({
      transform: (chunk: Buffer, _enc, done: TransformCallback) => {
        mine += chunk.length;
        this.expanded += chunk.length;
        const refusal = this.check(mine, entry);
        if (refusal) {
          this.exceeded ??= refusal;
          done(new Error(refusal.reason));
        } else done(null, chunk);
      },
    });
  }

  private check(mine: number, entry: { name: string; compressedSize: number } | undefined): IngestError | undefined {
    const { maxDecompressedBytes: max, maxExpansionRatio: ratio } = this.limits;
    if (this.expanded > max)
      return new IngestError(this.name, `the archive decompresses to more than the limit of ${max} bytes (ARCHIVE_MAX_EXPANDED_BYTES)`);
    const past = (bytes: number, compressed: number) => bytes > RATIO_FREE_BYTES && bytes > ratio * Math.max(compressed, 1);
    if (entry && past(mine, entry.compressedSize))
      return new IngestError(
        `${this.name}:${entry.name}`,
        `the entry expands to more than ${ratio} times its compressed size of ${entry.compressedSize} bytes (ARCHIVE_MAX_RATIO; a zip bomb?); stopped after ${mine} bytes`,
      );
    if (past(this.expanded, this.compressed))
      return new IngestError(
        this.name,
        `the archive expands to more than ${ratio} times its compressed size of ${this.compressed} bytes (ARCHIVE_MAX_RATIO; a zip bomb?); stopped after ${this.expanded} bytes`,
      );
    return undefined;
  }

  /** The declared size of an entry, checked before it is opened. */
  declare(entry: { fileName: string; uncompressedSize: number }): void {
    const max = this.limits.maxDecompressedBytes;
    if (this.expanded + entry.uncompressedSize > max)
      throw new IngestError(
        `${this.name}:${entry.fileName}`,
        `the archive decompresses to more than the limit of ${max} bytes (ARCHIVE_MAX_EXPANDED_BYTES; a zip bomb?)`,
      );
  }
}

/** Archives with at most this many entries have theirs read first and ingested in collection order. */
const MAX_ORDERED_ENTRIES = 4096;

/**
 * The .json entries of a zip archive, one at a time (never all in memory), users, computers and groups first
 * (collection-order.ts) when the archive's directory is small enough to read ahead (entry records only; a
 * larger one is taken in archive order). Each entry's declared size is checked against the remaining budget before
 * it is opened, and its real bytes are counted while it streams (yauzl also refuses an entry whose bytes disagree
 * with its header). Archive-level errors become an IngestError.
 */
async function* zipEntries(
  file: string,
  name: string,
  budget: Expansion,
  maxEntries: number,
): AsyncGenerator<{ name: string; stream: Readable; compressedSize: number; uncompressedSize: number }> {
  const fail = (err: unknown) => new IngestError(name, `unreadable zip archive: ${(err as Error).message}`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) => (err ? reject(fail(err)) : resolve(z!))),
  );
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new IngestError(name, `the archive holds ${zip.entryCount} entries, more than the ${maxEntries} allowed (ARCHIVE_MAX_ENTRIES)`);
  }
  // yauzl may emit 'error' between our reads; one listener stays for the archive's life so it is never unhandled.
  let archiveError: Error | undefined;
  zip.on('error', (err: Error) => (archiveError ??= err));
  /** The archive's next .json entry record, or undefined at its end. */
  const nextJson = async (): Promise<yauzl.Entry | undefined> => {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        if (archiveError) return reject(fail(archiveError));
        const onEntry = (e: yauzl.Entry) => settle(() => resolve(e));
        const onEnd = () => settle(() => resolve(undefined));
        const onError = (err: Error) => settle(() => reject(fail(err)));
        const settle = (fn: () => void) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          fn();
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!entry) return undefined;
      const lower = entry.fileName.toLowerCase();
      if (!entry.fileName.endsWith('/') && lower.endsWith('.json') && !lower.startsWith('__macosx')) return entry;
    }
  };
  async function* entries(): AsyncGenerator<yauzl.Entry> {
    if (zip.entryCount > MAX_ORDERED_ENTRIES) {
      for (let e = await nextJson(); e; e = await nextJson()) yield e;
      return;
    }
    const all: yauzl.Entry[] = [];
    for (let e = await nextJson(); e; e = await nextJson()) all.push(e);
    yield* inCollectionOrder(all, (e) => typeFromName(e.fileName));
  }
  try {
    for await (const entry of entries()) {
      budget.declare(entry);
      const raw = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(fail(err)) : resolve(s!))),
      );
      const meter = budget.meter({ name: entry.fileName, compressedSize: entry.compressedSize });
      const stream = pipeline(raw, meter, new PassThrough(), () => undefined);
      yield { name: entry.fileName, stream, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize };
    }
  } finally {
    zip.close();
  }
}
