import { runAnalysis } from '../../src/analysis/run';
import { GraphIndex } from '../../src/graph/index/graph-index';
import { allShortestPaths } from '../../src/graph/index/shortest-paths';
import type { EdgeTriple } from '../../src/graph/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { GOLDEN_INPUT } from '../helpers/fixtures';
import { useGraphDb } from '../helpers/graph';
import { pick, rng } from '../helpers/random';

/** Paths as comparable strings: "start>end:kind" hops joined by spaces, sorted. */
const indexPaths = (index: GraphIndex, s: number, t: number, kinds: string[] | null) => {
  const r = allShortestPaths(index, index.dense(s), index.dense(t), { kinds: kinds ? index.kindSet(kinds) : null, maxPaths: 100_000 });
  const hop = (pos: number) => {
    const start = index.edgeStart(pos);
    return `${index.dbId(start)}>${index.dbId(index.outTargets[pos]!)}:${index.edgeKindName(index.outKinds[pos]!)}`;
  };
  return r.paths.map((p) => [...p].map(hop).join(' ')).sort();
};
const referencePaths = (paths: EdgeTriple[][]) => paths.map((p) => p.map((e) => `${e.startId}>${e.endId}:${e.kind}`).join(' ')).sort();

describe('all shortest paths: in-memory index vs recursive SQL', () => {
  const g = useGraphDb();
  const load = g.load;

  it('finds both paths of a diamond, and none backwards', async () => {
    const { ids, index } = await load(
      ['a', 'b', 'c', 'd'],
      [
        ['a', 'b', 'X'],
        ['a', 'c', 'X'],
        ['b', 'd', 'X'],
        ['c', 'd', 'Y'],
        ['a', 'd', 'Z'],
      ],
    );
    const id = (x: string) => ids.get(x)!;
    expect(indexPaths(index, id('a'), id('d'), ['X', 'Y'])).toHaveLength(2);
    expect(indexPaths(index, id('a'), id('d'), null)).toEqual([`${id('a')}>${id('d')}:Z`]);
    expect(indexPaths(index, id('d'), id('a'), null)).toEqual([]);
    expect(indexPaths(index, id('a'), id('a'), null)).toEqual([]);
  });

  it('caps the number of paths and says so', async () => {
    // A ladder of 7 diamonds has 2^7 = 128 shortest paths of 14 hops.
    const nodes = ['n0'];
    const edges: [string, string, string][] = [];
    for (let i = 0; i < 7; i++) {
      nodes.push(`u${i}`, `d${i}`, `n${i + 1}`);
      edges.push([`n${i}`, `u${i}`, 'E'], [`n${i}`, `d${i}`, 'E'], [`u${i}`, `n${i + 1}`, 'E'], [`d${i}`, `n${i + 1}`, 'E']);
    }
    const { ids, index } = await load(nodes, edges);
    const [s, e] = [index.dense(ids.get('n0')!), index.dense(ids.get('n7')!)];
    expect(allShortestPaths(index, s, e, { kinds: null, maxPaths: 1000 })).toMatchObject({ truncated: false, length: 14 });
    expect(allShortestPaths(index, s, e, { kinds: null, maxPaths: 1000 }).paths).toHaveLength(128);
    const capped = allShortestPaths(index, s, e, { kinds: null, maxPaths: 100 });
    expect(capped).toMatchObject({ truncated: true, length: 14 });
    expect(capped.paths).toHaveLength(100);
    expect(allShortestPaths(index, s, e, { kinds: null, maxDepth: 13 }).paths).toEqual([]);
  });

  it.each(Array.from({ length: 30 }, (_, i) => i + 1))('random graph #%i: same paths as the SQL reference', async (seed) => {
    const r = rng(seed);
    const n = 6 + Math.floor(r() * 14);
    const nodes = Array.from({ length: n }, (_, i) => `N${i}`);
    const edges = new Map<string, [string, string, string]>();
    const m = n + Math.floor(r() * n * 2.5);
    for (let i = 0; i < m; i++) {
      const e: [string, string, string] = [pick(r, nodes), pick(r, nodes), pick(r, ['A', 'B', 'C'])];
      edges.set(e.join('|'), e);
    }
    const { ids, index } = await load(nodes, [...edges.values()]);
    for (let q = 0; q < 6; q++) {
      const s = ids.get(pick(r, nodes))!;
      const e = ids.get(pick(r, nodes))!;
      const kinds = q % 2 ? ['A', 'B'] : null;
      expect({ s, e, kinds, paths: indexPaths(index, s, e, kinds) }).toEqual({
        s,
        e,
        kinds,
        paths: referencePaths(await g.store().allShortestPaths(s, e, kinds, 15)),
      });
    }
  });

  it('agrees with SQL on the TESTLAB graph after analysis', async () => {
    await load([], []);
    for (const f of GOLDEN_INPUT) await ingestPath(g.store(), f);
    await runAnalysis(g.store());
    const index = await GraphIndex.build(g.store());
    const rows = await g
      .db()
      .query<{ id: number }>(
        `select n.id from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name in ('User', 'Group', 'Computer') order by n.id`,
      );
    const targets = await g
      .db()
      .query<{ id: number }>(
        `select n.id from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids) where k.name in ('Domain', 'Computer') order by n.id`,
      );
    let found = 0;
    for (const { id: s } of rows.filter((_, i) => i % 4 === 0)) {
      for (const { id: e } of targets.slice(0, 6)) {
        const ours = indexPaths(index, s, e, null);
        found += ours.length;
        expect({ s, e, ours }).toEqual({ s, e, ours: referencePaths(await g.store().allShortestPaths(s, e, null, 15)) });
      }
    }
    expect(found).toBeGreaterThan(10);
  }, 120_000);
});
