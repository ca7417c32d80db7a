import type { EdgeInput } from '../../../src/graph/model';
import { EdgeMerge } from '../../../src/graph/pg/merge';

/**
 * The edge merge keys edges by numbers made of their endpoints' and kind's first-seen order; past its bounds it
 * keys them by strings, and repeats on either side of that switch must still merge.
 */
describe('edge merge', () => {
  const edge = (start: string, end: string, kind: string, properties: Record<string, unknown> = {}) =>
    ({ start, end, kind, properties }) as EdgeInput;
  const keyOf = (e: EdgeInput) => `${e.start}>${e.end}:${e.kind}`;

  const merged = (edges: EdgeInput[], bounds: [number, number] | [] = []) => {
    const m = new EdgeMerge(...bounds);
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

  it.each([
    ['endpoints', [4, 2048] as [number, number]],
    ['kinds', [2048, 1] as [number, number]],
  ])('still merges repeats across the switch to string keys past its bound of %s', (_what, bounds) => {
    const kinds = ['MemberOf', 'AdminTo', 'Owns', 'GenericAll'];
    const edges: EdgeInput[] = [];
    for (let i = 0; i < 24; i++) edges.push(edge(`S${i % 6}`, `T${i % 4}`, kinds[i % 2]!, { ['p' + i]: i }));
    const plain = merged(edges.map((e) => ({ ...e, properties: { ...e.properties } })));
    const bounded = merged(edges, bounds);
    expect(bounded.list.map(keyOf)).toEqual(plain.list.map(keyOf));
    expect(bounded.list.map((e) => e.properties)).toEqual(plain.list.map((e) => e.properties));
    expect(bounded.ids).toEqual(plain.ids);
    // and a repeat of a key first seen before the switch
    const again = merged([...edges, edge('S0', 'T0', 'MemberOf', { late: true })], bounds);
    expect(again.list).toHaveLength(plain.list.length);
    expect(again.list.find((e) => keyOf(e) === 'S0>T0:MemberOf')!.properties).toMatchObject({ p0: 0, late: true });
  });
});
