/** Plain data shapes that cross the graph store boundary. */

export type Properties = Record<string, unknown>;

/** A node as ingest or analysis writes it: merged into an existing node with the same object id. */
export interface NodeInput {
  objectid: string;
  kinds: string[];
  properties: Properties;
}

/** An edge between two object ids; endpoints that do not exist yet are created with `startKind`/`endKind`. */
export interface EdgeInput {
  start: string;
  end: string;
  kind: string;
  properties: Properties;
  startKind?: string;
  endKind?: string;
}

export interface GraphNode {
  id: number;
  objectid: string;
  kinds: string[];
  properties: Properties;
}

export interface GraphEdge {
  id: number;
  startId: number;
  endId: number;
  kind: string;
  properties: Properties;
}

/** GraphNode under another name, for generated resolver types (the GraphQL type has the same name). */
export type GraphNodeModel = GraphNode;
