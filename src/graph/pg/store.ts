import type { Queryable } from '../../db/pool.js';
import { nextTurn } from '../../next-turn.js';
import type { EdgeInput, GraphEdge, GraphNode, NodeInput, Properties } from '../model.js';
import type {
  EdgeById,
  EdgeSourceRow,
  EdgesByIdOptions,
  EdgeScanBatch,
  EdgeTriple,
  GraphStore,
  GraphWriter,
  NodeScanRow,
  NodeSummary,
} from '../store.js';
import { Stager } from './bulk.js';
import { writePrepared } from './write-prepared.js';
import { prepareBatch, type PreparedBatch } from '../prepared.js';
import { scanEdgeIdsByCopy, scanEdgesByCopy, type CopyOutDb } from './edge-scan.js';
import { mergeById } from './merge.js';
import { insertEdgesByNodeId } from './edges-by-id.js';
import { WriteQueue } from './write-queue.js';
import * as SQL from './sql.js';

/** What the PostgreSQL graph store needs of the database layer. */
export interface GraphDb extends Queryable, CopyOutDb {
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

/** The writer's hook that writes a node batch it still holds (see writer()). */
const RELEASE_NODES = Symbol('releaseNodes');

const SCAN_PAGE = 50_000;
/** Derived-edge sources per insert statement. */
const SOURCES_PAGE = 5_000;
/**
 * Nodes per page of a node scan. Each page is mapped and handed over in one turn of the event loop, so a page of
 * 50,000 held a serving process's loop for 70-100 ms during a path index rebuild at tier M.
 */
const NODE_SCAN_PAGE = 10_000;
/** Edges per page of edgesOfKinds, for the same reason. */
const EDGE_PAGE = 10_000;
/** The properties of an edge read without them (edgesOfKinds): shared, so frozen. */
const NO_PROPERTIES: Properties = Object.freeze({});

interface EdgeRow {
  id: number;
  startId: number;
  endId: number;
  kindId: number;
  properties: Properties | null;
}

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

  constructor(
    private readonly db: GraphDb,
    private readonly opts: { /** Nodes a write remembers between batches (tests lower it). */ knownNodes?: number } = {},
  ) {}

