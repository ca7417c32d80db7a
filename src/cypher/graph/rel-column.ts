import type { GraphIndex } from '../../graph/index/graph-index.js';
import { fromJson, type Value } from '../execute/values.js';

/**
 * One relationship property of every relationship that has it, by out position in the path index. A column of
 * booleans only (BloodHound's isacl, ~1.9 M edges at tier M) is a byte per edge; other columns are an array by
 * position when most edges have the key, else a map.
 */
export type RelColumn =
  { kind: 'bool'; codes: Uint8Array } | { kind: 'dense'; values: (Value | undefined)[] } | { kind: 'map'; values: Map<number, Value> };

/** Codes of a boolean column: absent, false, true. */
const ABSENT = 0;
const FALSE = 1;
const TRUE = 2;

/** A column is an array when at least one edge in this many has the key. */
const DENSE_SHARE = 5;

/** The value at an out position; null when the relationship has no such property. */
export function relColumnValue(col: RelColumn, pos: number): Value {
  if (col.kind === 'bool') {
    const c = col.codes[pos]!;
    return c === ABSENT ? null : c === TRUE;
  }
  if (col.kind === 'dense') return col.values[pos] ?? null;
  return col.values.get(pos) ?? null;
}

/**
 * Places the store's rows (ends by store id, kind by name) at their out positions. Edges are unique by start, kind
 * and end, so the rows are bucketed by start node and each (start, kind) row of the index is read once into a table
 * of target → position: linear in the rows and the rows' index ranges, where a search per row was seconds at tier M.
 */
export function buildRelColumn(
  index: GraphIndex,
  rows: { starts: ArrayLike<number>; ends: ArrayLike<number>; kinds: ArrayLike<string>; values: ArrayLike<unknown> },
): RelColumn {
  const n = rows.starts.length;
  const kindIds = new Map<string, number>();
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  const kind = new Int32Array(n);
  const values = new Array<Value>(n);
  let allBool = true;
  for (let i = 0; i < n; i++) {
    let k = kindIds.get(rows.kinds[i]!);
    if (k === undefined) kindIds.set(rows.kinds[i]!, (k = index.edgeKindId(rows.kinds[i]!)));
    const s = index.dense(rows.starts[i]!);
    const e = index.dense(rows.ends[i]!);
    start[i] = k < 0 || e < 0 ? -1 : s;
    end[i] = e;
    kind[i] = k;
    const v = fromJson(rows.values[i]);
    if (typeof v !== 'boolean') allBool = false;
    values[i] = v;
  }
  const positions = placeRows(index, start, end, kind);
  if (allBool) {
    const codes = new Uint8Array(index.edgeCount);
    for (let i = 0; i < n; i++) if (positions[i]! >= 0) codes[positions[i]!] = values[i] ? TRUE : FALSE;
    return { kind: 'bool', codes };
  }
  if (n * DENSE_SHARE >= index.edgeCount) {
    const dense = new Array<Value | undefined>(index.edgeCount);
    for (let i = 0; i < n; i++) if (positions[i]! >= 0) dense[positions[i]!] = values[i];
    return { kind: 'dense', values: dense };
  }
  const map = new Map<number, Value>();
  for (let i = 0; i < n; i++) if (positions[i]! >= 0) map.set(positions[i]!, values[i]!);
  return { kind: 'map', values: map };
}

/** Each row's out position (-1 where the index has no such edge: a row of another generation). */
function placeRows(index: GraphIndex, start: Int32Array, end: Int32Array, kind: Int32Array): Int32Array {
  const n = start.length;
  const nodes = index.nodeCount;
  // Rows bucketed by start node (a counting sort).
  const bucket = new Int32Array(nodes + 1);
  for (let i = 0; i < n; i++) if (start[i]! >= 0) bucket[start[i]! + 1]!++;
  for (let d = 0; d < nodes; d++) bucket[d + 1]! += bucket[d]!;
  const fill = bucket.slice(0, nodes);
  const order = new Int32Array(bucket[nodes]!);
  for (let i = 0; i < n; i++) if (start[i]! >= 0) order[fill[start[i]!]!++] = i;

  const positions = new Int32Array(n).fill(-1);
  const out = index.side('out');
  const slot = new Int32Array(nodes);
  const stamp = new Int32Array(nodes);
  let current = 0;
  for (let s = 0; s < nodes; s++) {
    const from = bucket[s]!;
    const to = bucket[s + 1]!;
    if (from === to) continue;
    // One pass over the node's rows per kind they name (most nodes' rows name one or two).
    let pending = to - from;
    let done = new Uint8Array(0);
    while (pending > 0) {
      let k = -1;
      for (let j = from; j < to; j++) {
        if (done.length && done[j - from]) continue;
        k = kind[order[j]!]!;
        break;
      }
      current++;
      const lo = index.kindStart(out, s, k);
      const hi = index.kindStart(out, s, k + 1);
      for (let q = lo; q < hi; q++) {
        slot[out.others[q]!] = q;
        stamp[out.others[q]!] = current;
      }
      if (!done.length) done = new Uint8Array(to - from);
      for (let j = from; j < to; j++) {
        if (done[j - from]) continue;
        const i = order[j]!;
        if (kind[i] !== k) continue;
        done[j - from] = 1;
        pending--;
        if (stamp[end[i]!] === current) positions[i] = slot[end[i]!]!;
      }
    }
  }
  return positions;
}
