import type { Queryable } from '../../db/pool.js';
import type { EdgeInput, GraphEdge, GraphNode, NodeInput, Properties } from '../model.js';
import type { EdgeScanBatch, EdgeTriple, GraphStore, GraphWriter, NodeScanRow, NodeSummary } from '../store.js';
import * as SQL from './sql.js';

/** What the PostgreSQL graph store needs of the database layer. */
export interface GraphDb extends Queryable {
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

const SCAN_PAGE = 50_000;
const WRITE_BATCH = 5_000;

interface NodeRow {
  id: number;
  objectid: string;
  kindIds: number[];
  properties: Properties;
}

/**
 * The graph in PostgreSQL tables (migration 0002): nodes by object id, edges unique per (start, end, kind), kinds
 * as small integers resolved through a cached kind table.
 */
export class PgGraphStore implements GraphStore {
  readonly name = 'postgres' as const;
  private byName = new Map<string, number>();
  private byId = new Map<number, string>();

  constructor(private readonly db: GraphDb) {}

  async write<T>(fn: (w: GraphWriter) => Promise<T>): Promise<T> {
    try {
      return await this.db.tx(async (q) => {
        const result = await fn(this.writer(q));
        await q.query(SQL.BUMP_GENERATION);
        return result;
      });
    } catch (err) {
      // Kinds created inside a rolled-back transaction are gone again; forget the cached ids.
      this.byName.clear();
      this.byId.clear();
      throw err;
    }
  }

  async generation(): Promise<number> {
    return (await this.db.query<{ generation: number }>(SQL.GENERATION))[0]!.generation;
  }

  async counts(): Promise<{ nodes: number; edges: number }> {
    return (await this.db.query<{ nodes: number; edges: number }>(SQL.COUNTS))[0]!;
  }

  async nodeByObjectId(objectid: string): Promise<GraphNode | undefined> {
    const row = (await this.db.query<NodeRow>(SQL.NODE_BY_OBJECTID, [objectid]))[0];
    return row && (await this.toNodes([row]))[0];
  }

  async nodesByObjectIds(objectids: readonly string[]): Promise<GraphNode[]> {
    if (!objectids.length) return [];
    return this.toNodes(await this.db.query<NodeRow>(SQL.NODES_BY_OBJECTIDS, [objectids]));
  }

  async nodeIdsWithKinds(kinds: readonly string[]): Promise<number[]> {
    if (!kinds.length) return [];
    return (await this.db.query<{ id: number }>(SQL.NODE_IDS_WITH_KINDS, [kinds])).map((r) => r.id);
  }

  async nodesByIds(ids: readonly number[]): Promise<GraphNode[]> {
    if (!ids.length) return [];
    return this.toNodes(await this.db.query<NodeRow>(SQL.NODES_BY_IDS, [ids]));
  }

  async nodeSummaries(ids: readonly number[]): Promise<NodeSummary[]> {
    if (!ids.length) return [];
    const rows = await this.db.query<{ id: number; objectid: string; name: string | null; kindIds: number[] }>(SQL.NODE_SUMMARIES, [ids]);
    if (rows.some((r) => r.kindIds.some((k) => !this.byId.has(k)))) await this.loadKinds(this.db, true);
    return rows.map((r) => ({ id: r.id, objectid: r.objectid, name: r.name, kinds: r.kindIds.map((k) => this.byId.get(k)!) }));
  }

  async edgesByTriples(triples: readonly EdgeTriple[]): Promise<GraphEdge[]> {
    if (!triples.length) return [];
    const kindIds = await this.kindIds(
      this.db,
      triples.map((t) => t.kind),
    );
    const rows = await this.db.query<{ id: number; startId: number; endId: number; kindId: number; properties: Properties }>(
      SQL.EDGES_BY_TRIPLES,
      [triples.map((t) => t.startId), triples.map((t) => t.endId), triples.map((t) => kindIds.get(t.kind)!)],
    );
    return this.toEdges(rows);
  }

  async edgesOfKinds(kinds: readonly string[]): Promise<GraphEdge[]> {
    const ids = [...(await this.kindIds(this.db, kinds)).values()];
    return this.toEdges(await this.db.query(SQL.EDGES_OF_KINDS, [ids]));
  }

  async scanNodes(propertyKeys: readonly string[], onBatch: (rows: NodeScanRow[]) => void): Promise<void> {
    await this.loadKinds(this.db);
    let last = 0;
    for (;;) {
      const rows = await this.db.query<{ id: number; objectid: string; kind_ids: number[]; jsonb_object_agg: Properties | null }>(
        SQL.SCAN_NODES,
        [last, SCAN_PAGE, propertyKeys],
      );
      if (!rows.length) return;
      onBatch(
        rows.map((r) => ({
          id: r.id,
          objectid: r.objectid,
          kinds: r.kind_ids.map((k) => this.byId.get(k)!),
          properties: r.jsonb_object_agg ?? {},
        })),
      );
      last = rows[rows.length - 1]!.id;
    }
  }

  async scanEdges(onBatch: (batch: EdgeScanBatch) => void): Promise<void> {
    const gplink = (await this.kindIds(this.db, ['GPLink'])).get('GPLink') ?? -1;
    let last = 0;
    for (;;) {
      const rows = await this.db.query<{ id: number; start_id: number; end_id: number; kind_id: number; case: number }>(SQL.SCAN_EDGES, [
        last,
        SCAN_PAGE,
        gplink,
      ]);
      if (!rows.length) return;
      onBatch({
        start: rows.map((r) => r.start_id),
        end: rows.map((r) => r.end_id),
        kind: rows.map((r) => r.kind_id),
        flags: rows.map((r) => r.case),
      });
      last = rows[rows.length - 1]!.id;
    }
  }

