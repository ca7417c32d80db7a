import type { EdgeInput } from '../../src/graph/model';
import { ACL_KINDS } from '../../src/graph/kinds';
import { GraphIndex } from '../../src/graph/index/graph-index';
import { controllersOf, memberOfClosure, throughMembership, userCounts } from '../../src/graph/index/traversals';
import { useGraphDb } from '../helpers/graph';

/**
 * The entity counts are computed apart from the lists (one pass, no sets of edges): on a random graph with nested
 * and cyclic groups, every user's counts must equal the sizes of the lists the same traversals return.
 */
describe('user entity counts on the index', () => {
  const g = useGraphDb();

  it('equal the sizes of the lists, for every user of a random graph', async () => {
    let seed = 7;
    const rnd = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    const users = Array.from({ length: 40 }, (_, i) => `U${i}`);
    const groups = Array.from({ length: 12 }, (_, i) => `G${i}`);
    const computers = Array.from({ length: 25 }, (_, i) => `C${i}`);
    const all = [...users, ...groups, ...computers];
    const kinds = ['AdminTo', 'CanRDP', 'CanBackup', 'ExecuteDCOM', 'CanPSRemote', 'GenericAll', 'WriteDacl', 'Owns', 'HasSession'];
    const edges: EdgeInput[] = [];
    for (const u of users)
      for (let i = 0; i < 3; i++) edges.push({ start: u, end: groups[rnd(groups.length)]!, kind: 'MemberOf', properties: {} });
    for (const gr of groups) edges.push({ start: gr, end: groups[rnd(groups.length)]!, kind: 'MemberOf', properties: {} }); // nesting, cycles
    for (let i = 0; i < 300; i++) {
      const from = [...users, ...groups][rnd(users.length + groups.length)]!;
      edges.push({ start: from, end: all[rnd(all.length)]!, kind: kinds[rnd(kinds.length)]!, properties: {} });
    }
    await g.store().write(async (w) => {
      await w.upsertNodes([
        ...users.map((o) => ({ objectid: o, kinds: ['User'], properties: {} })),
        ...groups.map((o) => ({ objectid: o, kinds: ['Group'], properties: {} })),
        ...computers.map((o) => ({ objectid: o, kinds: ['Computer'], properties: {} })),
      ]);
      await w.upsertEdges(edges.filter((e) => e.start !== e.end));
    });
    const ix = await GraphIndex.build(g.store());
    const ids = new Map(
      (await g.db().query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [r.objectid, r.id]),
    );
    let nonzero = 0;
    for (const u of users) {
      const d = ix.dense(ids.get(u)!);
      const counts = userCounts(ix, d);
      const list = (k: string[], target?: string) => throughMembership(ix, d, k, target).nodes.size;
      // Hubs (groups counted from a kept union of their rights) at every threshold: none, most groups, all of them.
      for (const hubEdges of [1, 4, 8]) expect(userCounts(ix, d, hubEdges)).toEqual(counts);
      expect(counts).toMatchObject({
        groupMembership: memberOfClosure(ix, d).size - 1,
        adminRights: list(['AdminTo'], 'Computer'),
        rdpRights: list(['CanRDP'], 'Computer'),
        backupRights: list(['CanBackup'], 'Computer'),
        dcomRights: list(['ExecuteDCOM'], 'Computer'),
        psRemoteRights: list(['CanPSRemote'], 'Computer'),
        controllables: list([...ACL_KINDS]),
        controllers: controllersOf(ix, d).nodes.size,
      });
      if (counts.adminRights! > 0 && counts.controllables! > 0) nonzero++;
    }
    expect(nonzero).toBeGreaterThan(5);
    // Rows are sorted by kind, and kindStart bounds exactly a kind's edges of a row, in both directions.
    for (const dir of ['out', 'in'] as const) {
      const side = ix.side(dir);
      const kindAt = (q: number) => ix.outKinds[side.edges ? side.edges[q]! : q]!;
      for (let u = 0; u < ix.nodeCount; u++) {
        const row = Array.from({ length: side.offsets[u + 1]! - side.offsets[u]! }, (_, i) => side.offsets[u]! + i);
        expect(row.map(kindAt)).toEqual(row.map(kindAt).sort((a, b) => a - b));
        for (const k of [-1, ...new Set(row.map(kindAt)), ix.edgeKindId('MemberOf')]) {
          const [from, to] = [ix.kindStart(side, u, k), ix.kindStart(side, u, k + 1)];
          expect(row.filter((q) => kindAt(q) === k)).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
        }
      }
    }
  });
});
