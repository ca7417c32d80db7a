import type { Queryable } from '../../db/pool.js';
import { nextTurn } from '../../next-turn.js';
import type { EdgeById, EdgesByIdOptions } from '../store.js';
import { Stager } from './bulk.js';
import { uniqueById } from './merge.js';
import * as SQL from './sql.js';
import { COPY_BATCH, WRITE_BATCH } from './write-prepared.js';

/** Edges gathered or encoded between two turns of the event loop. */
const GATHER_SLICE = 8_192;

/**
 * The writer's insertEdgesByNodeId (see GraphWriter): edges between nodes known by id, in batches as `edges`
 * yields them. With a bulk path (a server), COPY: straight into graph_edges when the caller says none exists
 * (`absent`), else staged and merged; on PGlite, parameterised upserts. Returns the number of edges written.
 */
export async function insertEdgesByNodeId(
  q: Queryable,
  bulk: Stager | undefined,
  kindIds: (names: Iterable<string>) => Promise<Map<string, number>>,
  edges: Iterable<EdgeById>,
  opts: EdgesByIdOptions,
): Promise<number> {
  // Properties over each edge's own are merged as a slice is encoded, so the merged object dies young.
  const extra = opts.properties;
  const props = extra ? (e: EdgeById) => ({ ...e.properties, ...extra }) : (e: EdgeById) => e.properties;
  let written = 0;
  let batch: EdgeById[] = [];
  // One batch is written while the next is gathered and encoded (this thread's part: ~0.7 s of tier M's 600k
  // derived edges, which the database spent waiting when each batch went out after the last).
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const rows = uniqueById(batch);
    batch = [];
    const ids = await kindIds(rows.map((e) => e.kind));
    written += rows.length;
    if (bulk) {
      const encoded: string[] = [];
      for (let i = 0; i < rows.length; i += GATHER_SLICE) {
        if (i) await nextTurn();
        const slice = rows.slice(i, i + GATHER_SLICE);
        const staged = slice.map((e) => ({ startId: e.startId, endId: e.endId, kindId: ids.get(e.kind)!, properties: props(e) }));
        for (const c of Stager.encodeEdgesById(staged)) encoded.push(c);
      }
      await writing;
      writing = bulk.edgesById(encoded, opts.absent ?? false);
      writing.catch(() => undefined); // awaited by the next flush or below
    } else {
      await q.query(SQL.UPSERT_EDGES_BY_ID, [
        rows.map((e) => e.startId),
        rows.map((e) => e.endId),
        rows.map((e) => ids.get(e.kind)!),
        rows.map((e) => JSON.stringify(props(e))),
      ]);
    }
  };
  let gathered = 0;
  for (const e of edges) {
    batch.push(e);
    if (batch.length >= (bulk ? COPY_BATCH : WRITE_BATCH)) await flush();
    // Analysis writes this way from the thread that answers requests, while its rules run: a batch is gathered
    // and encoded in slices (a whole one held the loop for ~100 ms at tier M).
    else if (++gathered % GATHER_SLICE === 0) await nextTurn();
  }
  if (batch.length) await flush();
  await writing;
  return written;
}
