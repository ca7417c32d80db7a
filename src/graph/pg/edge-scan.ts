import type { EdgeScanBatch } from '../store.js';

/** What the COPY scan needs of the database: `Database.copyOut` (false on PGlite, which cannot COPY). */
export interface CopyOutDb {
  copyOut?(sql: string, onChunk: (chunk: Buffer) => void): Promise<boolean>;
}

/** Edges per batch handed to the caller. */
const BATCH = 1 << 16;

/**
 * Every edge as start, end, kind and the GPLink-enforced flag (bit 0), in the table's physical order: ordering by
 * id cost PostgreSQL an index walk over the heap, and the path index sorts into rows itself.
 */
const COPY_EDGES = /* SQL */ `copy (
  select e.start_id, e.end_id, e.kind_id,
         case when e.kind_id = (select id from graph_kinds where name = 'GPLink') and (e.properties ->> 'enforced')::boolean then 1 else 0 end
  from graph_edges e
) to stdout`;

/**
 * Scans all edges with one `COPY … TO STDOUT` (text), parsing the integers straight from the socket's buffers into
 * typed arrays: the paged `select` this replaces spent the index build waiting for 40 sequential pages and
 * building a pg row object per edge. Batches are handed over as the stream arrives (the arrays are reused: a batch
 * is valid only during its call). Resolves false when the database cannot COPY (PGlite); the caller pages then.
 */
export async function scanEdgesByCopy(db: CopyOutDb, onBatch: (batch: EdgeScanBatch) => void): Promise<boolean> {
  if (!db.copyOut) return false;
  const start = new Float64Array(BATCH);
  const end = new Float64Array(BATCH);
  const kind = new Uint16Array(BATCH);
  const flags = new Uint8Array(BATCH);
  let n = 0;
  // Parser state, kept across chunks: a row may be split anywhere.
  let field = 0;
  let value = 0;
  let s = 0;
  let t = 0;
  let k = 0;
  const flush = () => {
    if (n) onBatch({ start: start.subarray(0, n), end: end.subarray(0, n), kind: kind.subarray(0, n), flags: flags.subarray(0, n) });
    n = 0;
  };
  const copied = await db.copyOut(COPY_EDGES, (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      const digit = c - 48;
      if (digit >= 0 && digit <= 9) {
        value = value * 10 + digit;
      } else if (c === 9 && field < 3) {
        if (field === 0) s = value;
        else if (field === 1) t = value;
        else k = value;
        field++;
        value = 0;
      } else if (c === 10 && field === 3) {
        start[n] = s;
        end[n] = t;
        kind[n] = k;
        flags[n] = value;
        field = 0;
        value = 0;
        if (++n === BATCH) flush();
      } else {
        throw new Error(`graph edge scan: unexpected byte ${c} in field ${field} of the COPY output (expected four integers per row)`);
      }
    }
  });
  if (!copied) return false;
  if (field !== 0 || value !== 0) throw new Error('graph edge scan: the COPY output ended inside a row');
  flush();
  return true;
}
