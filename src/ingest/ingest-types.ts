import { DEFAULT_SPLITTER_LIMITS, type SplitterLimits } from './json-stream.js';
import type { Queryable } from '../db/pool.js';

/** Why a file was refused; names the file and, for malformed JSON, the position. Nothing of that file is written. */
export class IngestError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** What one file contributed. */
export interface FileResult {
  file: string;
  type: string;
  objects: number;
  nodes: number;
  edges: number;
  /** Objects per domain name and file type (collected objects only), for collector job results. */
  perDomain: Record<string, Record<string, number>>;
  /** Records of kinds this service does not convert, per kind: reported, never dropped in silence. */
  unknownKinds: Record<string, number>;
  /** OpenGraph: elements left out, per reason (an edge endpoint that matches no node, or several). */
  skipped?: Record<string, number>;
}

export interface IngestOptions {
  /** Timestamp written as lastseen / lastcollected. */
  now?: Date;
  /** Called after each flushed batch with the objects and edges written so far (progress bars). */
  onProgress?: (objects: number, edges: number) => void;
  /**
   * Runs inside the file's transaction after its last graph write, before the commit: a caller can record the
   * file as done atomically with its graph writes (called once per JSON file; for an archive, once per entry;
   * `result.file` names it). Throwing rolls the file back.
   */
  beforeCommit?: (tx: Queryable, result: FileResult) => Promise<void>;
  /** Size bounds (tests lower them); defaults are DEFAULT_LIMITS. */
  limits?: Partial<IngestLimits>;
  /**
   * The file's `meta` as read from its end (tailMeta), for files written data-first: items are converted as they
   * come instead of spooled. The real `meta` must still arrive and name the same type.
   */
  metaHint?: Record<string, unknown>;
  /**
   * Whether a collector file is parsed and converted in a worker thread where the store takes prepared batches
   * (default true); false keeps everything on the calling thread (tests compare the two).
   */
  convertInWorker?: boolean;
}

/** How far the ingest of a file on disk is (`PathOptions.progress`). */
export interface IngestProgress {
  /** The file, or `archive.zip:entry.json` for an archive's entry. */
  file: string;
  /** Bytes of the file on disk read so far (an archive's entries by their compressed size), and its size. */
  bytesRead: number;
  bytesTotal: number;
  /** Objects and edges of the whole path written so far (an archive's entries added up). */
  objects: number;
  edges: number;
}

export interface IngestLimits extends SplitterLimits {
  /** Bytes of one property value as JSON (arrays and objects; strings are bounded by maxStringBytes). */
  maxPropertyBytes: number;
  /** Decompressed bytes of one archive (all its entries) or of one gzip stream: zip bombs stop here. */
  maxDecompressedBytes: number;
  /**
   * Bytes of input a batch is converted from at most before it is handed to the store, whatever its row count:
   * 20,000 rows of objects carrying megabyte-long values would otherwise be held at once (an upload may be 4 GiB).
   */
  batchBytes: number;
  /**
   * The V8 old-space cap of a conversion worker, in MiB: a file that needs more fails ("conversion failed"), and
   * nothing of it is written, before it can take the process's memory. Sized for the item and batch bounds above.
   */
  conversionHeapMb: number;
}

export const DEFAULT_LIMITS: IngestLimits = {
  ...DEFAULT_SPLITTER_LIMITS,
  maxPropertyBytes: 1024 * 1024,
  maxDecompressedBytes: 16 * 1024 * 1024 * 1024,
  batchBytes: 64 * 1024 * 1024,
  conversionHeapMb: 1024,
};
