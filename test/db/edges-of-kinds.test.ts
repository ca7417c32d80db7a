import { useGraphDb } from '../helpers/graph';

/** edgesOfKinds, as analysis loads its inputs: every edge of the kinds, properties only where asked for. */
describe('edges of kinds', () => {
  const g = useGraphDb();

  beforeEach(async () => {
    await g.store().write(async (w) => {
      await w.upsertEdges([
        { start: 'A', end: 'B', kind: 'GPLink', properties: { enforced: true } },
        { start: 'A', end: 'C', kind: 'MemberOf', properties: { lastseen: 'x' } },
        { start: 'B', end: 'C', kind: 'OwnsRaw', properties: { isacl: true } },
        { start: 'C', end: 'A', kind: 'Contains', properties: { other: 1 } },
      ]);
    });
  });

  const byKind = (edges: { kind: string; properties: object }[]) =>
    Object.fromEntries(edges.map((e) => [e.kind, e.properties]).sort(([a], [b]) => String(a).localeCompare(String(b))));

  it('reads every property of every edge when no kinds are named for them', async () => {
    const edges = await g.store().edgesOfKinds(['GPLink', 'MemberOf', 'OwnsRaw']);
    expect(byKind(edges)).toEqual({ GPLink: { enforced: true }, MemberOf: { lastseen: 'x' }, OwnsRaw: { isacl: true } });
  });

  it('reads the properties of the kinds named only, the others as an empty frozen object', async () => {
    const edges = await g.store().edgesOfKinds(['GPLink', 'MemberOf', 'OwnsRaw', 'Contains'], ['GPLink', 'OwnsRaw', 'NoSuchKind']);
    expect(edges).toHaveLength(4);
    expect(byKind(edges)).toEqual({ Contains: {}, GPLink: { enforced: true }, MemberOf: {}, OwnsRaw: { isacl: true } });
    const bare = edges.find((e) => e.kind === 'MemberOf')!;
    expect(Object.isFrozen(bare.properties)).toBe(true);
    expect(Object.isFrozen(edges.find((e) => e.kind === 'GPLink')!.properties)).toBe(false);
  });

  it('adds no kind when a read or a removal names one the graph has never held', async () => {
    const kindCount = async () => Number((await g.db().query<{ n: string }>('select count(*) as n from graph_kinds'))[0]!.n);
    const before = await kindCount();
    const store = g.store();
    expect(await store.edgesOfKinds(['NoSuchKind'], ['AlsoUnknown'])).toEqual([]);
    const [gplink] = await store.edgesOfKinds(['GPLink']);
    expect(await store.edgesByTriples([{ startId: gplink!.startId, endId: gplink!.endId, kind: 'NoSuchTriple' }])).toEqual([]);
    expect(await store.allShortestPaths(gplink!.startId, gplink!.endId, ['NoSuchPathKind'], 5)).toEqual([]);
    await store.write(async (w) => {
      expect(await w.deleteEdgesOfKinds(['NoSuchDeleted'])).toBe(0);
      expect(await w.removeKindEverywhere('NoSuchRemoved')).toBe(0);
    });
    expect(await kindCount()).toBe(before);
    // The known ones still read and write as before.
    expect(await store.edgesByTriples([{ startId: gplink!.startId, endId: gplink!.endId, kind: 'GPLink' }])).toHaveLength(1);
    expect(await store.allShortestPaths(gplink!.startId, gplink!.endId, ['GPLink'], 5)).toHaveLength(1);
  });

  it('reads every edge of a kind across pages (more edges than one page holds)', async () => {
    const count = 10_050; // the store reads 10,000 per page
    const edges = Array.from({ length: count }, (_, i) => ({ start: `P${i % 101}`, end: `Q${i}`, kind: 'PagedKind', properties: { i } }));
    await g.store().write(async (w) => {
      await w.upsertEdges(edges);
    });
    const read = await g.store().edgesOfKinds(['PagedKind'], ['PagedKind']);
    expect(read).toHaveLength(count);
    expect(new Set(read.map((e) => e.id)).size).toBe(count);
    expect(new Set(read.map((e) => e.properties.i)).size).toBe(count);
  });

  it('hands edges over in id order, each once, whether read with properties or without (COPY and pages on a server)', async () => {
    // Kinds read with and without properties interleave in id order; a kind not asked for sits between them.
    const edges = Array.from({ length: 300 }, (_, i) => ({
      start: `S${i % 7}`,
      end: `T${i}`,
      kind: ['GPLink', 'MemberOf', 'Contains', 'NotAsked'][i % 4]!,
      properties: { i },
    }));
    await g.store().write(async (w) => {
      for (const e of edges) await w.upsertEdges([e]); // one statement each: ids follow the list
    });
    const read = await g.store().edgesOfKinds(['GPLink', 'MemberOf', 'Contains'], ['GPLink']);
    const stored = await g
      .db()
      .query<{ id: number; kind: string }>(
        `select e.id, k.name as kind from graph_edges e join graph_kinds k on k.id = e.kind_id where k.name = any($1) order by e.id`,
        [['GPLink', 'MemberOf', 'Contains']],
      );
    expect(read.map((e) => `${e.id} ${e.kind}`)).toEqual(stored.map((r) => `${Number(r.id)} ${r.kind}`));
    // Properties exactly for the kind named (the 75 GPLinks above and the one of beforeEach), none for the others.
    expect(read.filter((e) => typeof e.properties.i === 'number').map((e) => e.kind)).toEqual(Array(75).fill('GPLink'));
    expect(read.filter((e) => e.kind === 'GPLink' && Object.keys(e.properties).length === 0)).toEqual([]);
    expect(read.filter((e) => e.kind !== 'GPLink' && Object.keys(e.properties).length > 0)).toEqual([]);
  });
});
