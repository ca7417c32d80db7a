import { MSG } from '../messages.js';
import type { EdgeInput, NodeInput } from '../graph/model.js';
import { convertAzure } from './azure.js';
import { field, str } from './fields.js';
import { HeldEdges } from './held-edges.js';
import { JsonItemSplitter, JsonStreamError, type SplitterHandlers } from './json-stream.js';
import { OpenGraphInvalid } from './opengraph-file.js';
import { FILE_KINDS, SharpHoundConverter, type Converted } from './sharphound.js';
import { Spool } from './spool.js';
import { IngestError, type FileResult, type IngestLimits } from './ingest-types.js';

/**
 * A batch is handed to the writer once 4× this many nodes, edges and deletes are pending (20,000 rows): each batch
 * costs the write a few round trips and statements whatever its size, and tier M ingested 6–7 % faster than with
 * half (~20–40 MB more peak RSS).
 */
export const FLUSH_OBJECTS = 5000;
/** Rows of a file's first batch (see CollectorReader.full). */
const FIRST_BATCH_ROWS = (FLUSH_OBJECTS * 4) / 10;
export const SUPPORTED = new Set([...Object.keys(FILE_KINDS), 'sessions', 'deleted', 'azure']);

/** What a reader has converted since the last batch was taken. */
export interface PendingRows {
  nodes: NodeInput[];
  edges: EdgeInput[];
  deletes: string[];
}

/**
 * The collector-file part of an ingest, without the writing: splits `{"meta": …, "data": [...]}` as it arrives
 * (either key order), parks items seen before "meta" in a spool, converts each item (SharpHound, AzureHound) and
 * counts what the file contributed. The same on the writer's thread and in a conversion worker; a caller adds the
 * OpenGraph handlers through `extra` (they need the database, so only the writer's thread reads OpenGraph).
 */
export class CollectorReader {
  type: string | undefined;
  readonly result: FileResult;
  readonly splitter: JsonItemSplitter;
  rows: PendingRows = { nodes: [], edges: [], deletes: [] };
  /** Input bytes read since the last batch was taken (see IngestLimits.batchBytes). */
  private pendingBytes = 0;
  /** Batches taken from this reader. */
  private taken = 0;
  private spool: Spool | undefined; // items seen before "meta" (collectors may write it last)
  private readonly hintedType: string | undefined;
  private readonly sharphound: SharpHoundConverter;
  private readonly held = new HeldEdges();

  constructor(
    private readonly file: string,
    private readonly limits: IngestLimits,
    private readonly now: string,
    metaHint?: Record<string, unknown>,
    extra?: (reader: CollectorReader) => Partial<SplitterHandlers>,
  ) {
    this.sharphound = new SharpHoundConverter(now);
    const hinted = str(metaHint, 'type')?.toLowerCase();
    this.type = this.hintedType = hinted && SUPPORTED.has(hinted) ? hinted : undefined;
    this.result = { file, type: this.type ?? '', objects: 0, nodes: 0, edges: 0, perDomain: {}, unknownKinds: {} };
    this.splitter = new JsonItemSplitter(
      {
        meta: (meta) => this.meta(meta),
        // Before "meta" an item is spooled as the text it came as: parsed once, when drained.
        itemText: (parts, at) => {
          if (this.type) return false;
          (this.spool ??= new Spool()).writeText(parts, at);
          return true;
        },
        item: (item) => this.take(item),
        ...extra?.(this),
      },
      limits,
    );
  }

  push(chunk: Buffer): void {
    this.splitter.push(chunk);
    // Items before "meta" go to the spool, not to memory: their bytes are counted when drained.
    if (this.type) this.pendingBytes += chunk.length;
  }

  /** Whether items wait in the spool although the type is known now: drain() converts them. */
  get spooled(): boolean {
    return Boolean(this.type && this.spool);
  }

  pending(): number {
    return this.rows.nodes.length + this.rows.edges.length + this.rows.deletes.length;
  }

  /**
   * Whether enough rows (or input bytes) are pending for a batch. A file's first batches are smaller, doubling up to
   * the full size: the database has nothing to do until the first arrives (its transaction has begun), and while it
   * writes one the next, twice as large, is read.
   */
  full(): boolean {
    const n = this.pending();
    const rows = Math.min(FLUSH_OBJECTS * 4, FIRST_BATCH_ROWS * 2 ** this.taken);
    return n >= rows || (this.pendingBytes >= this.limits.batchBytes && n > 0);
  }

