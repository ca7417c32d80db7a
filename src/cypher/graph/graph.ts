import type { Direction } from '../model/ast.js';
import type { MapValue, RelV, Value } from '../execute/values.js';

/**
 * One step from a node: the relationship and the node at its other end. A graph may hand out the same object for
 * each step of one expansion: read it before asking for the next (the relationship value itself is the caller's).
 */
export interface Step {
  rel: RelV;
  other: number;
}

/**
 * The narrow graph the executor reads: nodes by id (non-negative integers), their labels and properties, the
 * relationships at a node. Two implementations: the live graph (the in-memory path index plus property columns
 * read from PostgreSQL) and the in-memory graph of the TCK.
 *
 * A read that needs data not in memory yet may throw `NeedData`: the executor waits for it and evaluates again,
 * so property columns load once on first use and the executor itself stays synchronous.
 */
export interface CypherGraph {
  /** Every node, in id order. */
  nodes(): Iterable<number>;
  nodeCount(): number;
  /** The nodes that have a label (none for a label the graph has never seen). */
  nodesWithLabel(label: string): Iterable<number>;
  /** How many nodes have a label, for the planner (an estimate is enough). */
  labelCount(label: string): number;
  hasLabel(node: number, label: string): boolean;
  labels(node: number): string[];
  nodeProperty(node: number, key: string): Value;
  nodeProperties(node: number): MapValue;
  /**
   * The relationships of a node in a direction, of the given types (any when null). `skip(other, rel)` may leave
   * out relationships the caller would reject anyway, before a value is built for them (a graph may ignore it).
   */
  expand(
    node: number,
    direction: Direction,
    types: readonly string[] | null,
    skip?: (other: number, rel: number) => boolean,
  ): Iterable<Step>;
  /** How many relationships a node has in a direction (the planner's and the analyzer's estimate). */
  degree(node: number, direction: Direction): number;
  relProperty(rel: RelV, key: string): Value;
  relProperties(rel: RelV): MapValue;
  /**
   * Loads, before a run, what the query is known to read: the property columns of `keys` (and whole property maps
   * when `allProperties`). Optional: a graph that holds everything in memory has nothing to load.
   */
  prepare?(keys: readonly string[], allProperties: boolean): Promise<void>;
  /**
   * Nodes whose property equals a value, when the graph can answer it without a scan (objectid, name); undefined
   * when it cannot (the planner scans then).
   */
  nodesByProperty?(key: string, value: Value): number[] | undefined;
  /**
   * Facts held for every element with nothing to load, for rejecting relationships of a scan cheaply: a node's
   * domainsid as a number equal for equal strings (-1: not a string, ask `nodeProperty`), and a relationship
   * property the graph carries (undefined: not carried for this key or relationship, ask `relProperty`).
   */
  domainNumber?(node: number): number;
  carriedRelProperty?(rel: number, key: string): Value | undefined;
  /**
   * One breadth-first search from `source` over relationships of the given types, when the graph has a faster one
   * than the executor's (the live graph's, over its typed arrays): shortest paths to every reached node at once.
   */
  reach?(source: number, direction: Direction, types: readonly string[] | null, maxDepth: number): Reach;
  /**
   * All shortest paths from `source` to `target` when the graph has a faster search than the executor's own
   * breadth-first one (the path index's, outbound only). undefined: not for this shape.
   */
  shortestPaths?(
    source: number,
    target: number,
    direction: Direction,
    types: readonly string[] | null,
    maxDepth: number,
    maxPaths: number,
  ): RelV[][] | undefined;
}

/** A breadth-first search from one node: each reached node's distance, and the nodes in the order reached. */
export interface Reach {
  /** Hops from the source; -1 where not reached. */
  dist: Int32Array;
  order: Int32Array;
  /** Shortest paths from the source to a reached node (at most `max`), as relationships source → node. */
  paths(node: number, max: number): RelV[][];
}

/** Thrown by a graph read whose data is still to be loaded; the executor awaits `ready` and evaluates again. */
export class NeedData {
  constructor(readonly ready: Promise<void>) {}
}

/** A graph the TCK's set-up writes to (the in-memory graph); the service's graph has no write path. */
export interface WritableGraph extends CypherGraph {
  createNode(labels: readonly string[], properties: MapValue): number;
  createRelationship(start: number, end: number, type: string, properties: MapValue): RelV;
}

export const isWritable = (g: CypherGraph): g is WritableGraph => typeof (g as Partial<WritableGraph>).createNode === 'function';
