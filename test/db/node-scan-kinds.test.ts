import { PgGraphStore } from '../../src/graph/pg/store';
import { useGraphDb } from '../helpers/graph';

/**
 * The node scan names every node's kinds, also kinds another writer made after this store last read the kind
 * table: the path index's worker keeps one store for its life while the pipeline (another store) ingests.
 */
describe('graph node scan', () => {
  const g = useGraphDb();

  const scannedKinds = async (store: PgGraphStore) => {
    const kinds: string[][] = [];
    await store.scanNodes([], (rows) => rows.forEach((r) => kinds.push(r.kinds)));
    return kinds;
  };

  it('names kinds another store made after this one read them', async () => {
    await g.load(['a'], []);
    expect(await scannedKinds(g.store())).toEqual([['Base']]); // the kind table read, and kept
    const other = new PgGraphStore(g.db());
    await other.write((w) => w.upsertNodes([{ objectid: 'b', kinds: ['Base', 'BrandNewKind'], properties: {} }]));
    expect(await scannedKinds(g.store())).toEqual([['Base'], ['Base', 'BrandNewKind']]);
  });

  it('names edge kinds another store made in a relationship property column', async () => {
    expect((await g.store().edgePropertyColumn('weight')).kinds).toEqual([]);
    const other = new PgGraphStore(g.db());
    await other.write((w) => w.upsertEdges([{ start: 'a', end: 'b', kind: 'BrandNewEdge', properties: { weight: 2 } }]));
    expect(await g.store().edgePropertyColumn('weight')).toMatchObject({ kinds: ['BrandNewEdge'], values: [2] });
  });
});