  /** The pending rows, counted into the result; the reader starts a new batch. */
  takeRows(): PendingRows {
    this.taken++;
    const rows = this.rows;
    this.result.nodes += rows.nodes.length;
    this.result.edges += rows.edges.length;
    this.rows = { nodes: [], edges: [], deletes: [] };
    this.pendingBytes = 0;
    return rows;
  }

  /** Converts the spooled items; `flush` is awaited whenever a batch is full. */
  async drain(flush: () => Promise<void>): Promise<void> {
    const spool = this.spool;
    if (!spool || !this.type) return;
    let drained = 0;
    for await (const item of spool.drain()) {
      this.take(item);
      this.pendingBytes += spool.drainedBytes - drained;
      drained = spool.drainedBytes;
      if (this.full()) await flush();
    }
    spool.dispose();
    this.spool = undefined;
  }

  /** The edges held back until the file's end (held-edges.ts), as batches; after drain(), before the last flush. */
  async release(flush: () => Promise<void>): Promise<void> {
    const { edges, repeats } = this.held.take();
    // A repeat merged into a held edge is one of the file's edges as it would have been unheld (the writer merges it).
    this.result.edges += repeats;
    for (const e of edges) {
      this.rows.edges.push(e);
      if (this.full()) await flush();
    }
  }

  /** After the input's end (splitter.end()): a collector file must have had both tags. */
  checkComplete(): void {
    if (!this.splitter.hasMeta)
      throw new IngestError(
        this.file,
        this.splitter.hasData ? 'no valid meta tag found' : `no valid meta tag found: ${MSG.unknownFileFormat}`,
      );
    if (!this.splitter.hasData) throw new IngestError(this.file, 'no data tag found');
  }

  dispose(): void {
    this.spool?.dispose();
    this.spool = undefined;
  }

  /** The error a failure of reading this file is reported as (database errors are not handled here). */
  failure(err: unknown): unknown {
    if (err instanceof IngestError) return err;
    if (err instanceof JsonStreamError) return new IngestError(this.file, `malformed JSON: ${err.message}`);
    if (err instanceof OpenGraphInvalid) return new IngestError(this.file, err.message);
    const { line, offset } = this.splitter.position;
    // A read error or an object the converter could not read.
    return new IngestError(this.file, `${(err as Error).message} (at line ${line}, byte ${offset})`);
  }

  private meta(meta: unknown): void {
    const t = str(meta, 'type')?.toLowerCase();
    if (!t) throw new IngestError(this.file, 'no valid meta tag found: "meta.type" is missing');
    if (!SUPPORTED.has(t)) throw new IngestError(this.file, `unsupported file type "${t}" in meta.type`);
    // Items converted with the hinted type cannot stand under another one (the file repeats "meta").
    if (this.hintedType && t !== this.hintedType && this.result.objects > 0) {
      throw new IngestError(this.file, `meta.type "${t}" differs from the "${this.hintedType}" read from the end of the file`);
    }
    this.type = this.result.type = t;
  }

  private take(item: unknown): void {
    const index = this.result.objects;
    const type = this.type!;
    let converted: Converted;
    try {
      converted = type === 'azure' ? convertAzure(item, this.now) : this.sharphound.convert(type, item);
      checkPropertySizes(converted.nodes, this.limits.maxPropertyBytes);
    } catch (err) {
      throw new IngestError(this.file, `data item ${index}: ${(err as Error).message}`);
    }
    // Loops, not push(...spread): one object may carry hundreds of thousands of edges (an argument-count overflow).
    const rows = this.rows;
    const held = this.held;
    held.saw(converted.nodes);
    for (const n of converted.nodes) rows.nodes.push(n);
    for (const e of converted.edges) if (!held.offer(e)) rows.edges.push(e);
    for (const d of converted.deletes) rows.deletes.push(d);
    const result = this.result;
    result.objects++;
    if (converted.unknownKind) result.unknownKinds[converted.unknownKind] = (result.unknownKinds[converted.unknownKind] ?? 0) + 1;
    const domain = FILE_KINDS[type] ? str(field(item, 'Properties'), 'domain') : undefined;
    if (domain) {
      const d = (result.perDomain[domain.toUpperCase()] ??= {});
      d[type] = (d[type] ?? 0) + 1;
    }
  }
}

/** Refuses a node whose single property value is larger than the limit (as JSON). */
export function checkPropertySizes(nodes: NodeInput[], max: number): void {
  for (const n of nodes) {
    for (const [k, v] of Object.entries(n.properties)) {
      if (v === null || typeof v !== 'object') continue;
      const size = Buffer.byteLength(JSON.stringify(v));
      if (size > max) throw new Error(`property "${k}" of ${n.objectid} is ${size} bytes, over the limit of ${max}`);
    }
  }
}