  async write<T>(fn: (w: GraphWriter) => Promise<T>): Promise<T> {
    try {
      return await this.db.tx(async (q) => {
        const queue = new WriteQueue();
        let result: T;
        const writer = this.writer(q, queue);
        try {
          result = await fn(writer);
          await (writer as unknown as Record<symbol, () => Promise<void>>)[RELEASE_NODES]!();
        } catch (err) {
          await queue.settle();
          throw err;
        }
        await queue.drain();
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

  async counts(opts: { edgesExcept?: readonly string[] } = {}): Promise<{ nodes: number; edges: number }> {
    const [sql, params] = opts.edgesExcept ? [SQL.COUNTS_EXCEPT, [opts.edgesExcept]] : [SQL.COUNTS, []];
    return (await this.db.query<{ nodes: number; edges: number }>(sql, params))[0]!;
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
    const kindIds = await this.knownKindIdsOf(triples.map((t) => t.kind));
    // A triple of a kind the graph has never held names no edge.
    const known = triples.filter((t) => kindIds.has(t.kind));
    if (!known.length) return [];
    const rows = await this.db.query<EdgeRow>(SQL.EDGES_BY_TRIPLES, [
      known.map((t) => t.startId),
      known.map((t) => t.endId),
      known.map((t) => kindIds.get(t.kind)!),
    ]);
    return this.toEdges(rows);
  }

  async edgesOfKinds(kinds: readonly string[], propertiesOf?: readonly string[]): Promise<GraphEdge[]> {
    const ids = [...(await this.knownKindIdsOf(kinds)).values()];
    if (!propertiesOf) return this.pageEdgesOfKinds(ids, null);
    const withProperties = [...(await this.knownKindIdsOf(propertiesOf)).values()];
    // The kinds read without properties come in one COPY, parsed with no row object (analysis at tier M: 1.1 M of
    // its 1.3 M edges; the pages spent ~1 s of this thread on pg's rows); the rest after it (below).
    const bare = ids.filter((k) => !withProperties.includes(k));
    const mask = new Uint8Array(1 << 16);
    for (const k of bare) mask[k] = 1;
    const copied: GraphEdge[] = [];
    const byCopy = await scanEdgeIdsByCopy(this.db, mask, (id, startId, endId, kindId) => {
      copied.push({ id, startId, endId, kind: this.byId.get(kindId)!, properties: NO_PROPERTIES });
    });
    // The kinds with properties after the COPY, not beside it: rows parsed in the same turn as the COPY's chunks
    // (and the node scan's pages, beside which analysis reads this) held the serving thread's loop ~100 ms at
    // tier M. Where the COPY ran (a server) they come in one query, handed over in slices: keyset pages of kinds
    // this sparse (WriteOwnerRaw is a tenth of tier L's 25 M edges) scanned the table in id order again for each
    // page (180 s for tier L's hundreds of pages; a generic plan made each a parallel scan and sort).
    const richKinds = ids.filter((k) => withProperties.includes(k));
    const rich = byCopy ? await this.edgesOfKindsAtOnce(richKinds, withProperties) : await this.pageEdgesOfKinds(richKinds, withProperties);
    return mergeById(byCopy ? copied : await this.pageEdgesOfKinds(bare, withProperties), rich);
  }

  /** Edges of the kinds given in one query, in id order, mapped in slices so the serving thread gets turns. */
  private async edgesOfKindsAtOnce(ids: readonly number[], withProperties: readonly number[]): Promise<GraphEdge[]> {
    if (!ids.length) return [];
    const rows = await this.db.query<EdgeRow>(SQL.EDGES_OF_KINDS_AT_ONCE, [ids, withProperties]);
    const edges: GraphEdge[] = [];
    for (let i = 0; i < rows.length; i += EDGE_PAGE) {
      if (i) await nextTurn();
      for (const e of await this.toEdges(rows.slice(i, i + EDGE_PAGE))) edges.push(e);
    }
    return edges;
  }

  /** Edges of the kinds given in keyset pages, in id order; properties only of the kinds in `withProperties` (all when null). */
  private async pageEdgesOfKinds(ids: readonly number[], withProperties: readonly number[] | null): Promise<GraphEdge[]> {
    // One query of 1.5 M rows (analysis at tier M) was parsed and mapped in turns of the event loop of 100-160 ms
    // each, on the thread that answers requests.
    const edges: GraphEdge[] = [];
    if (!ids.length) return edges;
    for (let last = 0; ;) {
      const rows = await this.db.query<EdgeRow>(SQL.EDGES_OF_KINDS, [ids, withProperties, last, EDGE_PAGE]);
      if (!rows.length) return edges;
      for (const e of await this.toEdges(rows)) edges.push(e);
      last = rows[rows.length - 1]!.id;
    }
  }

  async nodePropertyColumn(key: string): Promise<{ ids: number[]; values: unknown[] }> {
    const rows = await this.db.query<{ id: number; v: unknown }>(
      key === 'objectid' ? SQL.NODE_OBJECTID_COLUMN : SQL.NODE_PROPERTY_COLUMN,
      key === 'objectid' ? [] : [key],
    );
    const ids = new Array<number>(rows.length);
    const values = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      ids[i] = rows[i]!.id;
      values[i] = rows[i]!.v;
    }
    return { ids, values };
  }

  async edgePropertyColumn(key: string): Promise<{ starts: number[]; ends: number[]; kinds: string[]; values: unknown[] }> {
    await this.loadKinds(this.db);
    const rows = await this.db.query<{ s: number; e: number; k: number; v: unknown }>(SQL.EDGE_PROPERTY_COLUMN, [key]);
    if (rows.some((r) => !this.byId.has(r.k))) await this.loadKinds(this.db, true); // kinds made by another writer
    const out = {
      starts: new Array<number>(rows.length),
      ends: new Array<number>(rows.length),
      kinds: new Array<string>(rows.length),
      values: new Array<unknown>(rows.length),
    };
    rows.forEach((r, i) => {
      out.starts[i] = r.s;
      out.ends[i] = r.e;
      out.kinds[i] = this.byId.get(r.k) ?? 'Unknown';
      out.values[i] = r.v;
    });
    return out;
  }

  async scanNodes(propertyKeys: readonly string[], onBatch: (rows: NodeScanRow[]) => void): Promise<void> {
    await this.loadKinds(this.db);
    let last = 0;
    for (;;) {
      const rows = await this.db.query<{ id: number; objectid: string; kind_ids: number[]; jsonb_object_agg: Properties | null }>(
        SQL.SCAN_NODES,
        [last, NODE_SCAN_PAGE, propertyKeys],
      );
      if (!rows.length) return;
      // Kinds another process made since this store last read them (a long-lived worker's store): read them again.
      if (rows.some((r) => r.kind_ids.some((k) => !this.byId.has(k)))) await this.loadKinds(this.db, true);
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
    if (await scanEdgesByCopy(this.db, onBatch)) return;
    const gplink = (await this.knownKindIdsOf(['GPLink'])).get('GPLink') ?? -1;
    let last = 0;
    for (;;) {
      const rows = await this.db.query<{ id: number; start_id: number; end_id: number; kind_id: number; flags: number }>(SQL.SCAN_EDGES, [
        last,
        SCAN_PAGE,
        gplink,
      ]);
      if (!rows.length) return;
      onBatch({
        start: rows.map((r) => r.start_id),
        end: rows.map((r) => r.end_id),
        kind: rows.map((r) => r.kind_id),
        flags: rows.map((r) => r.flags),
      });
      last = rows[rows.length - 1]!.id;
    }
  }

  async kindNames(): Promise<Map<number, string>> {
    // Read afresh: the index is built after writes by anyone, and kinds another process created (`gas ingest`,
    // another replica's analysis) are not in this process's memory yet.
    await this.loadKinds(this.db, true);
    return new Map(this.byId);
  }

  async edgeSources(startId: number, endId: number, kind: string): Promise<EdgeTriple[] | undefined> {
    const rows = await this.db.query<{ parts: [number, number, string][] }>(SQL.EDGE_SOURCES, [startId, endId, kind]);
    return rows[0]?.parts.map(([s, e, k]) => ({ startId: Number(s), endId: Number(e), kind: k }));
  }

  async edgesInto(endId: number, kinds: readonly string[]): Promise<GraphEdge[]> {
    const ids = [...(await this.knownKindIdsOf(kinds)).values()];
    if (!ids.length) return [];
    await this.loadKinds(this.db);
    const rows = await this.db.query<EdgeRow>(SQL.EDGES_INTO, [endId, ids]);
    return rows.map((r) => ({
      id: r.id,
      startId: r.startId,
      endId: r.endId,
      kind: this.byId.get(r.kindId)!,
      properties: r.properties ?? {},
    }));
  }

  async allShortestPaths(startId: number, endId: number, kinds: readonly string[] | null, maxDepth: number): Promise<EdgeTriple[][]> {
    const kindIds = kinds ? [...(await this.knownKindIdsOf(kinds)).values()] : null;
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
    if ([...edges.values()].some((e) => !this.byId.has(e.kindId))) await this.loadKinds(this.db, true);
    return rows.map((r) =>
      r.path.map((id) => {
        const e = edges.get(id)!;
        return { startId: e.startId, endId: e.endId, kind: this.byId.get(e.kindId)! };
      }),
    );
  }

  private writer(q: Queryable, queue: WriteQueue): GraphWriter {
    const bulk = Stager.for(q, this.opts.knownNodes);
    const writer: GraphWriter = {
      tx: q,
      upsertNodes: async (nodes: NodeInput[]) => this.sendPrepared(q, bulk, await prepareBatch(nodes, undefined)),
      upsertEdges: async (edges: EdgeInput[]) => this.sendPrepared(q, bulk, await prepareBatch(undefined, edges)),
      insertEdgesByNodeId: async (edges: Iterable<EdgeById>, opts: EdgesByIdOptions = {}) =>
        insertEdgesByNodeId(q, bulk, (names) => this.kindIds(q, names), edges, opts),
      nodeIds: async (objectids: readonly string[]) => {
        if (!objectids.length) return new Map();
        const rows = await q.query<{ id: number; objectid: string }>(SQL.NODE_IDS_BY_OBJECTIDS, [objectids]);
        return new Map(rows.map((r) => [r.objectid, r.id]));
      },
      deleteNodes: async (objectids: string[]) => {
        bulk?.forget(objectids);
        return objectids.length ? q.execute(SQL.DELETE_NODES, [objectids]) : 0;
      },
      deleteEdgesOfKinds: async (kinds: readonly string[]) => {
        const ids = [...(await this.knownKindIdsOf(kinds, q)).values()];
        return ids.length ? q.execute(SQL.DELETE_EDGES_OF_KINDS, [ids]) : 0;
      },
      clearAll: async () => {
        bulk?.forget();
        await q.execute(SQL.CLEAR_ALL);
      },
      deleteNodesOfKinds: async (kinds: readonly string[], sourcelessExcept?: readonly string[]) => {
        bulk?.forget();
        const ids = [...(await this.knownKindIdsOf(kinds, q)).values()];
        const sources = sourcelessExcept ? [...(await this.knownKindIdsOf(sourcelessExcept, q)).values()] : [];
        if (!ids.length && !sourcelessExcept) return 0;
        return q.execute(SQL.DELETE_NODES_OF_KINDS, [ids, !!sourcelessExcept, sources]);
      },
      removeKindEverywhere: async (kind: string) => {
        bulk?.forget();
        const id = (await this.knownKindIdsOf([kind], q)).get(kind);
        return id === undefined ? 0 : q.execute(SQL.REMOVE_KIND, [id]);
      },
      removePropertyEverywhere: async (key: string) => q.execute(SQL.REMOVE_PROPERTY, [key]),
      replaceEdgeSources: async (rows: readonly EdgeSourceRow[]) => {
        await q.execute(SQL.DELETE_EDGE_SOURCES);
        for (let i = 0; i < rows.length; i += SOURCES_PAGE) {
          const page = rows.slice(i, i + SOURCES_PAGE);
          await q.execute(SQL.INSERT_EDGE_SOURCES, [
            page.map((r) => r.startId),
            page.map((r) => r.endId),
            page.map((r) => r.kind),
            page.map((r) => JSON.stringify(r.parts)),
          ]);
        }
      },
    };
    // Node and edge batches are written in the background while the caller prepares the next one (parsing and
    // converting overlap with the database's work); everything else waits for them first. A node batch is held
    // until the next call and written in one job with the edge batch that follows it (the ingest's pattern), in
    // the same order: the caller is not left waiting for the nodes alone before it may hand over the edges.
    let heldNodes: NodeInput[] | undefined;
    const releaseNodes = async () => {
      const nodes = heldNodes;
      heldNodes = undefined;
      if (nodes) await queue.behind(() => writer.upsertNodes(nodes));
    };
    const after =
      <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        await releaseNodes();
        await queue.drain();
        return f(...args);
      };
    const sendLater = (batch: PreparedBatch) => {
      const ids = this.knownKindIds(batch.kinds);
      return queue.behind(() => this.sendPrepared(q, bulk, batch, ids));
    };
    const tx = queue.guard(q);
    return {
      tx: {
        query: async (sql, params) => (await releaseNodes(), tx.query(sql, params)),
        execute: async (sql, params) => (await releaseNodes(), tx.execute(sql, params)),
        copyFrom: tx.copyFrom && (async (sql, chunks) => (await releaseNodes(), tx.copyFrom!(sql, chunks))),
      },
      upsertNodes: async (nodes) => {
        await releaseNodes();
        heldNodes = nodes;
      },
      upsertEdges: async (edges) => {
        const nodes = heldNodes;
        heldNodes = undefined;
        // The batch is merged and encoded now, while the previous one is still being written, so the job keeps the
        // connection busy with statements only (unless a kind is new: that needs the database).
        // Prepared in slices, with a turn between them, so the event loop answers the write in flight meanwhile.
        return sendLater(await prepareBatch(nodes, edges, nextTurn));
      },
      writePrepared: async (batch: PreparedBatch) => (await releaseNodes(), sendLater(batch)),
      insertEdgesByNodeId: after(writer.insertEdgesByNodeId),
      nodeIds: after(writer.nodeIds),
      deleteNodes: after(writer.deleteNodes),
      deleteEdgesOfKinds: after(writer.deleteEdgesOfKinds),
      clearAll: after(writer.clearAll),
      deleteNodesOfKinds: after(writer.deleteNodesOfKinds),
      removeKindEverywhere: after(writer.removeKindEverywhere),
      removePropertyEverywhere: after(writer.removePropertyEverywhere),
      replaceEdgeSources: after(writer.replaceEdgeSources),
      [RELEASE_NODES]: releaseNodes,
    } as GraphWriter;
  }

  private async sendPrepared(q: Queryable, bulk: Stager | undefined, batch: PreparedBatch, ids?: number[]): Promise<void> {
    if (!ids) {
      const byName = await this.kindIds(q, batch.kinds);
      ids = batch.kinds.map((k) => byName.get(k)!);
    }
    await writePrepared(q, bulk, batch, ids);
  }

  /** Ids of kind names when every one is known already (no statement needed), else undefined. */
  private knownKindIds(names: readonly string[]): number[] | undefined {
    const ids = names.map((n) => this.byName.get(n));
    return ids.every((id) => id !== undefined) ? (ids as number[]) : undefined;
  }

  /**
   * Ids of the kind names the graph knows, for reads: an unknown name is left out (it matches nothing), never
   * created, so a read leaves graph_kinds as it was. Kinds are read again first when one is missing (another
   * process may have added it since).
   */
  private async knownKindIdsOf(names: Iterable<string>, q: Queryable = this.db): Promise<Map<string, number>> {
    const wanted = [...new Set(names)];
    if (wanted.some((n) => !this.byName.has(n))) await this.loadKinds(q, true);
    const ids = new Map<string, number>();
    for (const n of wanted) {
      const id = this.byName.get(n);
      if (id !== undefined) ids.set(n, id);
    }
    return ids;
  }

  /** Ids of kind names, creating missing kinds (inside the caller's transaction when there is one). */
  private async kindIds(q: Queryable, names: Iterable<string>): Promise<Map<string, number>> {
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

  private async toEdges(rows: EdgeRow[]): Promise<GraphEdge[]> {
    if (rows.some((r) => !this.byId.has(r.kindId))) await this.loadKinds(this.db, true);
    return rows.map((r) => ({
      id: r.id,
      startId: r.startId,
      endId: r.endId,
      kind: this.byId.get(r.kindId)!,
      properties: r.properties ?? NO_PROPERTIES,
    }));
  }
}

export { mergeEdges, mergeNodes } from './merge.js';
export { boundProperties } from './bounds.js';
