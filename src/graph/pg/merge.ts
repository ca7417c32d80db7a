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
