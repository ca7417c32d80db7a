import type { GraphIndex, Side } from './graph-index.js';

export interface PathSearch {
  /** Allowed edge kinds (table over kind ids); null = every kind. */
  kinds: Uint8Array | null;
  /** Longest path considered. @default 15 */
  maxDepth?: number;
  /** Most paths returned; more set `truncated`. @default 1000 */
  maxPaths?: number;
}

export interface PathResult {
  /** Each path as positions in the index's out arrays (edges), start to end. */
  paths: Int32Array[];
  truncated: boolean;
  /** Hops of the shortest paths (0 when none). */
  length: number;
}

/**
 * All shortest paths from `s` to `t`, outbound, over the allowed kinds (Neo4j's allShortestPaths semantics).
 *  1. Bidirectional breadth-first search, always expanding the smaller frontier, one whole level at a time, until
 *     the two searches meet: the meeting level fixes the shortest length D.
 *  2. Keep only nodes on some shortest path: walking back from the meeting nodes through the BFS levels.
 *  3. Enumerate paths through those nodes only, stopping at `maxPaths`.
 * Parallel edges of different kinds are different paths.
 */
export function allShortestPaths(index: GraphIndex, s: number, t: number, opts: PathSearch): PathResult {
  const maxDepth = opts.maxDepth ?? 15;
  const maxPaths = opts.maxPaths ?? 1000;
  const kinds = opts.kinds;
  const none: PathResult = { paths: [], truncated: false, length: 0 };
  if (s === t || s < 0 || t < 0) return none;
  const { outOffsets, outTargets, outKinds } = index;
  const out = index.side('out');
  const inn = index.side('in');
  // null when every kind is allowed: the hot loops then skip the test altogether.
  const allowed = kinds === null ? null : (pos: number) => kinds[outKinds[pos]!] === 1;

  // Scratch tables kept per index and never reset: each query writes `base + value` under a base above every
  // earlier query's, so anything below `base` reads as "not seen". Allocating and filling two distance tables of
  // every node per query was most of a query's time on tier M (100k nodes); resetting what a query touched was ~10 %.
  const { distF, distB, onPath, base } = scratchOf(index);
  return search();

  function search(): PathResult {
    distF[s] = base;
    distB[t] = base;
    // Each side's BFS levels: levelsF[d] holds the nodes at distance d from s (levelsB: to t).
    const levelsF = [[s]];
    const levelsB = [[t]];
    let depthF = 0;
    let depthB = 0;
    let meet: number[] = [];

    while (levelsF[depthF]!.length && levelsB[depthB]!.length && depthF + depthB < maxDepth) {
      const forward = levelsF[depthF]!.length <= levelsB[depthB]!.length;
      if (forward) levelsF.push(expandLevel(out, levelsF[depthF]!, distF, distB, base, depthF++, allowed, meet));
      else levelsB.push(expandLevel(inn, levelsB[depthB]!, distB, distF, base, depthB++, allowed, meet));
      if (meet.length) break;
    }
    if (!meet.length) return none;
    // The meeting nodes of this level can differ in total length; keep the minimal ones.
    let length = Infinity;
    for (const v of meet) length = Math.min(length, distF[v]! + distB[v]! - 2 * base);
    if (length > maxDepth) return none;
    meet = meet.filter((v) => distF[v]! + distB[v]! - 2 * base === length);

    // onPath[v] === base: v lies on a shortest path. Walk back from the meeting nodes on both sides.
    // Every meeting node splits its paths at the same hop (they were found in one level). A node at hop h <= split
    // has exact distance h from s; a node beyond it has exact distance length - h to t.
    const split = distF[meet[0]!]! - base;
    // The nodes on shortest paths by hop, as the two walks back mark them.
    const layers: number[][] = [];
    layers[split] = meet;
    for (const v of meet) onPath[v] = base;
    markBack(inn, out, levelsF, meet, distF, onPath, base, allowed, (d, nodes) => (layers[d] = nodes));
    markBack(out, inn, levelsB, meet, distB, onPath, base, allowed, (d, nodes) => (layers[length - d] = nodes));
    const stepOk = (v: number, hop: number) =>
      onPath[v] === base && (hop <= split ? distF[v] === base + hop : distB[v] === base + length - hop);

    const paths: Int32Array[] = [];
    let truncated = false;
    const stack = new Int32Array(length);
    // A hub's out-edges (a group with AdminTo to every computer: tens of thousands) are not scanned when the edges
    // into the next hop's nodes are fewer: those are scanned for the hub's instead, once per hub and hop (every path
    // through a hub visits it again), and sorted, so paths come out in the same order (which ones a cap keeps).
    const inEdges: number[] = [];
    const inEdgesAt = (hop: number) => (inEdges[hop] ??= edgesOf(inn, layers[hop]!));
    let intoNext: Map<number, number[]> | undefined;
    const intoNextHop = (u: number, hop: number): number[] => {
      const key = u * STEP + hop; // distances stay below STEP
      const known = (intoNext ??= new Map<number, number[]>()).get(key);
      if (known !== undefined) return known;
      const found: number[] = [];
      const { offsets, others, edges } = inn;
      for (const v of layers[hop + 1]!) {
        for (let q = offsets[v]!; q < offsets[v + 1]!; q++) {
          const p = edges ? edges[q]! : q;
          if (others[q] === u && (allowed === null || allowed(p))) found.push(p);
        }
      }
      found.sort((a, b) => a - b);
      intoNext.set(key, found);
      return found;
    };
    const walk = (u: number, hop: number): boolean => {
      if (hop === length) {
        if (u === t) {
          if (paths.length === maxPaths) {
            truncated = true;
            return false;
          }
          paths.push(stack.slice());
        }
        return true;
      }
      const from = outOffsets[u]!;
      const to = outOffsets[u + 1]!;
      if (to - from > inEdgesAt(hop + 1)) {
        for (const p of intoNextHop(u, hop)) {
          stack[hop] = p;
          if (!walk(outTargets[p]!, hop + 1)) return false;
        }
        return true;
      }
      for (let p = from; p < to; p++) {
        if (allowed !== null && !allowed(p)) continue;
        const v = outTargets[p]!;
        if (!stepOk(v, hop + 1)) continue;
        stack[hop] = p;
        if (!walk(v, hop + 1)) return false;
      }
      return true;
    };
    walk(s, 0);
    return { paths, truncated, length };
  }
}

