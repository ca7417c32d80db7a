import type { Queryable } from '../../db/pool.js';
import type { Properties } from '../model.js';
import { AppError, conflict } from '../../errors.js';
import * as SQL from './bulk-sql.js';

/**
 * The bulk write path of the PostgreSQL graph store: rows go into per-transaction staging tables with
 * `COPY … FROM STDIN`, then one set-based statement per batch merges them into the graph (kinds unioned, incoming
 * properties winning, placeholder endpoints created), which is what BloodHound's DAWGS does on PostgreSQL. Only on
 * a real server: PGlite's socket cannot carry COPY, so the store keeps its parameterised statements there.
 */

export interface StagedEndpoint {
  objectid: string;
  kindIds: number[];
  seen: unknown;
}

export interface StagedEdge {
  start: string;
  end: string;
  kindId: number;
  /** The properties as COPY text (copyJson), encoded when the batch was handed over. */
  props: string;
}

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
  if (v === null || v === undefined) return '\\N';
  // JSON text never holds a raw tab or line break (JSON.stringify escapes them): only backslashes need doubling.
  const json = JSON.stringify(v);
  return json.includes('\\') ? json.replace(BACKSLASHES, '\\\\') : json;
}

/** A text value as `jsonb_to_recordset` would give it: strings as they are, other values as JSON. */
function loose(v: unknown): string | null {
  return v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);
}

/** A batch of nodes as the merge's array parameters: object ids, kind id arrays as text, properties as JSON. */
export interface NodeRows {
  o: string[];
  k: string[];
  p: string[];
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
function unresolved(known: Known | undefined, kindIds: readonly number[]): boolean {
  // TYPE_PLACEHOLDERS only touches nodes with at most one kind that lack one of the edge's kinds.
  return !known || (known.k.length <= 1 && !kindIds.every((k) => known.k.includes(k)));
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

  /** Node rows already encoded, so that encoding can happen while the previous batch is written. */
  async nodes(rows: NodeRows): Promise<void> {
    this.bound();
    const properties = `[${rows.p.join(',')}]`;
    this.learn(await this.q.query<{ o: string; id: number; k: number[] }>(SQL.MERGE_NODE_ROWS, [rows.o, rows.k, properties]));
  }

  async edges(endpoints: readonly StagedEndpoint[], rows: readonly StagedEdge[]): Promise<void> {
    this.bound();
    const fresh = endpoints.filter((n) => unresolved(this.known.get(n.objectid), n.kindIds));
    const resolving = fresh.length
      ? this.q.query<{ o: string; id: number; k: number[] }>(SQL.RESOLVE_ENDPOINTS, [
          fresh.map((n) => n.objectid),
          fresh.map((n) => `{${n.kindIds.join(',')}}`),
          fresh.map((n) => loose(n.seen)),
        ])
      : undefined;
    // Rows by node id. While the database resolves the new endpoints, the rows whose endpoints are known already
    // (ids never change; a placeholder being typed keeps its id) are encoded, so the COPY below is fed at once and
    // the database never waits for the encoder.
    const lines: string[] = new Array<string>(rows.length);
    const waiting: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const line = this.line(rows[i]!);
      if (line) lines[i] = line;
      else waiting.push(i);
    }
    if (resolving) {
      const found = await resolving;
      this.learn(found);
      if (found.length < fresh.length) {
        const missing = fresh.filter((n) => !this.known.has(n.objectid)).map((n) => n.objectid);
        if (missing.length) this.learn(await this.q.query<{ o: string; id: number; k: number[] }>(SQL.LOCK_NODES, [missing]));
      }
    }
    // An endpoint that did not resolve even then was created by another writer and deleted again while this batch
    // resolved it (a node deleted earlier is simply created again): its edges cannot be written, and the file fails
    // rather than lose them.
    let lost = 0;
    for (const i of waiting) {
      const line = this.line(rows[i]!);
      if (line) lines[i] = line;
      else lost++;
    }
    if (lost) {
      throw conflict(
        'ingest',
        `${lost} edge(s) point at a node another writer deleted while this file was being written; nothing of the file was written: upload it again.`,
      );
    }
    if (!(this.direct && (await this.copyDirect(lines)))) await this.mergeById(lines, (l) => l);
  }

  /** An edge as a COPY line, or undefined while an endpoint's id is not known. */
  private line(e: StagedEdge): string | undefined {
    const s = this.known.get(e.start);
    const t = this.known.get(e.end);
    return s && t ? `${s.id}\t${t.id}\t${e.kindId}\t${e.props}\n` : undefined;
  }

  /**
   * Edges COPYed straight into graph_edges, optimistically: on a fresh graph (the first upload of a collection)
   * none exists yet, and this skips the staging COPY and ON CONFLICT's speculative insertion. A batch that meets
   * an existing edge fails on the unique index; it is rolled back to the savepoint and merged instead, and the rest
   * of the transaction merges (a re-upload of the same data would fail every batch).
   */
  private async copyDirect(lines: readonly string[]): Promise<boolean> {
    // The COPY is queued on the connection behind the savepoint rather than sent once this thread has seen the
    // savepoint's answer: the database goes from one to the other without waiting for a busy event loop.
    const savepoint = this.q.query(SQL.SAVEPOINT);
    const copying = this.q.copyFrom(
      SQL.COPY_GRAPH_EDGES,
      chunks(lines, (l) => l),
    );
    copying.catch(() => undefined); // awaited below, after the savepoint
    try {
      await savepoint;
      await copying;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      await this.q.query(SQL.ROLLBACK_TO);
      this.direct = false;
      return false;
    }
    await this.q.query(SQL.RELEASE);
    return true;
  }

  async edgesById(rows: readonly StagedEdgeById[]): Promise<void> {
    await this.mergeById(rows, (e) => `${e.startId}\t${e.endId}\t${e.kindId}\t${copyJson(e.properties)}\n`);
  }

  private async mergeById<T>(rows: readonly T[], encode: (row: T) => string): Promise<void> {
    await this.stage(SQL.COPY_EDGES_BY_ID, rows, encode);
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

  /** COPYs rows into a staging table, creating the tables on first use. */
  private async stage<T>(copy: string, rows: readonly T[], encode: (row: T) => string): Promise<void> {
    if (!this.created) {
      await this.q.query(SQL.CREATE_STAGING);
      this.created = true;
    }
    await this.q.copyFrom(copy, chunks(rows, encode));
  }
}
