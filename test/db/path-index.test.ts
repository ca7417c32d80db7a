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

  it('enumerates exactly the shortest paths a brute-force search finds, through hubs and parallel edges', async () => {
    // A deterministic random graph: 40 nodes, 3 hubs with edges to a third of them, parallel edges of two kinds.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), Math.floor((seed / 2 ** 31) * n));
    const names = Array.from({ length: 40 }, (_, i) => `n${i}`);
    const edges: [string, string, string][] = [];
    const seen = new Set<string>();
    const add = (a: number, b: number, kind: string) => {
      const key = `${a}>${b}:${kind}`;
      if (a !== b && !seen.has(key)) (seen.add(key), edges.push([names[a]!, names[b]!, kind]));
    };
    for (let i = 0; i < 140; i++) add(rand(40), rand(40), rand(3) === 0 ? 'B' : 'A');
    for (const hub of [1, 2, 3]) for (let i = 0; i < 40; i++) if (rand(3) === 0) add(hub, i, 'A');
    for (let i = 0; i < 40; i++) if (rand(4) === 0) add(i, 1 + rand(3), 'A');
    const { ids, index } = await g.load(names, edges);
    const dense = (name: string) => index.dense(ids.get(name)!);
    const asText = (path: Int32Array) =>
      [...path].map((p) => `${index.edgeStart(p)}>${index.outTargets[p]}:${index.edgeKindName(index.outKinds[p]!)}`).join(' ');

    // Brute force over the edge list: distances both ways, then every walk that gains one hop each step.
    const byDense = edges.map(([a, b, k]) => [dense(a), dense(b), k] as const);
    const bfs = (from: number, forward: boolean) => {
      const dist = new Map([[from, 0]]);
      for (let front = [from]; front.length;) {
        const next: number[] = [];
        for (const u of front)
          for (const [a, b] of byDense) {
            const [x, y] = forward ? [a, b] : [b, a];
            if (x === u && !dist.has(y)) (dist.set(y, dist.get(u)! + 1), next.push(y));
          }
        front = next;
      }
      return dist;
    };
    let compared = 0;
    for (let pair = 0; pair < 60; pair++) {
      const [s, t] = [dense(names[rand(40)]!), dense(names[rand(40)]!)];
      const fromS = bfs(s, true);
      const toT = bfs(t, false);
      const length = s === t ? 0 : (fromS.get(t) ?? 0);
      const expected: string[] = [];
      const walk = (u: number, hop: number, trail: string[]) => {
        if (hop === length) return u === t && expected.push(trail.join(' '));
        for (const [a, b, k] of byDense)
          if (a === u && fromS.get(b) === hop + 1 && toT.get(b) === length - hop - 1) walk(b, hop + 1, [...trail, `${a}>${b}:${k}`]);
      };
      if (length > 0) walk(s, 0, []);
      if (expected.length > 1000) continue;
      const r = allShortestPaths(index, s, t, { kinds: null });
      expect({ pair, length: r.length, paths: r.paths.map(asText).sort() }).toEqual({ pair, length, paths: expected.sort() });
      compared += expected.length > 1 ? 1 : 0;
    }
    expect(compared).toBeGreaterThan(10); // pairs with several shortest paths, not only trivial ones
  });
});
