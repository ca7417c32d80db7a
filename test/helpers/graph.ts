import { GraphIndex } from '../../src/graph/index/graph-index';
import { PgGraphStore } from '../../src/graph/pg/store';
import { createTestDb, type TestDb } from './db';

/**
 * A fresh database with its graph store for one test file (made before its tests, dropped after them), or with
 * `{ per: 'test' }` for each test of it.
 */
export function useGraphDb(opts: { per: 'file' | 'test' } = { per: 'file' }) {
  let t: TestDb;
  let store: PgGraphStore;
  const [before, after] = opts.per === 'test' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    t = await createTestDb();
    store = new PgGraphStore(t.db);
  });
  after(() => t.drop());
  return {
    db: () => t.db,
    store: () => store,
    /** Replaces the graph by these nodes (kind Base) and edges; returns database ids by object id and a fresh index. */
    async load(nodes: string[], edges: [string, string, string][]) {
      const existing = (await t.db.query<{ objectid: string }>('select objectid from graph_nodes')).map((r) => r.objectid);
      await store.write(async (w) => {
        await w.deleteNodes(existing);
        await w.upsertNodes(nodes.map((o) => ({ objectid: o, kinds: ['Base'], properties: { objectid: o } })));
        await w.upsertEdges(edges.map(([start, end, kind]) => ({ start, end, kind, properties: {} })));
      });
      const ids = new Map(
        (await t.db.query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [r.objectid, r.id]),
      );
      return { ids, index: await GraphIndex.build(store) };
    },
  };
}
