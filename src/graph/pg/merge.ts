import { AD_NODE_KINDS } from '../kinds.js';
import type { EdgeInput, NodeInput } from '../model.js';
import type { EdgeById } from '../store.js';

/** Distinct kind ids in ascending order, as graph_nodes.kind_ids keeps them. */
export function sortedIds(kinds: readonly string[], ids: Map<string, number>): number[] {
  return [...new Set(kinds.map((k) => ids.get(k)!))].sort((a, b) => a - b);
}

/** The endpoints of a batch of edges, each with the most specific kinds any of its edges gives it. */
export function endpointsOf(batch: readonly EdgeInput[], ids: Map<string, number>): { o: string; k: number[]; seen: unknown }[] {
  const endpoints = new Map<string, { o: string; k: number[]; seen: unknown }>();
  for (const e of batch) {
    const seen = e.properties.lastseen ?? null;
    for (const [o, kind] of [
      [e.start, e.startKind],
      [e.end, e.endKind],
    ] as const) {
      const k = endpoints.get(o);
      const base = baseKindOf(kind);
      const kindIds = kind && kind !== base ? sortedIds([base, kind], ids) : [ids.get(base)!];
      if (!k) endpoints.set(o, { o, k: kindIds, seen });
      else if (k.k.length < kindIds.length) k.k = kindIds;
    }
  }
  return [...endpoints.values()];
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

/** One input per (start, end, kind): properties merged, the most specific endpoint kinds kept. */
export function mergeEdges(edges: EdgeInput[]): EdgeInput[] {
  const out = new Map<string, EdgeInput>();
  for (const e of edges) {
    const key = `${e.start}\u0000${e.end}\u0000${e.kind}`;
    const seen = out.get(key);
    if (!seen) out.set(key, { ...e, properties: { ...e.properties } });
    else {
      Object.assign(seen.properties, e.properties);
      if (!seen.startKind || seen.startKind === 'Base') seen.startKind = e.startKind;
      if (!seen.endKind || seen.endKind === 'Base') seen.endKind = e.endKind;
    }
  }
  return [...out.values()];
}
