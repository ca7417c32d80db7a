import type { Readable } from 'node:stream';
import type { EdgeInput, NodeInput } from '../graph/model.js';
import type { Queryable } from '../db/pool.js';
import type { GraphStore, GraphWriter } from '../graph/store.js';
import { asAppError } from '../errors.js';
import { convertAzure } from './azure.js';
import { field, str } from './fields.js';
import { DEFAULT_SPLITTER_LIMITS, JsonItemSplitter, JsonStreamError, type SplitterLimits } from './json-stream.js';
import { FILE_KINDS, SharpHoundConverter, type Converted } from './sharphound.js';
import { OpenGraphFile, OpenGraphInvalid } from './opengraph-file.js';
import { Spool } from './spool.js';

/** Why a file was refused; names the file and, for malformed JSON, the position. Nothing of that file is written. */
export class IngestError extends Error {
  constructor(
    readonly file: string,
    reason: string,
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
  /** Called after each flushed batch with the objects ingested so far (progress bars). */
  onProgress?: (objects: number) => void;
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
}

export const DEFAULT_LIMITS: IngestLimits = {
  ...DEFAULT_SPLITTER_LIMITS,
  maxPropertyBytes: 1024 * 1024,
  maxDecompressedBytes: 16 * 1024 * 1024 * 1024,
  batchBytes: 64 * 1024 * 1024,
};

/**
 * A batch is handed to the store once 4× this many nodes, edges and deletes are pending (20,000 rows): each batch
 * costs the write a few round trips and statements whatever its size, and tier M ingested 6–7 % faster than with
 * half (~20–40 MB more peak RSS).
 */
const FLUSH_OBJECTS = 5000;
/** Edges handed to the store in one call at most. */
const MAX_EDGE_CALL = 50_000;
const SUPPORTED = new Set([...Object.keys(FILE_KINDS), 'sessions', 'deleted', 'azure']);

/**
 * Ingests one collector file from a stream, in one transaction: SharpHound v5/v6 (`meta.type` users, groups, …,
 * sessions, deleted and the ADCS types), AzureHound (`meta.type` azure) or BloodHound's generic OpenGraph JSON
 * (`graph.nodes` / `graph.edges`). The file is never held whole in memory.
 * Whatever goes wrong, the input is destroyed and the error is thrown as an IngestError naming the file and place
 * (database errors keep their own type); nothing of the file is written.
 */
export async function ingestStream(store: GraphStore, file: string, input: Readable, opts: IngestOptions = {}): Promise<FileResult> {
  const limits: IngestLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const now = (opts.now ?? new Date()).toISOString();
  const sharphound = new SharpHoundConverter(now);
  const result: FileResult = { file, type: '', objects: 0, nodes: 0, edges: 0, perDomain: {}, unknownKinds: {} };
  const hinted = str(opts.metaHint, 'type')?.toLowerCase();
  let type = hinted && SUPPORTED.has(hinted) ? hinted : undefined;
  const hintedType = type;
  result.type = type ?? '';
  let nodes: NodeInput[] = [];
  let edges: EdgeInput[] = [];
  let deletes: string[] = [];
  /** Input bytes read since the last flush (see IngestLimits.batchBytes). */
  let pendingBytes = 0;
  let spool: Spool | undefined; // items seen before "meta" (collectors may write it last)
  let splitter: JsonItemSplitter | undefined;
  let opengraph: OpenGraphFile | undefined;
  // Until iteration starts nothing listens for the input's errors; one must not become an uncaught 'error' event.
  const swallow = () => undefined;
  input.on('error', swallow);

  const take = (item: unknown) => {
    const index = result.objects;
    let converted: Converted;
    try {
      converted = type === 'azure' ? convertAzure(item, now) : sharphound.convert(type!, item);
      checkPropertySizes(converted.nodes, limits.maxPropertyBytes);
    } catch (err) {
      throw new IngestError(file, `data item ${index}: ${(err as Error).message}`);
    }
    // Loops, not push(...spread): one object may carry hundreds of thousands of edges (an argument-count overflow).
    for (const n of converted.nodes) nodes.push(n);
    for (const e of converted.edges) edges.push(e);
    for (const d of converted.deletes) deletes.push(d);
    result.objects++;
    if (converted.unknownKind) result.unknownKinds[converted.unknownKind] = (result.unknownKinds[converted.unknownKind] ?? 0) + 1;
    const kind = FILE_KINDS[type!];
    const domain = kind ? str(field(item, 'Properties'), 'domain') : undefined;
    if (domain) {
      const d = (result.perDomain[domain.toUpperCase()] ??= {});
      d[type!] = (d[type!] ?? 0) + 1;
    }
  };
  const checkSizes = (list: NodeInput[], where: string) => {
    try {
      checkPropertySizes(list, limits.maxPropertyBytes);
    } catch (err) {
      throw new IngestError(file, `${where}: ${(err as Error).message}`);
    }
  };
  const pending = () => nodes.length + edges.length + deletes.length;
  const full = () => pending() >= FLUSH_OBJECTS * 4 || (pendingBytes >= limits.batchBytes && pending() > 0);
  const finishOpenGraph = async (w: GraphWriter, og: OpenGraphFile, found: { present: boolean; nodes: boolean; edges: boolean }) => {
    if (!found.present) throw new IngestError(file, 'no graph tag found (OpenGraph files hold "graph": {"nodes": [...], "edges": [...]})');
    if (!found.nodes && !found.edges) og.errors.push('graph tag is empty: at least one of "nodes" or "edges" is required');
    if (og.errors.length) throw new IngestError(file, og.invalid().message);
    await flush(w);
    for await (const edge of og.resolve(w.tx)) {
      edges.push(edge);
      if (pending() >= FLUSH_OBJECTS * 4) await flush(w);
    }
    await flush(w);
    if (Object.keys(og.skipped).length) result.skipped = og.skipped;
  };
  const flush = async (w: GraphWriter) => {
    if (nodes.length) await w.upsertNodes(nodes);
    // Whole when it is an ordinary batch: the store merges an edge met twice within one call, while a repeat split
    // across two calls makes the second one merge rather than insert. In slices when one object brought hundreds of
    // thousands of edges (the store's merge copies what it gets).
    if (edges.length > MAX_EDGE_CALL) {
      for (let i = 0; i < edges.length; i += FLUSH_OBJECTS * 4) await w.upsertEdges(edges.slice(i, i + FLUSH_OBJECTS * 4));
    } else if (edges.length) await w.upsertEdges(edges);
    if (deletes.length) await w.deleteNodes(deletes);
    result.nodes += nodes.length;
    result.edges += edges.length;
    nodes = [];
    edges = [];
    deletes = [];
    pendingBytes = 0;
    opts.onProgress?.(result.objects);
  };
  const drainSpool = async (w: GraphWriter) => {
    if (!spool) return;
    let drained = 0;
    for await (const item of spool.drain()) {
      take(item);
      pendingBytes += spool.drainedBytes - drained;
      drained = spool.drainedBytes;
      if (full()) await flush(w);
    }
    spool.dispose();
    spool = undefined;
  };

  try {
    return await store.write(async (w) => {
      const s = (splitter = new JsonItemSplitter(
        {
          meta(meta) {
            const t = str(meta, 'type')?.toLowerCase();
            if (!t) throw new IngestError(file, 'no valid meta tag found: "meta.type" is missing');
            if (!SUPPORTED.has(t)) throw new IngestError(file, `unsupported file type "${t}" in meta.type`);
            // Items converted with the hinted type cannot stand under another one (the file repeats "meta").
            if (hintedType && t !== hintedType && result.objects > 0) {
              throw new IngestError(file, `meta.type "${t}" differs from the "${hintedType}" read from the end of the file`);
            }
            type = t;
            result.type = t;
          },
          // Before "meta" an item is spooled as the text it came as: parsed once, when drained.
          itemText(parts, at) {
            if (type) return false;
            (spool ??= new Spool()).writeText(parts, at);
            return true;
          },
          item(item) {
            take(item);
          },
          graph() {
            type = result.type = 'opengraph';
            opengraph ??= new OpenGraphFile(now);
          },
          metadata(value) {
            (opengraph ??= new OpenGraphFile(now)).metadata(value);
          },
          graphItem(kind, value, index) {
            const og = opengraph!;
            if (kind === 'node') {
              const node = og.node(value, index);
              if (node) {
                checkSizes([node], `nodes[${index}]`);
                nodes.push(node);
              }
            } else og.edge(value, index);
            result.objects++;
          },
        },
        limits,
      ));
      for await (const chunk of input) {
        s.push(chunk as Buffer);
        // Items before "meta" go to the spool, not to memory: their bytes are counted when drained.
        if (type) pendingBytes += (chunk as Buffer).length;
        if (type && spool) await drainSpool(w);
        if (full()) await flush(w);
      }
      s.end();
      if (opengraph) {
        await finishOpenGraph(w, opengraph, s.graph);
        if (opts.beforeCommit) await opts.beforeCommit(w.tx, result);
        return result;
      }
      if (!s.hasMeta) throw new IngestError(file, 'no valid meta tag found');
      if (!s.hasData) throw new IngestError(file, 'no data tag found');
      await drainSpool(w);
      await flush(w);
      if (opts.beforeCommit) await opts.beforeCommit(w.tx, result);
      return result;
    });
  } catch (err) {
    if (err instanceof IngestError || asAppError(err)) throw err; // database errors keep their status
    if (err instanceof JsonStreamError) throw new IngestError(file, `malformed JSON: ${err.message}`);
    if (err instanceof OpenGraphInvalid) throw new IngestError(file, err.message);
    const at = splitter ? ` (at line ${splitter.position.line}, byte ${splitter.position.offset})` : '';
    throw new IngestError(file, `${(err as Error).message}${at}`); // a read error or an object the converter could not read
  } finally {
    spool?.dispose();
    opengraph?.dispose();
    input.destroy();
  }
}

/** Refuses a node whose single property value is larger than the limit (as JSON). */
function checkPropertySizes(nodes: NodeInput[], max: number): void {
  for (const n of nodes) {
    for (const [k, v] of Object.entries(n.properties)) {
      if (v === null || typeof v !== 'object') continue;
      const size = Buffer.byteLength(JSON.stringify(v));
      if (size > max) throw new Error(`property "${k}" of ${n.objectid} is ${size} bytes, over the limit of ${max}`);
    }
  }
}
