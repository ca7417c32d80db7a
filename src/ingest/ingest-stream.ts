import type { Readable } from 'node:stream';
import type { NodeInput } from '../graph/model.js';
import type { GraphStore, GraphWriter } from '../graph/store.js';
import { asAppError } from '../errors.js';
import { checkPropertySizes, CollectorReader, FLUSH_OBJECTS } from './collector-reader.js';
import { readInWorker } from './convert-in-worker.js';
import { DEFAULT_LIMITS, IngestError, type FileResult, type IngestLimits, type IngestOptions } from './ingest-types.js';
import { isSpace } from './json-stream.js';
import { OpenGraphFile } from './opengraph-file.js';

export {
  DEFAULT_LIMITS,
  IngestError,
  type FileResult,
  type IngestLimits,
  type IngestOptions,
  type IngestProgress,
} from './ingest-types.js';

/** Edges handed to the store in one call at most. */
const MAX_EDGE_CALL = 50_000;
/** Bytes of a file's start read at most to see its first key (a collector file's is "meta" or "data"). */
const PEEK_BYTES = 64 * 1024;

/**
 * Ingests one collector file from a stream, in one transaction: SharpHound v5/v6 (`meta.type` users, groups, …,
 * sessions, deleted and the ADCS types), AzureHound (`meta.type` azure) or BloodHound's generic OpenGraph JSON
 * (`graph.nodes` / `graph.edges`). The file is never held whole in memory.
 * Whatever goes wrong, the input is destroyed and the error is thrown as an IngestError naming the file and place
 * (database errors keep their own type); nothing of the file is written.
 */
export async function ingestStream(store: GraphStore, file: string, input: Readable, given: IngestOptions = {}): Promise<FileResult> {
  const opts = { ...given, onProgress: onlyChanges(given.onProgress) };
  const limits: IngestLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const now = (opts.now ?? new Date()).toISOString();
  let reader: CollectorReader | undefined;
  let opengraph: OpenGraphFile | undefined;
  // Until iteration starts nothing listens for the input's errors; one must not become an uncaught 'error' event.
  const swallow = () => undefined;
  input.on('error', swallow);

  const checkSizes = (list: NodeInput[], where: string) => {
    try {
      checkPropertySizes(list, limits.maxPropertyBytes);
    } catch (err) {
      throw new IngestError(file, `${where}: ${(err as Error).message}`);
    }
  };
  const finishOpenGraph = async (w: GraphWriter, r: CollectorReader, og: OpenGraphFile) => {
    const found = r.splitter.graph;
    if (!found.present) throw new IngestError(file, 'no graph tag found (OpenGraph files hold "graph": {"nodes": [...], "edges": [...]})');
    if (!found.nodes && !found.edges) og.errors.push('graph tag is empty: at least one of "nodes" or "edges" is required');
    if (og.errors.length) throw new IngestError(file, og.invalid().message);
    await flush(w, r);
    await og.registerSourceKind(w.tx);
    for await (const edge of og.resolve(w.tx)) {
      r.rows.edges.push(edge);
      if (r.pending() >= FLUSH_OBJECTS * 4) await flush(w, r);
    }
    await flush(w, r);
    if (Object.keys(og.skipped).length) r.result.skipped = og.skipped;
  };
  let edgesWritten = 0;
  const flush = async (w: GraphWriter, r: CollectorReader) => {
    const { nodes, edges, deletes } = r.takeRows();
    edgesWritten += edges.length;
    if (nodes.length) await w.upsertNodes(nodes);
    // Whole when it is an ordinary batch: the store merges an edge met twice within one call, while a repeat split
    // across two calls makes the second one merge rather than insert. In slices when one object brought hundreds of
    // thousands of edges (the store's merge copies what it gets).
    if (edges.length > MAX_EDGE_CALL) {
      for (let i = 0; i < edges.length; i += FLUSH_OBJECTS * 4) await w.upsertEdges(edges.slice(i, i + FLUSH_OBJECTS * 4));
    } else if (edges.length) await w.upsertEdges(edges);
    if (deletes.length) await w.deleteNodes(deletes);
    opts.onProgress?.(r.result.objects, edgesWritten);
  };
  /** Reads the file on this thread: OpenGraph, or any file where the store takes no prepared batches. */
  const readHere = async (w: GraphWriter, chunks: AsyncIterable<Buffer>) => {
    const r = (reader = new CollectorReader(file, limits, now, opts.metaHint, (r) => ({
      graph() {
        r.type = r.result.type = 'opengraph';
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
            r.rows.nodes.push(node);
          }
        } else og.edge(value, index);
        r.result.objects++;
      },
    })));
    for await (const chunk of chunks) {
      r.push(chunk);
      if (r.spooled) await r.drain(() => flush(w, r));
      if (r.full()) await flush(w, r);
    }
    r.splitter.end();
    if (opengraph) {
      await finishOpenGraph(w, r, opengraph);
      return r.finalResult();
    }
    r.checkComplete();
    await r.drain(() => flush(w, r));
    await r.release(() => flush(w, r));
    await flush(w, r);
    return r.finalResult();
  };

  try {
    // The file's start is read before its transaction begins: the database does not wait for the first bytes.
    const { head, rest } = await peek(input);
    return await store.write(async (w) => {
      const { writePrepared } = w;
      const result =
        writePrepared && opts.convertInWorker !== false && isCollectorKey(firstKey(head))
          ? await readInWorker({ ...w, writePrepared }, file, rest, { now, limits, metaHint: opts.metaHint, onProgress: opts.onProgress })
          : await readHere(w, rest);
      if (opts.beforeCommit) await opts.beforeCommit(w.tx, result);
      // The file's own count at the end (the batches' edges may differ from it by repeats merged on the way).
      opts.onProgress?.(result.objects, result.edges);
      return result;
    });
  } catch (err) {
    if (err instanceof IngestError || asAppError(err)) throw err; // database errors keep their status
    if (reader) throw reader.failure(err);
    throw new IngestError(file, (err as Error).message); // a read error
  } finally {
    reader?.dispose();
    opengraph?.dispose();
    input.destroy();
  }
}

