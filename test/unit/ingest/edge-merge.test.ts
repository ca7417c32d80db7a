import type { EdgeInput } from '../../../src/graph/model';
import { EdgeMerge } from '../../../src/graph/pg/merge';

/**
 * The edge merge finds edges by their endpoints' and kind's first-seen numbers in a table of its own; it must merge
 * exactly as a merge by joined keys would.
 */
describe('edge merge', () => {
  const edge = (start: string, end: string, kind: string, properties: Record<string, unknown> = {}) =>
    ({ start, end, kind, properties }) as EdgeInput;
  const keyOf = (e: EdgeInput) => `${e.start}>${e.end}:${e.kind}`;

  const merged = (edges: EdgeInput[]) => {
    const m = new EdgeMerge();
    for (const e of edges) m.add(e);
    const list = m.result(edges);
    return { list, ids: m.endpointIds() };
  };

  it('merges repeats by (start, end, kind) and gives each merged edge its endpoints as ids', () => {
    const edges = [
      edge('A', 'B', 'MemberOf', { x: 1 }),
      edge('A', 'B', 'GenericAll'),
      edge('B', 'A', 'MemberOf'),
      edge('A', 'B', 'MemberOf', { y: 2 }),
      // a key joined from these ids without a separator would equal another's: "A1"+"1" = "A"+"11"
      edge('A1', '1', 'Owns'),
      edge('A', '11', 'Owns'),
    ];
    const { list, ids } = merged(edges);
    expect(list.map(keyOf)).toEqual(['A>B:MemberOf', 'A>B:GenericAll', 'B>A:MemberOf', 'A1>1:Owns', 'A>11:Owns']);
    expect(list[0]!.properties).toEqual({ x: 1, y: 2 });
    expect(edges[0]!.properties).toEqual({ x: 1 }); // inputs untouched
    const names = new Map<number, string>();
    list.forEach((e, i) => {
      for (const [id, o] of [
        [ids.start[i]!, e.start],
        [ids.end[i]!, e.end],
      ] as const) {
        expect(names.get(id) ?? o).toBe(o);
        names.set(id, o);
      }
    });
    expect(ids.endpoints).toBe(new Set(list.flatMap((e) => [e.start, e.end])).size);
  });

  it('returns the input itself when nothing repeats', () => {
    const edges = [edge('A', 'B', 'MemberOf'), edge('B', 'C', 'MemberOf')];
    expect(merged(edges).list).toBe(edges);
  });

  it('merges repeats among many edges as a merge by joined keys does, while its table grows', () => {
    // 60,000 edges with ~30,000 keys, each met twice, with properties that tell the order. Few distinct values per
    // part make keys that differ in one part only common, so the table's neighbours often share the other two.
    const edges: EdgeInput[] = [];
    for (let i = 0; i < 60_000; i++) {
      const n = (i * 7919) % 30_011;
      edges.push(edge(`S-${n % 97}`, `T-${Math.floor(n / 97) % 31}`, `K${Math.floor(n / 3007)}`, { ['p' + (i % 3)]: i }));
    }
    const reference = new Map<string, Record<string, unknown>>();
    for (const e of edges) reference.set(keyOf(e), { ...reference.get(keyOf(e)), ...e.properties });
    const { list, ids } = merged(edges);
    expect(list.length).toBeLessThan(edges.length);
    expect(list.map(keyOf)).toEqual([...reference.keys()]);
    expect(list.map((e) => e.properties)).toEqual([...reference.values()]);
    expect(ids.start).toHaveLength(list.length);
    expect(ids.endpoints).toBe(new Set(edges.flatMap((e) => [e.start, e.end])).size);
  });
});
