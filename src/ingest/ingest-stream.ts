import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { EdgeInput, NodeInput } from '../graph/model.js';
import type { GraphStore, GraphWriter } from '../graph/store.js';
import type { Queryable } from '../db/pool.js';
import { asAppError } from '../errors.js';
import { convertAzure } from './azure.js';
import { field, str } from './fields.js';
import { JsonItemSplitter, JsonStreamError } from './json-stream.js';
import { FILE_KINDS, SharpHoundConverter } from './sharphound.js';

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
}

export interface IngestOptions {
  /** Timestamp written as lastseen / lastcollected. */
  now?: Date;
  /** Called after each flushed batch with the objects ingested so far (progress bars). */
  onProgress?: (objects: number) => void;
  /**
   * Runs inside the file's transaction after its last write, before the commit: callers record that the file is
   * done atomically with its data (a throw rolls the file back). `result.file` names the file (or zip entry).
   */
  beforeCommit?: (tx: Queryable, result: FileResult) => Promise<void>;
}

const FLUSH_OBJECTS = 2500;
const SUPPORTED = new Set([...Object.keys(FILE_KINDS), 'sessions', 'deleted', 'azure']);

/**
 * Ingests one collector file from a stream, in one transaction: SharpHound v5/v6 (`meta.type` users, groups, …,
 * sessions, deleted and the ADCS types) or AzureHound (`meta.type` azure). The file is never held whole in memory.
 */
export async function ingestStream(store: GraphStore, file: string, input: Readable, opts: IngestOptions = {}): Promise<FileResult> {
  const now = (opts.now ?? new Date()).toISOString();
  const sharphound = new SharpHoundConverter(now);
  const result: FileResult = { file, type: '', objects: 0, nodes: 0, edges: 0, perDomain: {}, unknownKinds: {} };
  let type: string | undefined;
  let nodes: NodeInput[] = [];
  let edges: EdgeInput[] = [];
  let deletes: string[] = [];
  let spool: Spool | undefined; // items seen before "meta" (collectors may write it last)

  const take = (item: unknown) => {
    const converted = type === 'azure' ? convertAzure(item, now) : sharphound.convert(type!, item);
    nodes.push(...converted.nodes);
    edges.push(...converted.edges);
    deletes.push(...converted.deletes);
    result.objects++;
    if (converted.unknownKind) result.unknownKinds[converted.unknownKind] = (result.unknownKinds[converted.unknownKind] ?? 0) + 1;
    const kind = FILE_KINDS[type!];
    const domain = kind ? str(field(item, 'Properties'), 'domain') : undefined;
    if (domain) {
      const d = (result.perDomain[domain.toUpperCase()] ??= {});
      d[type!] = (d[type!] ?? 0) + 1;
    }
  };
  const flush = async (w: GraphWriter) => {
    if (nodes.length) await w.upsertNodes(nodes);
    if (edges.length) await w.upsertEdges(edges);
    if (deletes.length) await w.deleteNodes(deletes);
    result.nodes += nodes.length;
    result.edges += edges.length;
    nodes = [];
    edges = [];
    deletes = [];
    opts.onProgress?.(result.objects);
  };

  try {
    return await store.write(async (w) => {
      const splitter = new JsonItemSplitter({
        meta(meta) {
          const t = str(meta, 'type')?.toLowerCase();
          if (!t) throw new IngestError(file, 'no valid meta tag found: "meta.type" is missing');
          if (!SUPPORTED.has(t)) throw new IngestError(file, `unsupported file type "${t}" in meta.type`);
          type = t;
          result.type = t;
        },
        item(item) {
          if (type) take(item);
          else (spool ??= new Spool()).write(item);
        },
      });
      for await (const chunk of input) {
        splitter.push(chunk as Buffer);
        if (type && spool) {
          for await (const item of spool.drain()) {
            take(item);
            if (nodes.length + edges.length >= FLUSH_OBJECTS * 4) await flush(w);
          }
          spool = undefined;
        }
        if (result.objects && nodes.length + edges.length + deletes.length >= FLUSH_OBJECTS * 4) await flush(w);
      }
      splitter.end();
      if (!splitter.hasMeta) throw new IngestError(file, 'no valid meta tag found');
      if (!splitter.hasData) throw new IngestError(file, 'no data tag found');
      if (spool) {
        for await (const item of spool.drain()) take(item);
        spool = undefined;
      }
      await flush(w);
      if (opts.beforeCommit) {
        if (!w.tx) throw new Error('this graph store cannot record rows in its write transaction');
        await opts.beforeCommit(w.tx, result);
      }
      return result;
    });
  } catch (err) {
    if (err instanceof IngestError || asAppError(err)) throw err; // database errors keep their status
    if (err instanceof JsonStreamError) throw new IngestError(file, `malformed JSON: ${err.message}`);
    throw new IngestError(file, (err as Error).message); // a malformed object the converter could not read
  } finally {
    spool?.dispose();
  }
}

/** Items parked on disk as JSON lines until the file's type is known. */
class Spool {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-spool-'));
  private readonly file = path.join(this.dir, 'items.jsonl');
  private readonly fd = fs.openSync(this.file, 'w');

  write(item: unknown): void {
    fs.writeSync(this.fd, JSON.stringify(item) + '\n');
  }

  async *drain(): AsyncGenerator<unknown> {
    fs.closeSync(this.fd);
    const lines = readline.createInterface({ input: fs.createReadStream(this.file), crlfDelay: Infinity });
    for await (const line of lines) if (line) yield JSON.parse(line);
    this.dispose();
  }

  dispose(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed by drain()
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
