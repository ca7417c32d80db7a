import { AD_NODE_KINDS } from '../kinds.js';
import type { EdgeInput, NodeInput } from '../model.js';
import type { EdgeById } from '../store.js';

/** Distinct kind ids in ascending order, as graph_nodes.kind_ids keeps them. */
export function sortedIds(kinds: readonly string[], ids: Map<string, number>): number[] {
  return [...new Set(kinds.map((k) => ids.get(k)!))].sort((a, b) => a - b);
}

/**
 * The endpoints of a batch of edges, each with the most specific kinds any of its edges gives it. Per edge this
 * allocates nothing but a new endpoint's entry: a batch has ~10,000 edges and a few kinds. Fed edge by edge, so
 * a caller may pause between slices.
 */
export class Endpoints {
  private readonly endpoints = new Map<string, { o: string; k: number[]; seen: unknown }>();
  private readonly byKind = new Map<string | undefined, number[]>();

  constructor(private readonly ids: Map<string, number>) {}

  add(e: EdgeInput): void {
    const seen = e.properties.lastseen ?? null;
    this.one(e.start, e.startKind, seen);
    this.one(e.end, e.endKind, seen);
  }

  list(): { o: string; k: number[]; seen: unknown }[] {
    return [...this.endpoints.values()];
  }

  private one(o: string, kind: string | undefined, seen: unknown): void {
    const kindIds = this.kindIdsOf(kind);
    const k = this.endpoints.get(o);
    if (!k) this.endpoints.set(o, { o, k: kindIds, seen });
    else if (k.k.length < kindIds.length) k.k = kindIds;
  }

  private kindIdsOf(kind: string | undefined): number[] {
    let k = this.byKind.get(kind);
    if (!k) {
      const base = baseKindOf(kind);
      this.byKind.set(kind, (k = kind && kind !== base ? sortedIds([base, kind], this.ids) : [this.ids.get(base)!]));
    }
    return k;
  }
}

export function endpointsOf(batch: readonly EdgeInput[], ids: Map<string, number>): { o: string; k: number[]; seen: unknown }[] {
  const endpoints = new Endpoints(ids);
  for (const e of batch) endpoints.add(e);
  return endpoints.list();
}

/** The kind names a batch of edges needs ids for: its edges' kinds and its endpoints' kinds and base kinds. */
export function edgeKindNames(batch: readonly EdgeInput[]): Set<string> {
  const names = new Set<string>();
  for (const e of batch) addEdgeKindNames(names, e);
  return names;
}

export function addEdgeKindNames(names: Set<string>, e: EdgeInput): void {
  names.add(e.kind);
  names.add(e.startKind ?? 'Base').add(e.endKind ?? 'Base');
  names.add(baseKindOf(e.startKind)).add(baseKindOf(e.endKind));
}

/** One edge per (start, end, kind) in a batch, later properties merged over earlier (one statement, one row). */
export function uniqueById(batch: EdgeById[]): EdgeById[] {
  const seen = new Map<string, EdgeById>();
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
 */
export class EdgeMerge {
  private readonly out = new Map<string, EdgeInput>();
  private readonly copies = new Set<EdgeInput>();
  private added = 0;

  add(e: EdgeInput): void {
    this.added++;
    const key = `${e.start}\u0000${e.end}\u0000${e.kind}`;
    let seen = this.out.get(key);
    if (!seen) {
      this.out.set(key, e);
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
}

export function mergeEdges(edges: EdgeInput[]): EdgeInput[] {
  const merge = new EdgeMerge();
  for (const e of edges) merge.add(e);
  return merge.result(edges);
}
