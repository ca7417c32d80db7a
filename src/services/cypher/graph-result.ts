import type { QueryResult } from '../../cypher/engine.js';
import type { LiveGraph } from '../../cypher/graph/live-graph.js';
import { NodeV, PathV, RelV, toJson, type Value } from '../../cypher/execute/values.js';
import { primaryKind } from '../../graph/kinds.js';
import type { NodeReader } from '../graph/node-cache.js';

/** A node of a Cypher answer, as BloodHound's UnifiedNode has it (REST renders it keyed by `id`). */
export interface CypherNode {
  /** The store's node id. */
  id: number;
  objectId: string;
  /** BloodHound's `label`: the name, or the object id when the node has none. */
  label: string;
  name: string | null;
  /** The primary (display) kind. */
  kind: string;
  kinds: string[];
  isTierZero: boolean;
  isOwnedObject: boolean;
  lastSeen: string;
  properties: Record<string, unknown>;
}

export interface CypherEdge {
  /** The store ids of the ends. */
  source: number;
  target: number;
  kind: string;
  lastSeen: string;
  properties: Record<string, unknown>;
}

/** A scalar value a query returned: one per row and non-graph column, as BloodHound's literals. */
export interface CypherLiteral {
  key: string;
  value: unknown;
}

/** Which cap cut an answer, and at what. */
export interface Truncation {
  limit: 'rows' | 'nodes' | 'edges';
  cap: number;
}

export interface CypherResult {
  nodes: CypherNode[];
  edges: CypherEdge[];
  literals: CypherLiteral[];
  /** The table as the query returned it: graph elements as store ids (node, relationship: its ends and kind). */
  columns: string[];
  rows: unknown[][];
  truncated: Truncation[];
}

export interface ResultCaps {
  maxNodes: number;
  maxEdges: number;
}

/**
 * The answer of a query in BloodHound's shape: every node, relationship and path it returned (in any column, in
 * lists too) becomes the graph's nodes and edges, a relationship's ends included so the graph can be drawn; every
 * other value is a literal. Nodes and edges are read through the node memory, once each.
 */
export async function graphResult(
  r: QueryResult,
  graph: LiveGraph,
  reads: NodeReader,
  caps: ResultCaps,
  truncatedRows: Truncation[],
): Promise<CypherResult> {
  const index = graph.index;
  const nodeDense = new Set<number>();
  const rels = new Map<number, RelV>();
  const literals: CypherLiteral[] = [];
  const truncated = [...truncatedRows];
  const visit = (v: Value): boolean => {
    if (v instanceof NodeV) nodeDense.add(v.id);
    else if (v instanceof RelV) {
      rels.set(v.id, v);
      nodeDense.add(v.start).add(v.end);
    } else if (v instanceof PathV) {
      for (const n of v.nodes) nodeDense.add(n.id);
      for (const rel of v.rels) rels.set(rel.id, rel);
    } else if (Array.isArray(v) && v.length && v.every((x) => x instanceof NodeV || x instanceof RelV || x instanceof PathV)) {
      v.forEach(visit);
    } else return false;
    return true;
  };
  for (const row of r.rows) {
    row.forEach((v, i) => {
      if (!visit(v)) literals.push({ key: r.columns[i]!, value: toJson(v, element(graph)) });
    });
  }
  let nodeList = [...nodeDense];
  if (nodeList.length > caps.maxNodes) {
    nodeList = nodeList.slice(0, caps.maxNodes);
    truncated.push({ limit: 'nodes', cap: caps.maxNodes });
  }
  const kept = new Set(nodeList);
  let relList = [...rels.values()].filter((rel) => kept.has(rel.start) && kept.has(rel.end));
  if (relList.length > caps.maxEdges) {
    relList = relList.slice(0, caps.maxEdges);
    truncated.push({ limit: 'edges', cap: caps.maxEdges });
  }
  const [stored, storedEdges] = await Promise.all([
    reads.nodesByIds(nodeList.map((d) => index.dbId(d))),
    reads.edgesByTriples(relList.map((rel) => ({ startId: index.dbId(rel.start), endId: index.dbId(rel.end), kind: rel.type }))),
  ]);
  const now = new Date().toISOString();
  const nodes = stored.map((n): CypherNode => {
    const kinds = graph.labels(index.dense(n.id));
    const name = typeof n.properties.name === 'string' ? n.properties.name : null;
    const systemTags = typeof n.properties.system_tags === 'string' ? n.properties.system_tags : '';
    return {
      id: n.id,
      objectId: n.objectid,
      label: name ?? n.objectid,
      name,
      kind: typeof n.properties.primarykind === 'string' ? n.properties.primarykind : primaryKind(kinds),
      kinds,
      isTierZero: kinds.includes('Tag_Tier_Zero') || systemTags.includes('admin_tier_0'),
      isOwnedObject: kinds.includes('Tag_Owned') || systemTags.split(' ').includes('owned'),
      lastSeen: typeof n.properties.lastseen === 'string' ? n.properties.lastseen : now,
      properties: n.properties,
    };
  });
  const edges = storedEdges.map((e): CypherEdge => ({
    source: e.startId,
    target: e.endId,
    kind: e.kind,
    lastSeen: typeof e.properties.lastseen === 'string' ? e.properties.lastseen : now,
    properties: e.properties,
  }));
  const rows = r.rows.map((row) => row.map((v) => toJson(v, element(graph))));
  return { nodes, edges, literals, columns: r.columns, rows, truncated };
}

/** A graph element inside a table cell: its store id (a relationship: ends and kind; a path: its node ids). */
function element(graph: LiveGraph) {
  const index = graph.index;
  return (v: NodeV | RelV | PathV): unknown => {
    if (v instanceof NodeV) return index.dbId(v.id);
    if (v instanceof RelV) return { source: index.dbId(v.start), target: index.dbId(v.end), kind: v.type };
    return v.nodes.map((n) => index.dbId(n.id));
  };
}

/** Every node a result holds, as store ids: what a zone's Cypher seed picks. */
export function nodeIdsOf(r: QueryResult, graph: LiveGraph): number[] {
  const ids = new Set<number>();
  const visit = (v: Value): void => {
    if (v instanceof NodeV) ids.add(graph.index.dbId(v.id));
    else if (v instanceof RelV) ids.add(graph.index.dbId(v.start)).add(graph.index.dbId(v.end));
    else if (v instanceof PathV) for (const n of v.nodes) ids.add(graph.index.dbId(n.id));
    else if (Array.isArray(v)) v.forEach(visit);
  };
  for (const row of r.rows) row.forEach(visit);
  return [...ids];
}
