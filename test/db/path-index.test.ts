import { allShortestPaths } from '../../src/graph/index/shortest-paths';
import { useGraphDb } from '../helpers/graph';

/** The in-memory path index on small graphs built for one property each (the SQL comparison is shortest-paths.test). */
describe('path index', () => {
  const g = useGraphDb();

  it('follows only the allowed kinds, taking a longer path when the short one is not allowed', async () => {
    const { ids, index } = await g.load(
      ['a', 'b', 'c', 'd'],
      [
        ['a', 'd', 'AdminTo'],
        ['a', 'b', 'MemberOf'],
        ['b', 'c', 'MemberOf'],
        ['c', 'd', 'GenericAll'],
      ],
    );
    const [s, t] = [index.dense(ids.get('a')!), index.dense(ids.get('d')!)];
    expect(allShortestPaths(index, s, t, { kinds: null })).toMatchObject({ length: 1, truncated: false });
    expect(allShortestPaths(index, s, t, { kinds: index.kindSet(['MemberOf', 'GenericAll']) })).toMatchObject({ length: 3 });
    expect(allShortestPaths(index, s, t, { kinds: index.kindSet(['MemberOf']) })).toMatchObject({ length: 0, paths: [] });
    // a kind the graph has never seen allows nothing
    expect(allShortestPaths(index, s, t, { kinds: index.kindSet(['NoSuchKind']) }).paths).toEqual([]);
  });

  it('knows which database ids it holds, and which generation of the graph it was built from', async () => {
    const { ids, index } = await g.load(['a', 'b'], [['a', 'b', 'E']]);
    expect(index.dbId(index.dense(ids.get('b')!))).toBe(ids.get('b'));
    expect(index.dense(Math.max(...ids.values()) + 1000)).toBe(-1);
    expect(index.generation).toBe(await g.store().generation());
    await g.store().write(async (w) => w.upsertNodes([{ objectid: 'c', kinds: ['Base'], properties: {} }]));
    expect(await g.store().generation()).toBeGreaterThan(index.generation);
  });
});
