import type { Queryable } from '../db/pool.js';
import type { EdgeInput, GraphEdge, GraphNode, NodeInput, Properties } from './model.js';
import type { PreparedBatch } from './prepared.js';

/** Writes to the graph, inside one transaction of `GraphStore.write`. */
export interface GraphWriter {
  /**
   * The transaction itself, for callers that record their own rows atomically with the graph writes. Not for
   * writing graph rows: the writer remembers the node ids and kinds it has written for the rest of the transaction.
   */
  readonly tx: Queryable;
  /** Merges nodes by object id: kinds are unioned, incoming properties win. */
  upsertNodes(nodes: NodeInput[]): Promise<void>;
  /** Merges edges by (start, end, kind); endpoints that do not exist are created as placeholders. */
  upsertEdges(edges: EdgeInput[]): Promise<void>;
  /**
   * Writes a batch merged and encoded elsewhere (a worker thread) as upsertNodes then upsertEdges would. Present
   * only where the store has a bulk path: a caller without it converts on its own thread and calls those.
   */
  writePrepared?: (batch: PreparedBatch) => Promise<void>;
  /**
   * Adds edges between nodes known by id, in batches as the iterable yields them, without merging the list by
   * object id first (analysis writes millions of derived edges this way). An edge already present gets its
   * properties merged, incoming winning. With `absent`, the caller knows none exists (it deleted their kinds in
   * this transaction): they go straight into the table, with no merge unless one does exist after all. With
   * `properties`, every edge is written with these over its own (analysis's lastseen: the caller can hand over
   * edge objects it keeps anyway instead of a copy of each). Returns the number of edges written.
   */
  insertEdgesByNodeId(edges: Iterable<EdgeById>, opts?: EdgesByIdOptions): Promise<number>;
  /** Ids of nodes by object id as this transaction sees them; unknown ids are absent. */
  nodeIds(objectids: readonly string[]): Promise<Map<string, number>>;
  deleteNodes(objectids: string[]): Promise<number>;
  deleteEdgesOfKinds(kinds: readonly string[]): Promise<number>;
  /** Deletes every node and edge (clear-database's "all collected graph data"). */
  clearAll(): Promise<void>;
  /**
   * Deletes the nodes that have any of `kinds`, and with `sourcelessExcept` also those that have none of those
   * kinds (BloodHound's "sourceless" data), with every edge touching them. Returns the nodes deleted.
   */
  deleteNodesOfKinds(kinds: readonly string[], sourcelessExcept?: readonly string[]): Promise<number>;
  /** Takes a kind off every node that has it (re-tagging starts from nothing). */
  removeKindEverywhere(kind: string): Promise<number>;
  /** Replaces every recorded derived-edge source (analysis's explanations, see src/analysis/explain.ts). */
  replaceEdgeSources(rows: readonly EdgeSourceRow[]): Promise<void>;
  removePropertyEverywhere(key: string): Promise<number>;
}

/** What a derived edge came from: the edges (by node ids and kind) analysis derived it from. */
export interface EdgeSourceRow {
  startId: number;
  endId: number;
  kind: string;
  parts: [startId: number, endId: number, kind: string][];
}

export interface EdgeById {
  startId: number;
  endId: number;
  kind: string;
  properties: Properties;
}

/** How insertEdgesByNodeId writes (see there). */
export interface EdgesByIdOptions {
  absent?: boolean;
  properties?: Properties;
}

export interface NodeScanRow {
  id: number;
  objectid: string;
  kinds: string[];
  /** Only the property keys asked for. */
  properties: Properties;
}

/** One batch of edges as parallel arrays (kind ids resolve through `kindName`). */
export interface EdgeScanBatch {
  start: ArrayLike<number>;
  end: ArrayLike<number>;
  kind: ArrayLike<number>;
  /** EDGE_FLAG bits */
  flags: ArrayLike<number>;
}

