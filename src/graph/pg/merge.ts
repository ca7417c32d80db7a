import { AD_NODE_KINDS } from '../kinds.js';
import type { EdgeInput, NodeInput, Properties } from '../model.js';

/** An edge between nodes known by id (the store's EdgeById, named here so this module needs nothing of the store). */
interface EdgeById {
  startId: number;
  endId: number;
  kind: string;
  properties: Properties;
}

/** One edge per (start, end, kind) in a batch, later properties merged over earlier (one statement, one row). */
export function uniqueById<E extends EdgeById>(batch: E[]): E[] {
  const seen = new Map<string, E>();
  for (const e of batch) {
    const key = `${e.startId}:${e.endId}:${e.kind}`;
    const had = seen.get(key);
    if (had) seen.set(key, { ...had, properties: { ...had.properties, ...e.properties } });
    else seen.set(key, e);
  }
  return seen.size === batch.length ? batch : [...seen.values()];
}

const AD_KINDS: ReadonlySet<string> = new Set(AD_NODE_KINDS);
/**
 * Every collector node carries a source kind: AZBase for Azure objects, Base for Active Directory ones. A
 * placeholder endpoint of an OpenGraph kind gets no base kind (BloodHound's generic ingest).
 */
export const baseKindOf = (kind: string | undefined) =>
  !kind || kind === 'Base' || AD_KINDS.has(kind) ? 'Base' : kind.startsWith('AZ') ? 'AZBase' : kind;

/** One input per object id (a statement may not touch a row twice): kinds unioned, later properties win. */
export function mergeNodes(nodes: NodeInput[]): NodeInput[] {
  const out = new Map<string, NodeInput>();
  for (const n of nodes) {
    const seen = out.get(n.objectid);
    if (!seen) out.set(n.objectid, { objectid: n.objectid, kinds: [...n.kinds], properties: { ...n.properties } });
    else {
      for (const k of n.kinds) if (!seen.kinds.includes(k)) seen.kinds.push(k);
      Object.assign(seen.properties, n.properties);
    }
  }
  return [...out.values()];
}

/**
 * One input per (start, end, kind): properties merged, the most specific endpoint kinds kept. Inputs are never
 * changed: an edge is copied only when a second one with its key turns up (rare), and a batch without repeats
 * comes back as it is. Fed edge by edge, so a caller may pause between slices of a large batch.
 *
 * Object ids and kinds are numbered in first-seen order (V8 keeps a string's hash with it), and edges are found by
 * those three numbers in an open-addressing table of typed arrays: a key string joined from the object ids
 * (~100 characters) was made and hashed once per edge, ~0.6 µs and as much garbage (tier M merges 1.8 million).
 */
export class EdgeMerge {
  /** The merged edges in first-seen order, and per edge its endpoints' and kind's numbers. */
  private readonly list: EdgeInput[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly kindOf: number[] = [];
  /** Open addressing: each slot holds 1 + an index into `list`, or 0 when empty. Kept at most half full. */
  private slots = new Int32Array(1024);
  private readonly copied = new Set<number>();
  private readonly ids = new Map<string, number>();
  private readonly kinds = new Map<string, number>();
  private added = 0;

  add(e: EdgeInput): void {
    this.added++;
    const s = intern(this.ids, e.start);
    const t = intern(this.ids, e.end);
    const k = intern(this.kinds, e.kind);
    const mask = this.slots.length - 1;
    let slot = hash(s, t, k) & mask;
    for (let at = this.slots[slot]!; at !== 0; at = this.slots[slot]!) {
      const i = at - 1;
      if (this.starts[i] === s && this.ends[i] === t && this.kindOf[i] === k) return this.repeat(i, e);
      slot = (slot + 1) & mask;
    }
    this.list.push(e);
    this.starts.push(s);
    this.ends.push(t);
    this.kindOf.push(k);
    this.slots[slot] = this.list.length;
    if (this.list.length * 2 > this.slots.length) this.grow();
  }

  /** The merged edges; `edges` itself when it is what was added and nothing repeated. */
  result(edges: EdgeInput[]): EdgeInput[] {
    return this.list.length === this.added && edges.length === this.added ? edges : this.list;
  }

  /**
   * The endpoints of result()'s edges as ids: `start[i]` and `end[i]` are those of its i-th edge, and equal ids are
   * the same object id (`endpoints` of them in all), so a caller can tell endpoints apart without hashing them again.
   */
  endpointIds(): { start: readonly number[]; end: readonly number[]; endpoints: number } {
    return { start: this.starts, end: this.ends, endpoints: this.ids.size };
  }

  private repeat(i: number, e: EdgeInput): void {
    let seen = this.list[i]!;
    if (!this.copied.has(i)) {
      this.list[i] = seen = { ...seen, properties: { ...seen.properties } };
      this.copied.add(i);
    }
    Object.assign(seen.properties, e.properties);
    seen.startKind = specificKind(seen.startKind, e.startKind);
    seen.endKind = specificKind(seen.endKind, e.endKind);
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let i = 0; i < this.list.length; i++) {
      let slot = hash(this.starts[i]!, this.ends[i]!, this.kindOf[i]!) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    this.slots = slots;
  }
}

/** Mixes three small integers into 32 bits (multiplicative hashing; the table keeps the low bits). */
function hash(s: number, t: number, k: number): number {
  let h = Math.imul(s, 0x9e3779b1) ^ Math.imul(t + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(k + 1, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

function intern(ids: Map<string, number>, name: string): number {
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = ids.size));
  return id;
}

/** Of an endpoint's kind as two equal edges give it, the more specific: the earlier unless it is missing or Base. */
export const specificKind = (earlier: string | undefined, later: string | undefined) => (!earlier || earlier === 'Base' ? later : earlier);

export function mergeEdges(edges: EdgeInput[]): EdgeInput[] {
  const merge = new EdgeMerge();
  for (const e of edges) merge.add(e);
  return merge.result(edges);
}

/** Two lists of edges, each in id order, as one in id order. */
export function mergeById<E extends { id: number }>(a: readonly E[], b: readonly E[]): E[] {
  if (!b.length) return a as E[];
  if (!a.length) return b as E[];
  const out: E[] = new Array<E>(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) out[n++] = a[i]!.id <= b[j]!.id ? a[i++]! : b[j++]!;
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out;
}
