import type { Queryable } from '../../db/pool.js';
import type { PreparedBatch, PreparedEdges } from '../prepared.js';
import { BatchKinds, type Stager } from './bulk.js';
import * as SQL from './sql.js';

/** Rows per staged COPY and merge of edges by id (analysis): per-statement costs vanish, and the rows stream. */
export const COPY_BATCH = 20_000;
/** Rows per parameterised statement (embedded PGlite): one JSON parameter of a few MB at most. */
export const WRITE_BATCH = 5_000;

/**
 * Writes a prepared batch in the writer's transaction: through the bulk path on a real server, else as
 * parameterised statements (PGlite), nodes first. `kindIds` holds the store's id of each of the batch's kinds.
 */
export async function writePrepared(
  q: Queryable,
  bulk: Stager | undefined,
  batch: PreparedBatch,
  kindIds: readonly number[],
): Promise<void> {
  const kinds = new BatchKinds(kindIds);
  if (bulk) return bulk.write(batch.nodes, batch.edges, kinds);
  for (const slice of batch.nodes) {
    for (let i = 0; i < slice.objectids.length; i += WRITE_BATCH) {
      const rows: string[] = [];
      for (let j = i; j < Math.min(slice.objectids.length, i + WRITE_BATCH); j++) {
        rows.push(`{"o":${JSON.stringify(slice.objectids[j])},"k":[${kinds.list(slice.kinds[j]!).ids}],"p":${slice.properties[j]}}`);
      }
      await q.query(SQL.UPSERT_NODES, [`[${rows.join(',')}]`]);
    }
  }
  for (const slice of batch.edges) await writeEdgeRows(q, slice, kinds);
}

/** A slice's endpoints created or typed, then its edges merged, by object id. */
async function writeEdgeRows(q: Queryable, slice: PreparedEdges, kinds: BatchKinds): Promise<void> {
  const ep = slice.endpoints;
  const quoted = ep.objectids.map((o) => JSON.stringify(o));
  const endpoints = quoted.map((o, i) => `{"o":${o},"k":[${kinds.list(ep.kinds[i]!).ids}],"seen":${JSON.stringify(ep.seen[i])}}`);
  for (let i = 0; i < endpoints.length; i += WRITE_BATCH) {
    await q.query(SQL.ENSURE_ENDPOINTS, [`[${endpoints.slice(i, i + WRITE_BATCH).join(',')}]`]);
  }
  for (let i = 0; i < slice.start.length; i += WRITE_BATCH) {
    const rows: string[] = [];
    for (let j = i; j < Math.min(slice.start.length, i + WRITE_BATCH); j++) {
      const s = quoted[slice.start[j]!];
      const t = quoted[slice.end[j]!];
      rows.push(`{"s":${s},"t":${t},"k":${kinds.ids[slice.kind[j]!]},"p":${slice.propTexts[slice.props[j]!]}}`);
    }
    await q.query(SQL.UPSERT_EDGES, [`[${rows.join(',')}]`]);
  }
}
