import type { GraphIndex } from './graph-index.js';

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
  const { outOffsets, outTargets, outKinds, inOffsets, inSources, inEdge } = index;
  const allowed = (pos: number) => kinds === null || kinds[outKinds[pos]!] === 1;

  const n = index.nodeCount;
  const distF = new Int32Array(n).fill(-1);
  const distB = new Int32Array(n).fill(-1);
  distF[s] = 0;
  distB[t] = 0;
  let frontF = [s];
  let frontB = [t];
  let depthF = 0;
  let depthB = 0;
  let meet: number[] = [];

  while (frontF.length && frontB.length && depthF + depthB < maxDepth) {
    const forward = frontF.length <= frontB.length;
    const next: number[] = [];
    if (forward) {
      for (const u of frontF) {
        for (let p = outOffsets[u]!; p < outOffsets[u + 1]!; p++) {
          if (!allowed(p)) continue;
          const v = outTargets[p]!;
          if (distF[v] !== -1) continue;
          distF[v] = depthF + 1;
          next.push(v);
          if (distB[v] !== -1) meet.push(v);
        }
      }
      depthF++;
      frontF = next;
    } else {
      for (const u of frontB) {
        for (let q = inOffsets[u]!; q < inOffsets[u + 1]!; q++) {
          if (!allowed(inEdge[q]!)) continue;
          const v = inSources[q]!;
          if (distB[v] !== -1) continue;
          distB[v] = depthB + 1;
          next.push(v);
          if (distF[v] !== -1) meet.push(v);
        }
      }
      depthB++;
      frontB = next;
    }
    if (meet.length) break;
  }
  if (!meet.length) return none;
  // The meeting nodes of this level can differ in total length; keep the minimal ones.
  let length = Infinity;
  for (const v of meet) length = Math.min(length, distF[v]! + distB[v]!);
  if (length > maxDepth) return none;
  meet = meet.filter((v) => distF[v]! + distB[v]! === length);

  // onPath[v]: v lies on a shortest path. Walk back from the meeting nodes on both sides.
  const onPath = new Uint8Array(n);
  let layer = meet;
  for (const v of layer) onPath[v] = 1;
  while (layer.length) {
    const prev: number[] = [];
    for (const v of layer) {
      const d = distF[v]!;
      if (d <= 0) continue;
      for (let q = inOffsets[v]!; q < inOffsets[v + 1]!; q++) {
        const u = inSources[q]!;
        if (distF[u] === d - 1 && !onPath[u] && allowed(inEdge[q]!)) {
          onPath[u] = 1;
          prev.push(u);
        }
      }
    }
    layer = prev;
  }
  layer = meet;
  while (layer.length) {
    const nextLayer: number[] = [];
    for (const v of layer) {
      const d = distB[v]!;
      if (d <= 0) continue;
      for (let p = outOffsets[v]!; p < outOffsets[v + 1]!; p++) {
        const w = outTargets[p]!;
        if (distB[w] === d - 1 && onPath[w] !== 1 && allowed(p)) {
          onPath[w] = 1;
          nextLayer.push(w);
        }
      }
    }
    layer = nextLayer;
  }

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
