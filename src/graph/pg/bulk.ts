import type { Queryable } from '../../db/pool.js';
import type { Properties } from '../model.js';
import type { PreparedEdges, PreparedNodes } from '../prepared.js';
import { AppError, conflict } from '../../errors.js';
import { nextTurn } from '../../next-turn.js';
import * as SQL from './bulk-sql.js';
import { EdgeCopyRows } from './copy-rows.js';

/**
 * The bulk write path of the PostgreSQL graph store: rows go into per-transaction staging tables with
 * `COPY … FROM STDIN`, then one set-based statement per batch merges them into the graph (kinds unioned, incoming
 * properties winning, placeholder endpoints created), which is what BloodHound's DAWGS does on PostgreSQL. Only on
 * a real server: PGlite's socket cannot carry COPY, so the store keeps its parameterised statements there.
 */

export interface StagedEdgeById {
  startId: number;
  endId: number;
  kindId: number;
  properties: Properties;
}

/** Rows are sent in chunks of about this many characters: few stream writes, bounded memory. */
const CHUNK_CHARS = 1 << 20;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPE_ALL = /[\\\t\n\r]/g;
const BACKSLASHES = /\\/g;

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
export function copyText(v: string): string {
  return NEEDS_ESCAPE.test(v) ? v.replace(ESCAPE_ALL, (c) => ESCAPES[c]!) : v;
}

export function copyJson(v: unknown): string {
  return v === null || v === undefined ? '\\N' : copyJsonText(JSON.stringify(v));
}

/** JSON text as a COPY text value: it never holds a raw tab or line break (JSON escapes them), only backslashes need doubling. */
export function copyJsonText(json: string): string {
  return json.includes('\\') ? json.replace(BACKSLASHES, '\\\\') : json;
}

/**
 * The writer's kind ids for a prepared batch's kind indexes: per index, and per index list (as a batch gives a
 * node's or an endpoint's kinds) the distinct ids in ascending order, as graph_nodes.kind_ids keeps them.
 */
export class BatchKinds {
  private readonly lists = new Map<string, { ids: number[]; text: string }>();
  /** Per index, the id as an edge row's kind column with the tabs around it (`\t12\t`). */
  readonly columns: readonly Buffer[];

  constructor(readonly ids: readonly number[]) {
    this.columns = ids.map((id) => Buffer.from(`\t${id}\t`));
  }

  list(indexes: string): { ids: number[]; text: string } {
    let l = this.lists.get(indexes);
    if (!l) {
      const ids = [...new Set(indexes.split(',').map((i) => this.ids[Number(i)]!))].sort((a, b) => a - b);
      this.lists.set(indexes, (l = { ids, text: `{${ids.join(',')}}` }));
    }
    return l;
  }
}

