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
  const allowed = (pos: number) => kinds === null || kinds[outKinds[pos]!] === 1;

  // Scratch tables kept per index, -1 / 0 outside a query: each query resets only what it touched. Allocating and
  // filling two distance tables of every node per query was most of a query's time on tier M (100k nodes).
  const { distF, distB, onPath } = scratchOf(index);
  const touched: number[][] = [[s], [t], []]; // lists of nodes set in distF, in distB, in onPath
  try {
    return search();
  } finally {
    for (const v of touched[0]!) distF[v] = -1;
    for (const v of touched[1]!) distB[v] = -1;
    for (const v of touched[2]!) onPath[v] = 0;
  }

  function search(): PathResult {
    distF[s] = 0;
    distB[t] = 0;
    let frontF = [s];
    let frontB = [t];
    let depthF = 0;
    let depthB = 0;
    let meet: number[] = [];

    while (frontF.length && frontB.length && depthF + depthB < maxDepth) {
      const forward = frontF.length <= frontB.length;
      if (forward) frontF = expandLevel(out, frontF, distF, distB, depthF++, allowed, meet, touched[0]!);
      else frontB = expandLevel(inn, frontB, distB, distF, depthB++, allowed, meet, touched[1]!);
      if (meet.length) break;
    }
    if (!meet.length) return none;
    // The meeting nodes of this level can differ in total length; keep the minimal ones.
    let length = Infinity;
    for (const v of meet) length = Math.min(length, distF[v]! + distB[v]!);
    if (length > maxDepth) return none;
    meet = meet.filter((v) => distF[v]! + distB[v]! === length);

    // onPath[v]: v lies on a shortest path. Walk back from the meeting nodes on both sides.
    for (const v of meet) onPath[v] = 1;
    for (const v of meet) touched[2]!.push(v);
    markBack(inn, meet, distF, onPath, allowed, touched[2]!);
    markBack(out, meet, distB, onPath, allowed, touched[2]!);

    // Every meeting node splits its paths at the same hop (they were found in one level). A node at hop h <= split
    // has exact distance h from s; a node beyond it has exact distance length - h to t.
    const split = distF[meet[0]!]!;
    const stepOk = (v: number, hop: number) => onPath[v] === 1 && (hop <= split ? distF[v] === hop : distB[v] === length - hop);

    const paths: Int32Array[] = [];
    let truncated = false;
    const stack = new Int32Array(length);
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
      for (let p = outOffsets[u]!; p < outOffsets[u + 1]!; p++) {
        if (!allowed(p)) continue;
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

const scratch = new WeakMap<GraphIndex, { distF: Int32Array; distB: Int32Array; onPath: Uint8Array }>();
function scratchOf(index: GraphIndex) {
  let tables = scratch.get(index);
  if (!tables) {
    const n = index.nodeCount;
    tables = { distF: new Int32Array(n).fill(-1), distB: new Int32Array(n).fill(-1), onPath: new Uint8Array(n) };
    scratch.set(index, tables);
  }
  return tables;
}

/** One BFS level on one side: the unvisited neighbours of `front` get depth + 1; those the other side saw meet. */
function expandLevel(
  side: Side,
  front: number[],
  mine: Int32Array,
  theirs: Int32Array,
  depth: number,
  allowed: (pos: number) => boolean,
  meet: number[],
  touched: number[],
): number[] {
  const next: number[] = [];
  for (const u of front) {
    for (let q = side.offsets[u]!; q < side.offsets[u + 1]!; q++) {
      if (!allowed(side.edges ? side.edges[q]! : q)) continue;
      const v = side.others[q]!;
      if (mine[v] !== -1) continue;
      mine[v] = depth + 1;
      next.push(v);
      touched.push(v);
      if (theirs[v] !== -1) meet.push(v);
    }
  }
  return next;
}

/** Marks on `onPath` every node one level closer to this side's origin, level by level back from `from`. */
function markBack(
  side: Side,
  from: number[],
  dist: Int32Array,
  onPath: Uint8Array,
  allowed: (pos: number) => boolean,
  touched: number[],
): void {
  let layer = from;
  while (layer.length) {
    const prev: number[] = [];
    for (const v of layer) {
      const d = dist[v]!;
      if (d <= 0) continue;
      for (let q = side.offsets[v]!; q < side.offsets[v + 1]!; q++) {
        const u = side.others[q]!;
        if (dist[u] === d - 1 && onPath[u] !== 1 && allowed(side.edges ? side.edges[q]! : q)) {
          onPath[u] = 1;
          prev.push(u);
          touched.push(u);
        }
      }
    }
    layer = prev;
  }
}
