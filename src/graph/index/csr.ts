import { nextTurn } from '../../next-turn.js';

export interface Csr {
  outOffsets: Int32Array;
  outTargets: Int32Array;
  outKinds: Uint16Array;
  outFlags: Uint8Array;
  inOffsets: Int32Array;
  inSources: Int32Array;
  inEdge: Int32Array;
}

/**
 * Edges between yields to the event loop while counting, sorting and filling the rows (a rebuild must not stall
 * queries): a slice of the fill takes ~5 ms at tier M (1 << 18 took 21-30 ms).
 */
const EDGES_PER_SLICE = 1 << 16;

/**
 * Compressed sparse rows, outbound then inbound, filled in slices with yields in between: at 2M edges the fill
 * in one piece stalled the event loop for ~0.4 s on the shared machine.
 */
export async function compressedRows(
  n: number,
  edges: { start: Int32Array; end: Int32Array; kind: Uint16Array; flags: Uint8Array },
): Promise<Csr> {
  const m = edges.start.length;
  const outOffsets = new Int32Array(n + 1);
  const inOffsets = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    if (e % EDGES_PER_SLICE === EDGES_PER_SLICE - 1) await nextTurn();
    outOffsets[edges.start[e]! + 1]!++;
    inOffsets[edges.end[e]! + 1]!++;
  }
  for (let i = 0; i < n; i++) {
    outOffsets[i + 1]! += outOffsets[i]!;
    inOffsets[i + 1]! += inOffsets[i]!;
  }
  const outTargets = new Int32Array(m);
  const outKinds = new Uint16Array(m);
  const outFlags = new Uint8Array(m);
  const inSources = new Int32Array(m);
  const inEdge = new Int32Array(m);
  const outFill = outOffsets.slice(0, n);
  const inFill = inOffsets.slice(0, n);
  // Edges are placed in kind order, so every row (both directions) is sorted by kind and a traversal finds one
  // kind's edges of a node by binary search (kindStart) instead of scanning a hub's whole row.
  const order = await byKind(edges.kind);
  for (let i = 0; i < m; i++) {
    if (i % EDGES_PER_SLICE === EDGES_PER_SLICE - 1) await nextTurn();
    const e = order[i]!;
    const s = edges.start[e]!;
    const t = edges.end[e]!;
    const pos = outFill[s]!++;
    outTargets[pos] = t;
    outKinds[pos] = edges.kind[e]!;
    outFlags[pos] = edges.flags[e]!;
    const ipos = inFill[t]!++;
    inSources[ipos] = s;
    inEdge[ipos] = pos;
  }
  return { outOffsets, outTargets, outKinds, outFlags, inOffsets, inSources, inEdge };
}

/**
 * Edge numbers ordered by kind (a counting sort: kinds are small integers), stable within a kind; in slices like
 * the fill (in one piece it held the loop ~35-40 ms at 2M edges).
 */
async function byKind(kinds: Uint16Array): Promise<Int32Array> {
  const start = new Int32Array(0x10000 + 1);
  for (let e = 0; e < kinds.length; e++) {
    if (e % EDGES_PER_SLICE === EDGES_PER_SLICE - 1) await nextTurn();
    start[kinds[e]! + 1]!++;
  }
  for (let k = 0; k < 0x10000; k++) start[k + 1]! += start[k]!;
  const order = new Int32Array(kinds.length);
  for (let e = 0; e < kinds.length; e++) {
    if (e % EDGES_PER_SLICE === EDGES_PER_SLICE - 1) await nextTurn();
    order[start[kinds[e]!]!++] = e;
  }
  return order;
}