/** Joins encoded rows into large chunks lazily, so a batch is never held twice as text. */
function* chunks<T>(rows: readonly T[], encode: (row: T) => string): Generator<string> {
  let buf = '';
  for (const r of rows) {
    buf += encode(r);
    if (buf.length >= CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/**
 * What one write transaction knows of the nodes it wrote or resolved: id and kind ids, as they are after its own
 * statements (within the transaction kinds only grow, unless the store is told otherwise through forget()).
 */
interface Known {
  id: number;
  k: number[];
}

/** Nodes a transaction remembers at most between batches (~300 bytes each; tier M has 116k nodes). */
const MAX_KNOWN = 150_000;

/** Whether an endpoint must go through the database: unknown, or a placeholder the edge would give a type. */
function unresolved(known: Known | undefined, kinds: BatchKinds, list: string): boolean {
  // TYPE_PLACEHOLDERS only touches nodes with at most one kind that lack one of the edge's kinds. The edge's kinds
  // are looked up only then: most endpoints are known typed nodes.
  return !known || (known.k.length <= 1 && !kinds.list(list).ids.every((k) => known.k.includes(k)));
}

/** Writes the rows given (0…count-1 when undefined) that can be written yet; returns the rows left. */
function encode(rows: readonly number[] | undefined, count: number, write: (j: number) => boolean): number[] {
  const left: number[] = [];
  const n = rows ? rows.length : count;
  for (let x = 0; x < n; x++) {
    const j = rows ? rows[x]! : x;
    if (!write(j)) left.push(j);
  }
  return left;
}

/** The staging tables of one write transaction (dropped at commit), created on first use. */
export class Stager {
  private created = false;
  /** Whether edges may still be COPYed straight into the graph (see copyDirect). */
  private direct = true;
  /**
   * Node ids by object id, learned from this transaction's own merges: an endpoint met before needs no staging,
   * no typing, no look-up (hubs recur in every batch, and each object's own node was just merged).
   */
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly q: Queryable & { copyFrom: NonNullable<Queryable['copyFrom']> },
    private readonly maxKnown = MAX_KNOWN,
  ) {}

  static for(q: Queryable, maxKnown?: number): Stager | undefined {
    return q.copyFrom ? new Stager(q as Queryable & { copyFrom: NonNullable<Queryable['copyFrom']> }, maxKnown) : undefined;
  }

  /** Drops what is known of these nodes (deleted), or of all nodes (their kinds changed behind the merges). */
  forget(objectids?: readonly string[]): void {
    if (!objectids) this.known.clear();
    else for (const o of objectids) this.known.delete(o);
  }

  /**
   * Writes a prepared batch. Its statements are queued on the connection as soon as they can be formed rather than
   * each after the answer to the one before, so the server goes from one to the next without waiting for this
   * thread: the node merges, then the first edge slice's look-up (of endpoints that are not the batch's own nodes).
   */
  async write(nodes: readonly PreparedNodes[], edges: readonly PreparedEdges[], kinds: BatchKinds): Promise<void> {
    this.bound();
    const own = new Set<string>();
    const merges = nodes.map((slice) => {
      for (const o of slice.objectids) own.add(o);
      return this.q.query<{ o: string; id: number; k: number[] }>(SQL.MERGE_NODE_ROWS, [
        slice.objectids,
        slice.kinds.map((k) => kinds.list(k).text),
        `[${slice.properties.join(',')}]`,
      ]);
    });
    const merged = merges.length ? Promise.all(merges).then((all) => all.forEach((rows) => this.learn(rows))) : undefined;
    merged?.catch(() => undefined); // awaited by the first edge slice, or below
    // Statements reach the connection through a few promise hops: a turn sends the merges before the endpoint
    // sorting below holds this thread (~4 ms a batch, which the database spent waiting for them).
    if (merges.length) await nextTurn();
    for (const slice of edges) await this.edges(slice, kinds, merged, own);
    await merged;
  }

  private async edges(slice: PreparedEdges, kinds: BatchKinds, merged: Promise<void> | undefined, own: ReadonlySet<string>): Promise<void> {
    const ep = slice.endpoints;
    // Node ids by endpoint (0 while unknown: ids start at 1). A known endpoint that an edge would give a type is
    // still sent to the look-up, but its id is final already (a placeholder being typed keeps its id). The batch's
    // own nodes wait for the merges' answer instead.
    const idOf = new Float64Array(ep.objectids.length);
    const fresh: number[] = [];
    const merging: number[] = [];
    for (let i = 0; i < idOf.length; i++) {
      const o = ep.objectids[i]!;
      const known = this.known.get(o);
      if (known) idOf[i] = known.id;
      else if (own.has(o)) {
        merging.push(i);
        continue;
      }
      if (unresolved(known, kinds, ep.kinds[i]!)) fresh.push(i);
    }
    const resolve = (which: readonly number[]) =>
      this.q.query<{ o: string; id: number; k: number[] }>(SQL.RESOLVE_ENDPOINTS, [
        which.map((i) => ep.objectids[i]!),
        which.map((i) => kinds.list(ep.kinds[i]!).text),
        which.map((i) => ep.seen[i]!),
      ]);
    const resolving = fresh.length ? resolve(fresh) : undefined;
    resolving?.catch(() => undefined); // awaited below, after the merges
    // Likewise the look-up goes out before the encoding below.
    if (resolving) await nextTurn();
    // While the database merges and resolves, the rows whose endpoints are known already are encoded, so the COPY
    // below is fed at once and the database never waits for the encoder. Rows go in any order.
    const props = slice.propTexts.map((p) => Buffer.from(copyJsonText(p)));
    const rows = new EdgeCopyRows();
    const write = (j: number) => {
      const s = idOf[slice.start[j]!]!;
      const t = idOf[slice.end[j]!]!;
      if (!s || !t) return false;
      rows.add(s, t, kinds.columns[slice.kind[j]!]!, props[slice.props[j]!]!);
      return true;
    };
    const count = slice.start.length;
    const waiting = encode(undefined, count, write);
    // The rows of the batch's own nodes are encoded once the merges answer, while the look-up still runs.
    await merged;
    for (const i of merging) idOf[i] = this.known.get(ep.objectids[i]!)!.id;
    const unresolvedRows = encode(waiting, count, write);
    // A node of the batch an edge would give a type it lacks goes to the look-up after all (rare).
    const typing = merging.filter((i) => unresolved(this.known.get(ep.objectids[i]!), kinds, ep.kinds[i]!));
    const looked = [...fresh, ...typing];
    if (resolving) this.learn(await resolving);
    if (typing.length) this.learn(await resolve(typing));
    const missing = looked.map((i) => ep.objectids[i]!).filter((o) => !this.known.has(o));
    if (missing.length) this.learn(await this.q.query<{ o: string; id: number; k: number[] }>(SQL.LOCK_NODES, [missing]));
    for (const i of fresh) idOf[i] = this.known.get(ep.objectids[i]!)?.id ?? 0;
    // An endpoint that did not resolve even then was created by another writer and deleted again while this batch
    // resolved it (a node deleted earlier is simply created again): its edges cannot be written, and the file fails
    // rather than lose them.
    const lost = encode(unresolvedRows, count, write).length;
    if (lost) {
      throw conflict(
        'ingest',
        `${lost} edge(s) point at a node another writer deleted while this file was being written; nothing of the file was written: upload it again.`,
      );
    }
    const chunks = rows.chunks();
    if (!(this.direct && (await this.copyDirect(chunks)))) await this.mergeRows(chunks);
  }

  /**
   * Edges COPYed straight into graph_edges, optimistically: on a fresh graph (the first upload of a collection)
   * none exists yet, and this skips the staging COPY and ON CONFLICT's speculative insertion. A batch that meets
   * an existing edge fails on the unique index; it is rolled back to the savepoint and merged instead, and the rest
   * of the transaction merges (a re-upload of the same data would fail every batch).
   */
  private async copyDirect(chunks: readonly (string | Buffer)[]): Promise<boolean> {
    try {
      await this.q.copyFrom(SQL.COPY_GRAPH_EDGES_DIRECT, chunks);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      await this.q.query(SQL.ROLLBACK_TO);
      this.direct = false;
      return false;
    }
    return true;
  }

  /**
   * Edge rows by node id in COPY text: this thread's part of edgesById, so a caller can encode one batch while the
   * database writes the one before.
   */
  static encodeEdgesById(rows: readonly StagedEdgeById[]): string[] {
    return [...chunks(rows, (e) => `${e.startId}\t${e.endId}\t${e.kindId}\t${copyJson(e.properties)}\n`)];
  }

  /**
   * Writes rows encodeEdgesById made, staged and merged; when the caller knows none exists (`absent`: analysis
   * deleted every edge of their kinds), straight into the graph while no batch has met an existing edge.
   */
  async edgesById(encoded: readonly string[], absent: boolean): Promise<void> {
    if (!(absent && this.direct && (await this.copyDirect(encoded)))) await this.mergeRows(encoded);
  }

  /** Edge rows in COPY text (start, end, kind ids, properties) staged, then merged into the graph. */
  private async mergeRows(rows: Iterable<string | Buffer>): Promise<void> {
    if (!this.created) {
      await this.q.query(SQL.CREATE_STAGING);
      this.created = true;
    }
    await this.q.copyFrom(SQL.COPY_EDGES_BY_ID, rows);
    await this.q.query(SQL.MERGE_EDGES_BY_ID);
    await this.q.query(SQL.CLEAR_EDGES_BY_ID);
  }

  private learn(rows: readonly { o: string; id: number; k: number[] }[]): void {
    for (const r of rows) this.known.set(r.o, { id: r.id, k: r.k });
  }

  /**
   * Keeps memory flat however many nodes one file holds: past the bound the map starts over (the hubs that matter
   * are learned again by the next batch). Only ever between batches: an edge batch encodes its rows from what the
   * map holds, so emptying it in the middle of one would leave out the edges of endpoints it already knew.
   */
  private bound(): void {
    if (this.known.size > this.maxKnown) this.known.clear();
  }
}