/** The input's first chunks, up to where its first key shows (or PEEK_BYTES), and the whole input again. */
async function peek(input: Readable): Promise<{ head: Buffer; rest: AsyncIterable<Buffer> }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const seen: Buffer[] = [];
  let bytes = 0;
  let ended = false;
  while (bytes < PEEK_BYTES) {
    const next = await it.next();
    if (next.done) {
      ended = true;
      break;
    }
    seen.push(next.value);
    bytes += next.value.length;
    if (firstKey(Buffer.concat(seen)) !== null) break;
  }
  const head = Buffer.concat(seen);
  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (ended) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, rest: rest() };
}

const isCollectorKey = (key: string | null | undefined) => key === 'meta' || key === 'data';

/**
 * The first key of a JSON object at the start of `head` (after a byte order mark and white space); undefined when
 * the text does not start as an object with a plain key, null when more bytes are needed to tell.
 */
/** Progress as it moves: the end's own count repeats the last batch's when the two agree, and is told once. */
function onlyChanges(report: IngestOptions['onProgress']): IngestOptions['onProgress'] {
  if (!report) return undefined;
  let last: [number, number] | undefined;
  return (objects, edges) => {
    if (last && last[0] === objects && last[1] === edges) return;
    last = [objects, edges];
    report(objects, edges);
  };
}

export function firstKey(head: Buffer): string | null | undefined {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const skipSpace = () => {
    while (i < head.length && isSpace(head[i])) i++;
  };
  skipSpace();
  if (i >= head.length) return null;
  if (head[i++] !== 0x7b) return undefined;
  skipSpace();
  if (i >= head.length) return null;
  if (head[i++] !== 0x22) return undefined;
  const end = head.indexOf(0x22, i);
  if (end === -1) return head.length - i > 64 ? undefined : null;
  const key = head.subarray(i, end);
  return key.includes(0x5c) ? undefined : key.toString('utf8');
}
