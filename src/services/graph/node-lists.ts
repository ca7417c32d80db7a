import type { GraphIndex } from '../../graph/index/graph-index.js';
import { primaryKind } from '../../graph/kinds.js';
import type { GraphEdge, GraphNode } from '../../graph/model.js';
import type { EdgeTriple, NodeSummary } from '../../graph/store.js';
import { whenReady, type MaybePromise } from '../../maybe-promise.js';
import type { NodeReader } from './node-cache.js';
import { badRequest, notFound } from '../../errors.js';
import { paging, sortInput, sortKeys, type Paging, type SortKey } from '../common/paging.js';

/**
 * What the entity lists (entities.ts) and endpoints 8 and 11 (graph.ts) share: finding the root node, paging and
 * sorting the nodes a traversal found, and loading a traversal's subgraph from the store.
 */

export interface NodeListEntry {
  objectId: string;
  name: string;
  label: string;
  kinds: string[];
}

export interface NodeList {
  totalCount: number;
  skip: number;
  limit: number;
  nodes: NodeListEntry[];
}

export interface ListInput {
  skip?: number | null;
  limit?: number | null;
  sortBy?: readonly { column: NodeSortColumn; descending?: boolean | null }[] | null;
}

export type NodeSortColumn = 'name' | 'objectid' | 'label';
const SORTABLE: readonly NodeSortColumn[] = ['name', 'objectid', 'label'];

/** The sortable columns, GraphQL's NodeSortColumn (src/services/common/enums.ts): each name is its column's. */
export const NODE_SORT_COLUMN = Object.fromEntries(SORTABLE.map((c) => [c, c])) as { [C in NodeSortColumn]: C };

/** REST's repeatable sort_by (`name`, `-name`); GraphQL takes {column, descending} with the column an enum. */
export const nodeSortKeys = (context: string, values: readonly string[]) => sortKeys(context, values, SORTABLE);

/** The node with an object id (case-insensitive); 404 unless it has `kind` when one is given. */
export function findNode(store: NodeReader, context: string, objectId: string, kind?: string): MaybePromise<GraphNode> {
  const id = objectId.trim();
  if (!id) throw badRequest(context, 'object_id is required.');
  return whenReady(store.nodeByObjectId(id.toUpperCase()), (node) => {
    if (!node || (kind && !node.kinds.includes(kind))) {
      throw notFound(context, kind ? `No ${kind} with object id ${id} was found.` : `No node with object id ${id} was found.`);
    }
    return node;
  });
}

export interface ListRequest {
  page: Paging;
  sort: SortKey<NodeSortColumn>[];
}

/** The page and order a list request asks for, checked before anything is looked up (its 400s come first). */
export function listRequest(context: string, input: ListInput): ListRequest {
  return { page: paging(context, input, { limit: 10, max: 1000 }), sort: sortInput(input.sortBy) };
}

/** The nodes a traversal found (dense ids), sorted (newest node first unless `sort`) and paged. */
export function nodePage(nodes: NodeReader, index: GraphIndex, found: Iterable<number>, req: ListRequest): MaybePromise<NodeList> {
  return whenReady(nodes.nodeSummaries([...found].map((d) => index.dbId(d))), (summaries) => pageOf(summaries, req));
}

function pageOf(summaries: readonly NodeSummary[], req: ListRequest): NodeList {
  const { page } = req;
  const entries = summaries.map((s) => ({
    id: s.id,
    objectId: s.objectid,
    name: s.name ?? '',
    label: primaryKind(s.kinds),
    kinds: s.kinds,
  }));
  entries.sort(comparator(req.sort));
  return {
    totalCount: entries.length,
    skip: page.skip,
    limit: page.limit,
    nodes: entries.slice(page.skip, page.skip + page.limit).map(({ id: _id, ...rest }) => rest),
  };
}

function comparator(sort: SortKey<NodeSortColumn>[]) {
  const value = (e: NodeListEntry, c: NodeSortColumn) => (c === 'name' ? e.name : c === 'objectid' ? e.objectId : e.label);
  return (a: NodeListEntry & { id: number }, b: NodeListEntry & { id: number }) => {
    for (const k of sort) {
      const d = value(a, k.column).localeCompare(value(b, k.column));
      if (d) return k.descending ? -d : d;
    }
    return b.id - a.id; // BloodHound's order: newest node first; also makes every order stable
  };
}

/** Nodes and edges as typed values (GraphQL `Graph`). */
export interface TypedGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/**
 * The nodes and edges of a traversal's answer (dense node ids, edge positions), loaded from the store; `rootId`
 * (a database id) is included even when the traversal found nothing.
 */
export async function typedSubgraph(
  reads: NodeReader,
  index: GraphIndex,
  nodeDense: Iterable<number>,
  edgePositions: Iterable<number>,
  rootId?: number,
): Promise<TypedGraph> {
  const triples: EdgeTriple[] = [...edgePositions].map((p) => ({
    startId: index.dbId(index.edgeStart(p)),
    endId: index.dbId(index.outTargets[p]!),
    kind: index.edgeKindName(index.outKinds[p]!),
  }));
  const ids = new Set([...nodeDense].map((d) => index.dbId(d)));
  if (rootId !== undefined) ids.add(rootId);
  for (const t of triples) ids.add(t.startId).add(t.endId);
  // Through the node memory: a path or list graph asked again, or sharing its hubs with one just shown, reads none
  // of them again.
  const [nodes, edges] = await Promise.all([reads.nodesByIds([...ids]), reads.edgesByTriples(triples)]);
  return { nodes, edges };
}
