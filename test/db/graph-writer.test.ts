import { PgGraphStore } from '../../src/graph/pg/store';
import { useGraphDb } from '../helpers/graph';

/**
 * The graph writer's merge rules, the same on both write paths (COPY + set-based merge, and the parameterised
 * statements the store keeps for callers without COPY): kinds unioned, incoming properties win, placeholder endpoints, edges by node id, and
 * values COPY's text format would otherwise mangle.
 */
describe('graph writer', () => {
  const g = useGraphDb();

  const HOSTILE = 'TAB\tNL\nCR\rBS\\ \\N quote" ünï 𝄞';

  it('merges nodes and edges, creates typed placeholders and keeps hostile bytes intact', async () => {
    await g.store().write(async (w) => {
      await w.upsertNodes([
        { objectid: 'A', kinds: ['Base', 'User'], properties: { name: HOSTILE, n: 1, keep: true } },
        { objectid: 'A', kinds: ['Tag'], properties: { n: 2 } },
      ]);
      await w.upsertEdges([
        { start: 'A', end: 'P\tQ', kind: 'MemberOf', properties: { lastseen: 'x', note: HOSTILE }, startKind: 'User', endKind: 'Group' },
        { start: 'A', end: 'P\tQ', kind: 'MemberOf', properties: { extra: 1 } },
      ]);
    });
    await g.store().write(async (w) => {
      await w.upsertNodes([{ objectid: 'A', kinds: ['User', 'Other'], properties: { n: 3 } }]);
      await w.upsertEdges([{ start: 'A', end: 'P\tQ', kind: 'MemberOf', properties: { later: true } }]);
    });
    const a = (await g.store().nodeByObjectId('A'))!;
    expect(a.kinds.sort()).toEqual(['Base', 'Other', 'Tag', 'User']);
    expect(a.properties).toEqual({ name: HOSTILE, n: 3, keep: true });
    const p = (await g.store().nodeByObjectId('P\tQ'))!;
    expect(p.kinds.sort()).toEqual(['Base', 'Group']);
    expect(p.properties).toEqual({ objectid: 'P\tQ', lastseen: 'x' });
    const [e] = await g.store().edgesByTriples([{ startId: a.id, endId: p.id, kind: 'MemberOf' }]);
    expect(e!.properties).toEqual({ lastseen: 'x', note: HOSTILE, extra: 1, later: true });
  });

  it('inserts edges by node id in streamed batches, merging repeats', async () => {
    const a = (await g.store().nodeByObjectId('A'))!;
    const p = (await g.store().nodeByObjectId('P\tQ'))!;
    const written = await g.store().write(async (w) => {
      const ids = await w.nodeIds(['A', 'P\tQ', 'MISSING']);
      expect([...ids.entries()].sort()).toEqual([
        ['A', a.id],
        ['P\tQ', p.id],
      ]);
      return w.insertEdgesByNodeId(
        (function* () {
          yield { startId: a.id, endId: p.id, kind: 'AdminTo', properties: { x: 1 } };
          yield { startId: a.id, endId: p.id, kind: 'AdminTo', properties: { y: HOSTILE } };
          yield { startId: p.id, endId: a.id, kind: 'NewKind', properties: {} };
        })(),
      );
    });
    expect(written).toBe(2);
    const edges = await g.store().edgesByTriples([
      { startId: a.id, endId: p.id, kind: 'AdminTo' },
      { startId: p.id, endId: a.id, kind: 'NewKind' },
    ]);
    expect(edges.map((e) => [e.kind, e.properties]).sort()).toEqual([
      ['AdminTo', { x: 1, y: HOSTILE }],
      ['NewKind', {}],
    ]);
  });

  it('inserts edges by node id next to ones already in the graph: merged, and the rest of the write still lands', async () => {
    const [a, p] = [(await g.store().nodeByObjectId('A'))!, (await g.store().nodeByObjectId('P\tQ'))!];
    await g.store().write(async (w) => {
      // Said to be absent: straight into the graph (on a server: COPY); a batch with one that exists after all is
      // merged instead, and so is the rest of the transaction.
      const absent = { absent: true };
      await w.insertEdgesByNodeId([{ startId: p.id, endId: a.id, kind: 'CanRDP', properties: { first: 1 } }], absent);
      await w.insertEdgesByNodeId(
        [
          { startId: a.id, endId: p.id, kind: 'AdminTo', properties: { z: 2 } },
          { startId: p.id, endId: a.id, kind: 'CanPSRemote', properties: {} },
        ],
        absent,
      );
      await w.insertEdgesByNodeId([{ startId: p.id, endId: a.id, kind: 'ExecuteDCOM', properties: { last: true } }], absent);
    });
    const edges = await g.store().edgesByTriples([
      { startId: p.id, endId: a.id, kind: 'CanRDP' },
      { startId: a.id, endId: p.id, kind: 'AdminTo' },
      { startId: p.id, endId: a.id, kind: 'CanPSRemote' },
      { startId: p.id, endId: a.id, kind: 'ExecuteDCOM' },
    ]);
    expect(edges.map((e) => [e.kind, e.properties]).sort()).toEqual([
      ['AdminTo', { x: 1, y: HOSTILE, z: 2 }],
      ['CanPSRemote', {}],
      ['CanRDP', { first: 1 }],
      ['ExecuteDCOM', { last: true }],
    ]);
  });

  it('writes edges by node id with properties given for all of them over their own', async () => {
    const [a, p] = [(await g.store().nodeByObjectId('A'))!, (await g.store().nodeByObjectId('P\tQ'))!];
    const own = { isacl: true, lastseen: 'old' };
    await g.store().write(async (w) => {
      await w.insertEdgesByNodeId([{ startId: p.id, endId: a.id, kind: 'WriteOwner', properties: own }], {
        absent: true,
        properties: { lastseen: 'now' },
      });
      await w.insertEdgesByNodeId([{ startId: a.id, endId: p.id, kind: 'Owns', properties: {} }], { properties: { lastseen: 'now' } });
    });
    const edges = await g.store().edgesByTriples([
      { startId: p.id, endId: a.id, kind: 'WriteOwner' },
      { startId: a.id, endId: p.id, kind: 'Owns' },
    ]);
    expect(edges.map((e) => [e.kind, e.properties]).sort()).toEqual([
      ['Owns', { lastseen: 'now' }],
      ['WriteOwner', { isacl: true, lastseen: 'now' }],
    ]);
    expect(own).toEqual({ isacl: true, lastseen: 'old' }); // the caller's object is left as it was
  });

  it('merges an edge met again later in the same write, keeping the batches before it', async () => {
    const edge = (end: string, properties: Record<string, unknown>) => ({ start: 'R', end, kind: 'GenericAll', properties });
    await g.store().write(async (w) => {
      await w.upsertEdges([edge('R1', { a: 1 }), edge('R2', { b: 1 })]);
      // R1 exists now: this batch cannot go straight into the graph and is merged; R3 must not be lost.
      await w.upsertEdges([edge('R1', { a: 2, c: 1 }), edge('R3', { d: 1 })]);
      await w.upsertEdges([edge('R4', {}), edge('R2', { b: 2 })]);
    });
    const r = (await g.store().nodeByObjectId('R'))!;
    const ends = await g.store().nodesByObjectIds(['R1', 'R2', 'R3', 'R4']);
    const edges = await g.store().edgesByTriples(ends.map((n) => ({ startId: r.id, endId: n.id, kind: 'GenericAll' })));
    const byEnd = new Map(ends.map((n) => [n.id, n.objectid]));
    expect(edges.map((e) => [byEnd.get(e.endId), e.properties]).sort()).toEqual([
      ['R1', { a: 2, c: 1 }],
      ['R2', { b: 2 }],
      ['R3', { d: 1 }],
      ['R4', {}],
    ]);
  });

  it('resolves endpoints again after a node is deleted or loses a kind in the same write', async () => {
    await g.store().write(async (w) => {
      await w.upsertNodes([{ objectid: 'K1', kinds: ['Base', 'User'], properties: {} }]);
      await w.upsertEdges([{ start: 'K1', end: 'K2', kind: 'MemberOf', properties: {}, endKind: 'Group' }]);
      // Both nodes are known to the writer now; a deleted one must come back as a new placeholder, not a stale id.
      await w.deleteNodes(['K2']);
      await w.upsertEdges([{ start: 'K1', end: 'K2', kind: 'AdminTo', properties: {}, endKind: 'Computer' }]);
      // A kind taken off every node: the placeholder K3 is left with Base alone and typed again by the next edge.
      await w.upsertEdges([{ start: 'K1', end: 'K3', kind: 'MemberOf', properties: {}, endKind: 'Group' }]);
      await w.removeKindEverywhere('Group');
      await w.upsertEdges([{ start: 'K1', end: 'K3', kind: 'GenericAll', properties: {}, endKind: 'Group' }]);
    });
    const [k1, k2, k3] = await Promise.all(['K1', 'K2', 'K3'].map(async (o) => (await g.store().nodeByObjectId(o))!));
    expect(k2!.kinds.sort()).toEqual(['Base', 'Computer']);
    expect(k3!.kinds.sort()).toEqual(['Base', 'Group']);
    const edges = await g.store().edgesByTriples([
      { startId: k1!.id, endId: k2!.id, kind: 'MemberOf' },
      { startId: k1!.id, endId: k2!.id, kind: 'AdminTo' },
      { startId: k1!.id, endId: k3!.id, kind: 'GenericAll' },
    ]);
    expect(edges.map((e) => e.kind).sort()).toEqual(['AdminTo', 'GenericAll']);
  });

  it('keeps every edge when the map of known nodes passes its bound in the middle of a write', async () => {
    // A bound of 5: the third batch's new endpoints push the map past it while the batch's edges still need the
    // ids of endpoints it already knew (the hubs). Emptying the map at that point used to leave those edges out.
    const store = new PgGraphStore(g.db(), { knownNodes: 5 });
    const hubs = ['BOUND-HUB1', 'BOUND-HUB2'];
    const batch = (n: number) =>
      Array.from({ length: 4 }, (_, i) =>
        hubs.map((h) => ({ start: `BOUND-U${n}-${i}`, end: h, kind: 'MemberOf', properties: {} })),
      ).flat();
    await store.write(async (w) => {
      await w.upsertNodes(hubs.map((o) => ({ objectid: o, kinds: ['Base', 'Group'], properties: {} })));
      for (let n = 0; n < 4; n++) await w.upsertEdges(batch(n));
    });
    const [row] = await g
      .db()
      .query<{ n: number }>(
        `select count(*)::int as n from graph_edges e join graph_nodes t on t.id = e.end_id where t.objectid like 'BOUND-HUB%'`,
      );
    expect(row!.n).toBe(4 * 4 * 2);
  });

  it('writes the edge to a new placeholder when another writer deletes its endpoint while the batch resolves it', async () => {
    await g.store().write((w) =>
      w.upsertNodes([
        { objectid: 'RACE-A', kinds: ['Base', 'User'], properties: {} },
        { objectid: 'RACE-X', kinds: ['Base', 'Group'], properties: {} },
      ]),
    );
    // Another writer deletes RACE-X and holds its transaction open.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let deleted!: () => void;
    const didDelete = new Promise<void>((r) => (deleted = r));
    const other = g.db().tx(async (q) => {
      await q.execute(`delete from graph_nodes where objectid = 'RACE-X'`);
      deleted();
      await held;
    });
    await didDelete;
    // Our write's snapshot still sees RACE-X; locking it waits for the other writer, which then commits.
    const write = g.store().write((w) => w.upsertEdges([{ start: 'RACE-A', end: 'RACE-X', kind: 'MemberOf', properties: {} }]));
    write.catch(() => undefined);
    for (let i = 0; i < 100; i++) {
      const [w] = await g
        .db()
        .query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
      if (w!.n > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    release();
    await other;
    // As if the delete had come first: the endpoint is created again, as a placeholder of the edge's kind, and
    // the edge points at it (never at the deleted row's id).
    await write;
    const rows = await g.db().query<{ objectid: string; props: Record<string, unknown>; kinds: string[] }>(
      `select t.objectid, t.properties as props,
                array(select k.name from graph_kinds k where k.id = any(t.kind_ids) order by k.name) as kinds
         from graph_edges e join graph_nodes a on a.id = e.start_id join graph_nodes t on t.id = e.end_id
         where a.objectid = 'RACE-A'`,
    );
    expect(rows).toEqual([{ objectid: 'RACE-X', props: { objectid: 'RACE-X', lastseen: null }, kinds: ['Base'] }]);
  });

  it('writes nothing of a transaction that fails, even with a batch still in flight', async () => {
    const before = await g.store().counts();
    await expect(
      g.store().write(async (w) => {
        await w.upsertNodes([{ objectid: 'GONE', kinds: ['Base'], properties: {} }]);
        await w.upsertEdges([{ start: 'GONE', end: 'GONE2', kind: 'MemberOf', properties: {} }]);
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    await expect(
      g.store().write(async (w) => {
        // A NUL is not storable in jsonb: the database refuses the batch, the whole write rolls back.
        await w.upsertNodes([{ objectid: 'BAD', kinds: ['Base'], properties: { v: 'a\u0000b' } }]);
        await w.upsertNodes([{ objectid: 'AFTER', kinds: ['Base'], properties: {} }]);
      }),
    ).rejects.toThrow();
    expect(await g.store().counts()).toEqual(before);
    expect(await g.store().nodeByObjectId('GONE')).toBeUndefined();
  });
});