  async kindNames(): Promise<Map<number, string>> {
    await this.loadKinds(this.db);
    return new Map(this.byId);
  }

  async allShortestPaths(startId: number, endId: number, kinds: readonly string[] | null, maxDepth: number): Promise<EdgeTriple[][]> {
    const kindIds = kinds ? [...(await this.kindIds(this.db, kinds)).values()] : null;
    const rows = await this.db.query<{ path: number[] }>(SQL.ALL_SHORTEST_PATHS, [startId, endId, maxDepth, kindIds]);
    if (!rows.length) return [];
    const edgeIds = [...new Set(rows.flatMap((r) => r.path))];
    const edges = new Map(
      (await this.db.query<{ id: number; startId: number; endId: number; kindId: number }>(SQL.EDGES_BY_IDS, [edgeIds])).map((e) => [
        e.id,
        e,
      ]),
    );
    await this.loadKinds(this.db);
    return rows.map((r) =>
      r.path.map((id) => {
        const e = edges.get(id)!;
        return { startId: e.startId, endId: e.endId, kind: this.byId.get(e.kindId)! };
      }),
    );
  }

  private writer(q: Queryable): GraphWriter {
    return {
      tx: q,
      upsertNodes: async (nodes: NodeInput[]) => {
        const merged = mergeNodes(nodes);
        const ids = await this.kindIds(
          q,
          merged.flatMap((n) => n.kinds),
        );
        for (let i = 0; i < merged.length; i += WRITE_BATCH) {
          const batch = merged
            .slice(i, i + WRITE_BATCH)
            .map((n) => ({ o: n.objectid, k: n.kinds.map((k) => ids.get(k)), p: n.properties }));
          await q.query(SQL.UPSERT_NODES, [JSON.stringify(batch)]);
        }
      },
      upsertEdges: async (edges: EdgeInput[]) => {
        const merged = mergeEdges(edges);
        const ids = await this.kindIds(q, [
          ...merged.map((e) => e.kind),
          ...merged.flatMap((e) => [e.startKind ?? 'Base', e.endKind ?? 'Base', baseKindOf(e.startKind), baseKindOf(e.endKind)]),
        ]);
        for (let i = 0; i < merged.length; i += WRITE_BATCH) {
          const batch = merged.slice(i, i + WRITE_BATCH);
          const endpoints = new Map<string, { o: string; k: number[]; seen: unknown }>();
          for (const e of batch) {
            const seen = e.properties.lastseen ?? null;
            for (const [o, kind] of [
              [e.start, e.startKind],
              [e.end, e.endKind],
            ] as const) {
              const k = endpoints.get(o);
              const base = baseKindOf(kind);
              const kindIds = kind && kind !== base ? [ids.get(base)!, ids.get(kind)!] : [ids.get(base)!];
              if (!k) endpoints.set(o, { o, k: kindIds, seen });
              else if (k.k.length < kindIds.length) k.k = kindIds;
            }
          }
          await q.query(SQL.ENSURE_ENDPOINTS, [JSON.stringify([...endpoints.values()])]);
          await q.query(SQL.UPSERT_EDGES, [
            JSON.stringify(batch.map((e) => ({ s: e.start, t: e.end, k: ids.get(e.kind), p: e.properties }))),
          ]);
        }
      },
      deleteNodes: async (objectids: string[]) => (objectids.length ? q.execute(SQL.DELETE_NODES, [objectids]) : 0),
      deleteEdgesOfKinds: async (kinds: readonly string[]) => {
        const ids = [...(await this.kindIds(q, kinds)).values()];
        return q.execute(SQL.DELETE_EDGES_OF_KINDS, [ids]);
      },
      removeKindEverywhere: async (kind: string) => q.execute(SQL.REMOVE_KIND, [(await this.kindIds(q, [kind])).get(kind)]),
      removePropertyEverywhere: async (key: string) => q.execute(SQL.REMOVE_PROPERTY, [key]),
    };
  }

  /** Ids of kind names, creating missing kinds (inside the caller's transaction when there is one). */
  private async kindIds(q: Queryable, names: readonly string[]): Promise<Map<string, number>> {
    const wanted = [...new Set(names)];
    const missing = wanted.filter((n) => !this.byName.has(n));
    if (missing.length) {
      await q.query(SQL.KINDS_ENSURE, [missing]);
      await this.loadKinds(q, true);
    }
    return new Map(wanted.map((n) => [n, this.byName.get(n)!]));
  }

  private async loadKinds(q: Queryable, force = false): Promise<void> {
    if (this.byId.size && !force) return;
    for (const row of await q.query<{ id: number; name: string }>(SQL.KINDS_LIST)) {
      this.byName.set(row.name, row.id);
      this.byId.set(row.id, row.name);
    }
  }

  private async toNodes(rows: NodeRow[]): Promise<GraphNode[]> {
    if (rows.some((r) => r.kindIds.some((k) => !this.byId.has(k)))) await this.loadKinds(this.db, true);
    return rows.map((r) => ({ id: r.id, objectid: r.objectid, kinds: r.kindIds.map((k) => this.byId.get(k)!), properties: r.properties }));
  }

  private async toEdges(
    rows: { id: number; startId: number; endId: number; kindId: number; properties: Properties }[],
  ): Promise<GraphEdge[]> {
    if (rows.some((r) => !this.byId.has(r.kindId))) await this.loadKinds(this.db, true);
    return rows.map((r) => ({ id: r.id, startId: r.startId, endId: r.endId, kind: this.byId.get(r.kindId)!, properties: r.properties }));
  }
}

/** Every node carries a source kind: AZBase for Azure objects, Base for Active Directory ones. */
const baseKindOf = (kind: string | undefined) => (kind?.startsWith('AZ') ? 'AZBase' : 'Base');

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
