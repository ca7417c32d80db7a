import type { EdgeInput, NodeInput, Properties } from '../model.js';
import { copyJson, type NodeRows, type StagedEdge, type StagedEndpoint, type Stager } from './bulk.js';
import { boundProperties } from './bounds.js';
import { addEdgeKindNames, EdgeMerge, Endpoints, mergeNodes, sortedIds } from './merge.js';

/** Rows per COPY and merge (real server): large enough that per-statement costs vanish, small enough to stream. */
export const COPY_BATCH = 20_000;

/** Merged nodes and edges with their kind ids resolved and their rows encoded, in COPY-sized slices. */
export interface BulkBatch {
  nodes: NodeRows[];
  edges: { endpoints: StagedEndpoint[]; rows: StagedEdge[] }[];
}

/** Rows encoded between two turns of the event loop: the statements of the write in flight are answered promptly. */
const PREPARE_SLICE = 2_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A node and edge batch merged and encoded for the bulk path, or undefined when a kind has no id yet (that needs
 * the database). Runs while the previous batch is written, in slices, so its statements are answered promptly.
 */
export async function prepareBulk(
  nodes: NodeInput[] | undefined,
  edges: EdgeInput[],
  ids: Map<string, number>,
): Promise<BulkBatch | undefined> {
  const mergedNodes = nodes && mergeNodes(nodes);
  const merge = new EdgeMerge();
  for (let i = 0; i < edges.length; i++) {
    merge.add(edges[i]!);
    if (i % PREPARE_SLICE === PREPARE_SLICE - 1) await nextTurn();
  }
  const mergedEdges = merge.result(edges);
  const names = new Set<string>();
  for (let i = 0; i < mergedEdges.length; i++) {
    addEdgeKindNames(names, mergedEdges[i]!);
    if (i % PREPARE_SLICE === PREPARE_SLICE - 1) await nextTurn();
  }
  for (const n of mergedNodes ?? []) for (const k of n.kinds) names.add(k);
  for (const name of names) if (!ids.has(name)) return undefined;
  return bulkBatch(mergedNodes, mergedEdges, ids);
}

export async function bulkBatch(
  nodes: readonly NodeInput[] | undefined,
  edges: readonly EdgeInput[] | undefined,
  ids: Map<string, number>,
): Promise<BulkBatch> {
  const out: BulkBatch = { nodes: [], edges: [] };
  for (let i = 0; nodes && i < nodes.length; i += COPY_BATCH) {
    const rows: NodeRows = { o: [], k: [], p: [] };
    for (let j = i; j < Math.min(nodes.length, i + COPY_BATCH); j++) {
      const n = nodes[j]!;
      rows.o.push(n.objectid);
      rows.k.push(`{${sortedIds(n.kinds, ids).join(',')}}`);
      rows.p.push(JSON.stringify(boundProperties(n.properties)));
      if (j % PREPARE_SLICE === PREPARE_SLICE - 1) await nextTurn();
    }
    out.nodes.push(rows);
  }
  for (let i = 0; edges && i < edges.length; i += COPY_BATCH) {
    const batch = edges.slice(i, i + COPY_BATCH);
    const rows: StagedEdge[] = [];
    const endpoints = new Endpoints(ids);
    for (let j = 0; j < batch.length; j++) {
      const e = batch[j]!;
      rows.push({ start: e.start, end: e.end, kindId: ids.get(e.kind)!, props: edgeProps(e.properties) });
      endpoints.add(e);
      if (j % PREPARE_SLICE === PREPARE_SLICE - 1) await nextTurn();
    }
    out.edges.push({ endpoints: endpoints.list().map((p) => ({ objectid: p.o, kindIds: p.k, seen: p.seen })), rows });
  }
  return out;
}

/** Encodings of frozen (shared, never changed) property sets: converters share one object per repeated set. */
const encoded = new WeakMap<Properties, string>();

function edgeProps(p: Properties): string {
  if (!Object.isFrozen(p)) return copyJson(boundProperties(p));
  let text = encoded.get(p);
  if (text === undefined) encoded.set(p, (text = copyJson(boundProperties(p))));
  return text;
}

export async function sendBulk(bulk: Stager, batch: BulkBatch): Promise<void> {
  for (const lines of batch.nodes) await bulk.nodes(lines);
  for (const { endpoints, rows } of batch.edges) await bulk.edges(endpoints, rows);
}
