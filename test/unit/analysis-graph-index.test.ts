import { GraphIndex } from '../../src/graph/index/graph-index';
import { throughMembership } from '../../src/graph/index/traversals';
import { useGraphDb } from '../helpers/graph';

/**
 * The path index numbers node kinds in the order it meets them; a graph with more kinds than one 32-bit word
 * holds (AD plus Azure is already more) must still filter on the late ones.
 */
describe('graph index with many node kinds', () => {
  const g = useGraphDb();

  it('filters a traversal on the 45th kind and on kinds sharing a node across words', async () => {
    const kinds = Array.from({ length: 45 }, (_, i) => `Kind${String(i).padStart(2, '0')}`);
    await g.store().write(async (w) => {
      // One node per kind first, so the kinds are met in this order and Kind44 gets bit 44.
      await w.upsertNodes(kinds.map((k) => ({ objectid: `N-${k}`, kinds: ['Base', k], properties: {} })));
      await w.upsertNodes([
        { objectid: 'USER', kinds: ['Base', 'User'], properties: {} },
        { objectid: 'GROUP', kinds: ['Base', 'Group'], properties: {} },
        // a node with an early and a late kind: both words of its bitset are set
        { objectid: 'BOTH', kinds: ['Base', 'Kind01', 'Kind44'], properties: {} },
      ]);
      await w.upsertEdges([
        { start: 'USER', end: 'GROUP', kind: 'MemberOf', properties: {} },
        ...kinds.map((k) => ({ start: 'GROUP', end: `N-${k}`, kind: 'GenericAll', properties: {} })),
        { start: 'GROUP', end: 'BOTH', kind: 'GenericAll', properties: {} },
      ]);
    });
    const ix = await GraphIndex.build(g.store());
    expect(ix.kindWords).toBeGreaterThanOrEqual(2);
    const ids = new Map(
      (await g.db().query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [r.objectid, r.id]),
    );
    const objectid = new Map([...ids].map(([o, id]) => [ix.dense(id), o]));
    const reach = (kind?: string) =>
      [...throughMembership(ix, ix.dense(ids.get('USER')!), ['GenericAll'], kind).nodes].map((d) => objectid.get(d)).sort();

    expect(reach('Kind44')).toEqual(['BOTH', 'N-Kind44']);
    expect(reach('Kind40')).toEqual(['N-Kind40']);
    expect(reach('Kind01')).toEqual(['BOTH', 'N-Kind01']);
    expect(reach('NoSuchKind')).toEqual([]);
    expect(reach()).toHaveLength(46);
    expect(ix.hasKind(ix.dense(ids.get('BOTH')!), ix.kindBit('Kind02'))).toBe(false);
  });
});