/** Bits of an edge's flags in scans and the path index. */
export const EDGE_FLAG = {
  gplinkEnforced: 1,
  /** The isacl property: true, false, or present with a value of another type (no bit: absent or null). */
  isaclTrue: 2,
  isaclFalse: 4,
  isaclOther: 8,
} as const;

export interface NodeSummary {
  id: number;
  objectid: string;
  name: string | null;
  kinds: string[];
}

export interface EdgeTriple {
  startId: number;
  endId: number;
  kind: string;
}

/**
 * Where the graph lives. Only PostgreSQL (src/graph/pg) implements it today; everything above it (ingest,
 * analysis, the path index, entity queries) is written against this interface so that another store (Neo4j,
 * see docs/operations.md) can sit here without touching them.
 */
export interface GraphStore {
  readonly name: 'postgres';
  /**
   * Runs `fn` atomically and bumps the graph generation when it returns. Inside `fn`, use only the writer: on
   * embedded PGlite every other connection waits for this transaction, so a read through the store would deadlock.
   */
  write<T>(fn: (w: GraphWriter) => Promise<T>): Promise<T>;
  /** Increases on every committed change; path indexes compare it to know they are stale. */
  generation(): Promise<number>;
  /** Nodes and edges of the graph; `edgesExcept` leaves out the edges of those kinds. */
  counts(opts?: { edgesExcept?: readonly string[] }): Promise<{ nodes: number; edges: number }>;
  nodeByObjectId(objectid: string): Promise<GraphNode | undefined>;
  nodesByIds(ids: readonly number[]): Promise<GraphNode[]>;
  /** Ids of the nodes that have any of the kinds. */
  nodeIdsWithKinds(kinds: readonly string[]): Promise<number[]>;
  /** Nodes for upper-cased object ids; unknown ids are simply absent from the result. */
  nodesByObjectIds(objectids: readonly string[]): Promise<GraphNode[]>;
  /** Id, object id, name and kinds only (sorting and paging lists without loading properties). */
  nodeSummaries(ids: readonly number[]): Promise<NodeSummary[]>;
  edgesByTriples(triples: readonly EdgeTriple[]): Promise<GraphEdge[]>;
  /**
   * Every edge of the given kinds (analysis inputs) with its properties; with `propertiesOf`, only the edges of
   * those kinds carry them, the others an empty frozen object (analysis reads three kinds' properties, and the
   * rest's JSON was most of its load: ~1.5 M edges at tier M).
   */
  edgesOfKinds(kinds: readonly string[], propertiesOf?: readonly string[]): Promise<GraphEdge[]>;
  /**
   * One property of every node that has it, as two parallel lists (the Cypher engine's property columns: one read per
   * key and graph generation). `objectid` reads the identity column.
   */
  nodePropertyColumn(key: string): Promise<{ ids: number[]; values: unknown[] }>;
  /** One property of every edge that has it, by start, end and kind (the Cypher engine's relationship columns). */
  edgePropertyColumn(key: string): Promise<{ starts: number[]; ends: number[]; kinds: string[]; values: unknown[] }>;
  scanNodes(propertyKeys: readonly string[], onBatch: (rows: NodeScanRow[]) => void): Promise<void>;
  scanEdges(onBatch: (batch: EdgeScanBatch) => void): Promise<void>;
  /** Names of kind ids seen in scans (after a scan, or from the kind table). */
  kindNames(): Promise<Map<number, string>>;
  /**
   * All shortest paths by the store's own query (recursive SQL / Cypher), outbound, over `kinds` (all when null),
   * at most `maxDepth` hops: the reference the in-memory index is tested against. Requests never use it: the
   * in-memory index answers them.
   */
  /** The recorded sources of one derived edge; undefined when analysis recorded none. */
  edgeSources(startId: number, endId: number, kind: string): Promise<EdgeTriple[] | undefined>;
  /** Edges of the kinds ending at a node (a domain's ESC edges). */
  edgesInto(endId: number, kinds: readonly string[]): Promise<GraphEdge[]>;
  allShortestPaths(startId: number, endId: number, kinds: readonly string[] | null, maxDepth: number): Promise<EdgeTriple[][]>;
}
