import type { EdgeScanBatch } from '../store.js';
import { EDGE_FLAGS_SQL } from './sql.js';

/** What the COPY scan needs of the database: `Database.copyOut` (false on PGlite over its socket, which cannot COPY). */
export interface CopyOutDb {
  copyOut?(sql: string, onChunk: (chunk: Buffer) => void): Promise<boolean>;
}

/** Edges per batch handed to the caller. */
const BATCH = 1 << 16;

/**
 * Every edge as start, end, kind and its flags (EDGE_FLAGS_SQL), in the table's physical order: ordering by id cost
 * PostgreSQL an index walk over the heap, and the path index sorts into rows itself.
 */
const COPY_EDGES = /* SQL */ `copy (
  select e.start_id, e.end_id, e.kind_id, ${EDGE_FLAGS_SQL.replace('$GPLINK', "(select id from graph_kinds where name = 'GPLink')")}
  from graph_edges e
) to stdout`;

/** Every edge as id, start, end and kind, in id order (~0.1 s more than the physical order for 2.3 M edges). */
const COPY_EDGE_IDS = /* SQL */ `copy (select e.id, e.start_id, e.end_id, e.kind_id from graph_edges e order by e.id) to stdout`;

/**
 * Parses COPY text rows of `columns` non-negative integers straight from the socket's buffers, with no string or
 * object per row: `onRow` gets each row's values in one reused array. State is kept across chunks (a row may be
 * split anywhere); `end` checks the output did not stop inside a row.
 */
function integerRows(columns: number, what: string, onRow: (values: Float64Array) => void) {
  const values = new Float64Array(columns);
  const last = columns - 1;
  let field = 0;
  let value = 0;
  return {
    chunk(chunk: Buffer): void {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i]!;
        const digit = c - 48;
        if (digit >= 0 && digit <= 9) {
          value = value * 10 + digit;
        } else if (c === 9 && field < last) {
          values[field++] = value;
          value = 0;
        } else if (c === 10 && field === last) {
          values[field] = value;
          onRow(values);
          field = 0;
          value = 0;
        } else {
          throw new Error(`${what}: unexpected byte ${c} in field ${field} of the COPY output (expected ${columns} integers per row)`);
        }
      }
    },
    end(): void {
      if (field !== 0 || value !== 0) throw new Error(`${what}: the COPY output ended inside a row`);
    },
  };
}

/**
 * Scans all edges with one `COPY … TO STDOUT` (text) into typed arrays: the paged `select` this replaces spent the
 * index build waiting for 40 sequential pages and building a pg row object per edge. Batches are handed over as the
 * stream arrives (the arrays are reused: a batch is valid only during its call). Resolves false when the database
 * cannot COPY (PGlite); the caller pages then.
 */
export async function scanEdgesByCopy(db: CopyOutDb, onBatch: (batch: EdgeScanBatch) => void): Promise<boolean> {
  if (!db.copyOut) return false;
  const start = new Float64Array(BATCH);
  const end = new Float64Array(BATCH);
  const kind = new Uint16Array(BATCH);
  const flags = new Uint8Array(BATCH);
  let n = 0;
  const flush = () => {
    if (n) onBatch({ start: start.subarray(0, n), end: end.subarray(0, n), kind: kind.subarray(0, n), flags: flags.subarray(0, n) });
    n = 0;
  };
  const rows = integerRows(4, 'graph edge scan', (v) => {
    start[n] = v[0]!;
    end[n] = v[1]!;
    kind[n] = v[2]!;
    flags[n] = v[3]!;
    if (++n === BATCH) flush();
  });
  if (!(await db.copyOut(COPY_EDGES, (chunk) => rows.chunk(chunk)))) return false;
  rows.end();
  flush();
  return true;
}

/**
 * Every edge whose kind id is marked in `kinds`, in id order, as id, start, end and kind id (one COPY; the kinds are
 * picked here so the statement stays a constant). Resolves false when the database cannot COPY.
 */
export async function scanEdgeIdsByCopy(
  db: CopyOutDb,
  kinds: Uint8Array,
  onEdge: (id: number, start: number, end: number, kind: number) => void,
): Promise<boolean> {
  if (!db.copyOut) return false;
  const rows = integerRows(4, 'graph edge id scan', (v) => {
    if (kinds[v[3]!] === 1) onEdge(v[0]!, v[1]!, v[2]!, v[3]!);
  });
  if (!(await db.copyOut(COPY_EDGE_IDS, (chunk) => rows.chunk(chunk)))) return false;
  rows.end();
  return true;
}
