import { runAnalysis } from '../../src/analysis/run';
import { PgGraphStore } from '../../src/graph/pg/store';
import type { Database } from '../../src/db/pool';

/** A small graph for one analysis rule: nodes as [objectid, kind, properties], edges as [start, kind, end]. */
export interface SmallGraph {
  nodes: [string, string, Record<string, unknown>?][];
  edges: [string, string, string][];
}

/** Replaces the whole graph with `graph`, runs analysis, and returns the derived edges of `kinds` as "start kind end". */
export async function analyse(db: Database, graph: SmallGraph, kinds: string[]): Promise<string[]> {
  const store = new PgGraphStore(db);
  await load(db, graph);
  await runAnalysis(store);
  return derived(db, kinds);
}

export async function load(db: Database, graph: SmallGraph): Promise<void> {
  const store = new PgGraphStore(db);
  const existing = (await db.query<{ objectid: string }>('select objectid from graph_nodes')).map((r) => r.objectid);
  await store.write(async (w) => {
    await w.deleteNodes(existing);
    await w.upsertNodes(
      graph.nodes.map(([objectid, kind, props]) => ({
        objectid,
        kinds: ['Base', kind],
        properties: { objectid, name: objectid, ...props },
      })),
    );
    await w.upsertEdges(graph.edges.map(([start, kind, end]) => ({ start, end, kind, properties: {} })));
  });
}

export async function derived(db: Database, kinds: string[]): Promise<string[]> {
  const store = new PgGraphStore(db);
  const edges = await store.edgesOfKinds(kinds);
  const ids = new Map(
    (await db.query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [Number(r.id), r.objectid]),
  );
  return edges.map((e) => `${ids.get(e.startId)} ${e.kind} ${ids.get(e.endId)}`).sort();
}
