import type { EdgeFieldsFragment, NodeFieldsFragment } from '../../generated/graphql';

/** A node as the app holds it: keyed by the store's node id (what edges point at). */
export interface GNode {
  key: string;
  objectId: string;
  name: string;
  kinds: string[];
  /** The primary display kind (User, Group, …, or a custom kind). */
  kind: string;
  properties: Record<string, unknown>;
}

export interface GEdge {
  key: string;
  source: string;
  target: string;
  kind: string;
  properties: Record<string, unknown>;
}

/** A result to draw: nodes and the edges between them. */
export interface ExploreGraph {
  nodes: GNode[];
  edges: GEdge[];
  /** Fetched without properties (a Cypher answer): panels and the export fetch them when needed. */
  propertiesOmitted?: boolean;
}

export const EMPTY_GRAPH: ExploreGraph = { nodes: [], edges: [] };

const props = (p: unknown): Record<string, unknown> =>
  p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};

export function nodeFromApi(n: NodeFieldsFragment): GNode {
  return {
    key: String(n.id),
    objectId: n.objectId,
    name: n.name || n.objectId,
    kinds: n.kinds,
    kind: n.label,
    properties: props(n.properties),
  };
}

export function edgeFromApi(e: EdgeFieldsFragment): GEdge {
  return { key: String(e.id), source: String(e.source), target: String(e.target), kind: e.kind, properties: props(e.properties) };
}

/** A graph from the API's nodes and edges; edges whose ends are not among the nodes are left out. */
export function graphFromApi(nodes: readonly NodeFieldsFragment[], edges: readonly EdgeFieldsFragment[]): ExploreGraph {
  const ns = nodes.map(nodeFromApi);
  const keys = new Set(ns.map((n) => n.key));
  return { nodes: ns, edges: edges.map(edgeFromApi).filter((e) => keys.has(e.source) && keys.has(e.target)) };
}

/** The union of two graphs, nodes and edges once each by key (the second's copy wins). */
export function mergeGraphs(a: ExploreGraph, b: ExploreGraph): ExploreGraph {
  const nodes = new Map(a.nodes.map((n) => [n.key, n]));
  for (const n of b.nodes) nodes.set(n.key, n);
  const edges = new Map(a.edges.map((e) => [e.key, e]));
  for (const e of b.edges) edges.set(e.key, e);
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** The export format: what is drawn, as plain JSON (nodes with their object ids, edges by node key). */
export function exportJson(g: ExploreGraph): string {
  return JSON.stringify(
    {
      nodes: g.nodes.map((n) => ({
        id: n.key,
        objectId: n.objectId,
        name: n.name,
        kind: n.kind,
        kinds: n.kinds,
        properties: n.properties,
      })),
      edges: g.edges.map((e) => ({ id: e.key, source: e.source, target: e.target, kind: e.kind, properties: e.properties })),
    },
    null,
    2,
  );
}
