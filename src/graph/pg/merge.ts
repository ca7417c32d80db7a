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

/** Distinct endpoints and kinds a batch may hold for its edge keys to be numbers (2^21 × 2^21 × 2^11 < 2^53). */
const MAX_KEYED_ENDPOINTS = 1 << 21;
const MAX_KEYED_KINDS = 1 << 11;

/**
 * One input per (start, end, kind): properties merged, the most specific endpoint kinds kept. Inputs are never
 * changed: an edge is copied only when a second one with its key turns up (rare), and a batch without repeats
 * comes back as it is. Fed edge by edge, so a caller may pause between slices of a large batch.
 *
 * An edge's key is a number made of its endpoints' and kind's first-seen order rather than a string joined from
 * the object ids: a joined key (~100 characters) was made and hashed once per edge, ~0.6 µs and as much garbage
 * (a tier-M ingest merges 1.8 million edges). The object ids' own hashes are kept by V8 with each string.
 */
export class EdgeMerge {
  private readonly out = new Map<number | string, EdgeInput>();
  private readonly copies = new Set<EdgeInput>();
  private readonly ids = new Map<string, number>();
  private readonly kinds = new Map<string, number>();
  /** Per merged edge, in the order of result(): its endpoints' ids (first-seen order among the batch's object ids). */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private added = 0;
  private joined = false;

  /** The bounds are parameters for tests only. */
  constructor(
    private readonly maxEndpoints = MAX_KEYED_ENDPOINTS,
    private readonly maxKinds = MAX_KEYED_KINDS,
  ) {}

  add(e: EdgeInput): void {
    this.added++;
    const s = intern(this.ids, e.start);
    const t = intern(this.ids, e.end);
    const key = this.key(s, t, intern(this.kinds, e.kind));
    let seen = this.out.get(key);
    if (!seen) {
      this.out.set(key, e);
      this.starts.push(s);
      this.ends.push(t);
      return;
    }
    if (!this.copies.has(seen)) {
      this.out.set(key, (seen = { ...seen, properties: { ...seen.properties } }));
      this.copies.add(seen);
    }
    Object.assign(seen.properties, e.properties);
    if (!seen.startKind || seen.startKind === 'Base') seen.startKind = e.startKind;
    if (!seen.endKind || seen.endKind === 'Base') seen.endKind = e.endKind;
  }

  /** The merged edges; `edges` itself when it is what was added and nothing repeated. */
  result(edges: EdgeInput[]): EdgeInput[] {
    return this.out.size === this.added && edges.length === this.added ? edges : [...this.out.values()];
  }

  /**
   * The endpoints of result()'s edges as ids: `start[i]` and `end[i]` are those of its i-th edge, and equal ids are
   * the same object id (`endpoints` of them in all), so a caller can tell endpoints apart without hashing them again.
   */
  endpointIds(): { start: readonly number[]; end: readonly number[]; endpoints: number } {
    return { start: this.starts, end: this.ends, endpoints: this.ids.size };
  }

  private key(s: number, t: number, k: number): number | string {
    if (!this.joined && (this.ids.size > this.maxEndpoints || this.kinds.size > this.maxKinds)) this.joinKeys();
    return this.joined ? `${s}:${t}:${k}` : (s * this.maxEndpoints + t) * this.maxKinds + k;
  }

  /** Past the bounds (a batch of millions of distinct endpoints) keys are strings, those of the edges before too. */
  private joinKeys(): void {
    this.joined = true;
    const kept = [...this.out.values()];
    this.out.clear();
    for (const e of kept) this.out.set(this.key(this.ids.get(e.start)!, this.ids.get(e.end)!, this.kinds.get(e.kind)!), e);
  }
}

function intern(ids: Map<string, number>, name: string): number {
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = ids.size));
  return id;
}

export function mergeEdges(edges: EdgeInput[]): EdgeInput[] {
  const merge = new EdgeMerge();
  for (const e of edges) merge.add(e);
  return merge.result(edges);
}
