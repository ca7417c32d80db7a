import type { Queryable } from '../../db/pool.js';
import type { Properties } from '../model.js';
import { AppError } from '../../errors.js';
import * as SQL from './bulk-sql.js';

/**
 * The bulk write path of the PostgreSQL graph store: rows go into per-transaction staging tables with
 * `COPY … FROM STDIN`, then one set-based statement per batch merges them into the graph (kinds unioned, incoming
 * properties winning, placeholder endpoints created), which is what BloodHound's DAWGS does on PostgreSQL. Only on
 * a real server: PGlite's socket cannot carry COPY, so the store keeps its parameterised statements there.
 */

export interface StagedNode {
  objectid: string;
  /** Distinct, ascending kind ids. */
  kindIds: number[];
  properties: Properties;
}

export interface StagedEndpoint {
  objectid: string;
  kindIds: number[];
  seen: unknown;
}

export interface StagedEdge {
  start: string;
  end: string;
  kindId: number;
  properties: Properties;
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

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
export function copyText(v: string): string {
  return NEEDS_ESCAPE.test(v) ? v.replace(ESCAPE_ALL, (c) => ESCAPES[c]!) : v;
}

function copyJson(v: unknown): string {
  return v === null || v === undefined ? '\\N' : copyText(JSON.stringify(v));
}

/** A text column fed what `jsonb_to_recordset` would give for it: strings as they are, other values as JSON. */
function copyLoose(v: unknown): string {
  return typeof v === 'string' ? copyText(v) : copyJson(v);
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

/** The staging tables of one write transaction (dropped at commit), created on first use. */
export class Stager {
  private created = false;
  /** Whether edges may still be COPYed straight into the graph (see copyDirect). */
  private direct = true;

  constructor(private readonly q: Queryable & { copyFrom: NonNullable<Queryable['copyFrom']> }) {}

  static for(q: Queryable): Stager | undefined {
    return q.copyFrom ? new Stager(q as Queryable & { copyFrom: NonNullable<Queryable['copyFrom']> }) : undefined;
  }

  async nodes(rows: readonly StagedNode[]): Promise<void> {
    await this.ready();
    await this.q.copyFrom(
      SQL.COPY_NODES,
      chunks(rows, (n) => `${copyText(n.objectid)}\t{${n.kindIds.join(',')}}\t${copyJson(n.properties)}\n`),
    );
    await this.q.query(SQL.MERGE_NODES);
    await this.q.query(SQL.CLEAR_NODES);
  }

  async edges(endpoints: readonly StagedEndpoint[], rows: readonly StagedEdge[]): Promise<void> {
    await this.ready();
    await this.q.copyFrom(
      SQL.COPY_ENDPOINTS,
      chunks(endpoints, (n) => `${copyText(n.objectid)}\t{${n.kindIds.join(',')}}\t${copyLoose(n.seen)}\n`),
    );
    // Placeholders are typed before new endpoints are created, so the update never visits rows just inserted.
    await this.q.query(SQL.TYPE_PLACEHOLDERS);
    await this.q.query(SQL.CREATE_ENDPOINTS);
    if (!(this.direct && (await this.copyDirect(rows)))) {
      await this.q.copyFrom(
        SQL.COPY_EDGES,
        chunks(rows, (e) => `${copyText(e.start)}\t${copyText(e.end)}\t${e.kindId}\t${copyJson(e.properties)}\n`),
      );
      await this.q.query(SQL.MERGE_EDGES);
    }
    await this.q.query(SQL.CLEAR_EDGES);
  }

  /**
   * Edges COPYed straight into graph_edges, optimistically: on a fresh graph (the first upload of a collection)
   * none exists yet, and this skips the staging COPY, the join and ON CONFLICT's speculative insertion. A batch
   * that meets an existing edge fails on the unique index; it is rolled back to the savepoint and merged instead,
   * and the rest of the transaction merges (a re-upload of the same data would fail every batch).
   */
  private async copyDirect(rows: readonly StagedEdge[]): Promise<boolean> {
    const ids = new Map<string, number>();
    for (const r of await this.q.query<{ o: string; id: number }>(SQL.ENDPOINT_IDS)) ids.set(r.o, r.id);
    await this.q.query(SQL.SAVEPOINT);
    try {
      await this.q.copyFrom(
        SQL.COPY_GRAPH_EDGES,
        chunks(rows, (e) => {
          const s = ids.get(e.start);
          const t = ids.get(e.end);
          return s === undefined || t === undefined ? '' : `${s}\t${t}\t${e.kindId}\t${copyJson(e.properties)}\n`;
        }),
      );
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
    await this.ready();
    await this.q.copyFrom(
      SQL.COPY_EDGES_BY_ID,
      chunks(rows, (e) => `${e.startId}\t${e.endId}\t${e.kindId}\t${copyJson(e.properties)}\n`),
    );
    await this.q.query(SQL.MERGE_EDGES_BY_ID);
    await this.q.query(SQL.CLEAR_EDGES_BY_ID);
  }

  private async ready(): Promise<void> {
    if (this.created) return;
    await this.q.query(SQL.CREATE_STAGING);
    this.created = true;
  }
}
