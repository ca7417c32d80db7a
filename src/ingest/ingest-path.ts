import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { GraphStore } from '../graph/store.js';
import { DEFAULT_LIMITS, IngestError, ingestStream, type FileResult, type IngestOptions, type IngestProgress } from './ingest-stream.js';
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
};

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const GZIP = Buffer.from([0x1f, 0x8b]);
/** Bytes per read of a plain file. */
const READ_BYTES = 1024 * 1024;

/**
 * Ingests a file from disk: SharpHound/AzureHound/OpenGraph JSON, a zip archive of them, or either
 * gzip-compressed. Each JSON file is its own transaction; a bad file is reported and the others still land.
 * Decompressed bytes are counted against `maxDecompressedBytes` (zip bombs), whatever the headers claim.
 */
export async function ingestPath(store: GraphStore, file: string, opts: PathOptions = {}): Promise<PathResult> {
  const name = opts.displayName ?? path.basename(file);
  const maxBytes = opts.limits?.maxDecompressedBytes ?? DEFAULT_LIMITS.maxDecompressedBytes;
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  let read: number;
  try {
    read = fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  const out: PathResult = { files: [], errors: [] };
  const meter = opts.progress && new Meter(name, fs.statSync(file).size, opts.progress);
  const one = async (label: string, stream: Readable, metaHint?: Record<string, unknown>) => {
    const streamOpts = meter ? { ...opts, onProgress: meter.entry(label, opts.onProgress) } : opts;
    try {
      out.files.push(await ingestStream(store, label, stream, metaHint ? { ...streamOpts, metaHint } : streamOpts));
    } catch (err) {
      if (err instanceof IngestError) out.errors.push(err);
      else throw err;
    } finally {
      meter?.entryDone();
    }
  };
  /** The file's bytes as read from disk, counted when progress is asked for (the plain path is left as it is). */
  const fromDisk = (s: Readable): Readable => (meter ? pipeline(s, meter.tap(), () => undefined) : s);
  if (read >= 4 && head.equals(ZIP)) {
    const budget = { left: maxBytes, max: maxBytes };
    let entries = 0;
    try {
      for await (const entry of zipEntries(file, name, budget)) {
        entries++;
        meter?.compressed(entry.compressedSize, entry.uncompressedSize);
        await one(`${name}:${entry.name}`, meter ? pipeline(entry.stream, meter.tap(), () => undefined) : entry.stream);
      }
    } catch (err) {
      if (!(err instanceof IngestError)) throw err;
      out.errors.push(err);
      meter?.finish();
      return out;
    }
    if (!entries) out.errors.push(new IngestError(name, 'archive holds no JSON files'));
  } else if (read >= 2 && head.subarray(0, 2).equals(GZIP)) {
    const budget = { left: maxBytes, max: maxBytes };
    // pipeline (not pipe) so an error of any stage reaches the stream ingest reads, never an unhandled 'error'.
    const gunzipped = pipeline(fromDisk(fs.createReadStream(file)), zlib.createGunzip(), new Limit(budget), () => undefined);
    await one(name, gunzipped);
  } else {
    // A plain file can be read from its end: a data-first file's meta is known before its first item. Read a MiB at
    // a time: each chunk is a message to the conversion worker (64 KiB reads were ~4,700 of them at tier M).
    await one(name, fromDisk(fs.createReadStream(file, { highWaterMark: READ_BYTES })), tailMeta(file));
  }
  meter?.finish();
  return out;
}

/** Fails the stream once more decompressed bytes pass than the budget allows. */
class Limit extends Transform {
  constructor(private readonly budget: { left: number; max: number }) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.budget.left -= chunk.length;
    if (this.budget.left < 0) done(new Error(`decompressed data passes the limit of ${this.budget.max} bytes (zip bomb?)`));
    else done(null, chunk);
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
  budget: { left: number; max: number },
): AsyncGenerator<{ name: string; stream: Readable; compressedSize: number; uncompressedSize: number }> {
  const fail = (err: unknown) => new IngestError(name, `unreadable zip archive: ${(err as Error).message}`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) => (err ? reject(fail(err)) : resolve(z!))),
  );
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
      if (entry.uncompressedSize > budget.left) {
        throw new IngestError(
          `${name}:${entry.fileName}`,
          `the archive decompresses to more than the limit of ${budget.max} bytes (zip bomb?)`,
        );
      }
      const raw = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(fail(err)) : resolve(s!))),
      );
      const stream = pipeline(raw, new Limit(budget), new PassThrough(), () => undefined);
      yield { name: entry.fileName, stream, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize };
    }
  } finally {
    zip.close();
  }
}