/** Distances are below 32 (maxDepth ≤ 15 per side), so a query's base moves in steps of 32. */
const STEP = 32;
const MAX_BASE = 2 ** 30;

interface Scratch {
  distF: Int32Array;
  distB: Int32Array;
  onPath: Int32Array;
  base: number;
}

const scratch = new WeakMap<GraphIndex, Scratch>();
/** The index's scratch tables with a fresh base for one query (queries run one at a time: they never await). */
function scratchOf(index: GraphIndex): Scratch {
  let tables = scratch.get(index);
  if (!tables) {
    const n = index.nodeCount;
    tables = { distF: new Int32Array(n), distB: new Int32Array(n), onPath: new Int32Array(n), base: 0 };
    scratch.set(index, tables);
  }
  tables.base += STEP;
  if (tables.base >= MAX_BASE) {
    // Once every 33 million queries: start over from zeroed tables.
    tables.distF.fill(0);
    tables.distB.fill(0);
    tables.onPath.fill(0);
    tables.base = STEP;
  }
  return tables;
}

/**
 * One BFS level on one side: the unseen neighbours of `front` get depth + 1; those the other side saw meet. A node is
 * seen by a side in this query when its table holds at least `base`, and its depth is the value minus `base`.
 */
function expandLevel(
  side: Side,
  front: number[],
  mine: Int32Array,
  theirs: Int32Array,
  base: number,
  depth: number,
  allowed: ((pos: number) => boolean) | null,
  meet: number[],
): number[] {
  const next: number[] = [];
  const value = base + depth + 1;
  // The side's arrays in locals, and each row's end read once: the loop is the query's hottest.
  const { offsets, others, edges } = side;
  for (const u of front) {
    const end = offsets[u + 1]!;
    for (let q = offsets[u]!; q < end; q++) {
      if (allowed !== null && !allowed(edges ? edges[q]! : q)) continue;
      const v = others[q]!;
      if (mine[v]! >= base) continue;
      mine[v] = value;
      next.push(v);
      if (theirs[v]! >= base) meet.push(v);
    }
  }
  return next;
}

/**
 * Marks on `onPath` every node one level closer to this side's origin, level by level back from `from` (all at one
 * distance), and hands each level's marked nodes to `marked` with their distance. Per level, whichever scan is
 * smaller: the edges leading back from the level's marked nodes (`back`), or the edges leading forward from every
 * node of the previous BFS level (`ahead`). A hub on a path has hundreds of edges leading back and few nodes of the
 * level before it lead anywhere, so the second is often far smaller.
 */
function markBack(
  back: Side,
  ahead: Side,
  levels: number[][],
  from: number[],
  dist: Int32Array,
  onPath: Int32Array,
  base: number,
  allowed: ((pos: number) => boolean) | null,
  marked: (distance: number, nodes: number[]) => void,
): void {
  let layer = from;
  for (let d = dist[from[0]!]! - base; d > 0 && layer.length; d--) {
    const want = base + d - 1;
    const before = levels[d - 1]!;
    const prev: number[] = [];
    if (edgesOf(back, layer) <= edgesOf(ahead, before)) {
      const { offsets, others, edges } = back;
      for (const v of layer) {
        const end = offsets[v + 1]!;
        for (let q = offsets[v]!; q < end; q++) {
          const u = others[q]!;
          if (dist[u] === want && onPath[u] !== base && (allowed === null || allowed(edges ? edges[q]! : q))) {
            onPath[u] = base;
            prev.push(u);
          }
        }
      }
    } else {
      const { offsets, others, edges } = ahead;
      const at = want + 1;
      for (const u of before) {
        const end = offsets[u + 1]!;
        for (let q = offsets[u]!; q < end; q++) {
          const v = others[q]!;
          if (onPath[v] === base && dist[v] === at && (allowed === null || allowed(edges ? edges[q]! : q))) {
            onPath[u] = base;
            prev.push(u);
            break;
          }
        }
      }
    }
    marked(d - 1, prev);
    layer = prev;
  }
}

/** Edges leading out of a set of nodes on one side: what scanning them costs. */
function edgesOf(side: Side, nodes: readonly number[]): number {
  const { offsets } = side;
  let n = 0;
  for (const v of nodes) n += offsets[v + 1]! - offsets[v]!;
  return n;
}
