import request from 'supertest';
import { useTestApp, type TestApp } from '../helpers/app';

const USER = 'S-1-5-21-77-1001';

async function seed(t: TestApp, name: string): Promise<void> {
  await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: USER, kinds: ['Base', 'User'], properties: { name } }]));
}

/** Changes the node behind the store's back: no generation bump, as no writer of ours would do it. */
async function rename(t: TestApp, name: string, bump: boolean): Promise<void> {
  await t.testDb.db.query(`update graph_nodes set properties = properties || jsonb_build_object('name', $2::text) where objectid = $1`, [
    USER,
    name,
  ]);
  if (bump) await t.testDb.db.query('update graph_state set generation = generation + 1 where id = 1');
}

/**
 * Entity look-ups read a node from memory while the graph's epoch stays (the index holder's: a local write or a
 * new generation moves it), and from the database again once it moved: repeated requests for one node cost no
 * round trip, and no write is hidden longer than the index check interval.
 */
describe('nodes kept in memory per graph epoch', () => {
  describe('with a long check interval', () => {
    const t = useTestApp({ indexCheckMs: 60_000 });
    const name = async () => {
      const res = await request(t.app).get(`/api/v2/users/${USER}?counts=false`).set('Authorization', `Bearer ${t.adminJwt}`);
      expect(res.status).toBe(200);
      return res.body.data.props.name as string;
    };

    it('answers a repeated look-up from memory, and a local write shows at once', async () => {
      await seed(t, 'FIRST@CORP');
      await t.infra.graphIndex.invalidate();
      expect(await name()).toBe('FIRST@CORP');
      await rename(t, 'BEHIND@CORP', false);
      expect(await name()).toBe('FIRST@CORP'); // the node kept in memory answered
      // The entity routes (another service) read through the same memory: one round trip for a whole panel.
      const base = await request(t.app).get(`/api/v2/base/${USER}?counts=false`).set('Authorization', `Bearer ${t.adminJwt}`);
      expect(base.status).toBe(200);
      expect(base.body.data.props.name).toBe('FIRST@CORP');
      // A write through the store, then the holder told (as the data pipeline does after an ingest).
      await seed(t, 'WRITTEN@CORP');
      void t.infra.graphIndex.invalidate();
      expect(await name()).toBe('WRITTEN@CORP');
    });
  });

  describe('shortest paths', () => {
    const t = useTestApp({ indexCheckMs: 60_000 });
    const GROUP = 'S-1-5-21-77-512';
    const path = (start: string) =>
      request(t.app).get(`/api/v2/graphs/shortest-path?start_node=${start}&end_node=${GROUP}`).set('Authorization', `Bearer ${t.adminJwt}`);

    it('read their start and end nodes through the same memory, and a local write shows at once', async () => {
      await t.infra.graphStore.write(async (w) => {
        await w.upsertNodes([
          { objectid: USER, kinds: ['Base', 'User'], properties: { name: 'U@CORP' } },
          { objectid: GROUP, kinds: ['Base', 'Group'], properties: { name: 'G@CORP' } },
        ]);
        await w.upsertEdges([{ start: USER, end: GROUP, kind: 'MemberOf', properties: {} }]);
      });
      await t.infra.graphIndex.invalidate();
      expect((await path(USER)).status).toBe(200);
      // The user's object id changed behind the store's back: the old id is still answered from memory.
      await t.testDb.db.query(`update graph_nodes set objectid = 'S-1-5-21-77-1999' where objectid = $1`, [USER]);
      const remembered = await path(USER);
      expect(remembered.status).toBe(200);
      expect(Object.keys(remembered.body.data.nodes ?? {})).toHaveLength(2);
      // A write through the store moves the epoch: the old id is looked up again, and is gone.
      await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-77-2000', kinds: ['Base', 'User'], properties: {} }]));
      void t.infra.graphIndex.invalidate();
      expect((await path(USER)).status).toBe(404);
    });
  });

  describe('list entries', () => {
    const t = useTestApp({ indexCheckMs: 60_000 });
    const GROUP = 'S-1-5-21-77-1100';
    const COMPUTERS = ['S-1-5-21-77-2001', 'S-1-5-21-77-2002', 'S-1-5-21-77-2003'];
    const list = async (query = '') => {
      const res = await request(t.app).get(`/api/v2/groups/${GROUP}/ps-remote-rights${query}`).set('Authorization', `Bearer ${t.adminJwt}`);
      expect(res.status).toBe(200);
      return res.body as { count: number; data: { objectid: string; name: string }[] };
    };

    it('are read once per epoch, for every page and order, and a local write shows at once', async () => {
      await t.infra.graphStore.write(async (w) => {
        await w.upsertNodes([
          { objectid: GROUP, kinds: ['Base', 'Group'], properties: { name: 'REMOTERS@CORP' } },
          ...COMPUTERS.map((c, i) => ({ objectid: c, kinds: ['Base', 'Computer'], properties: { name: `PC${i + 1}.CORP` } })),
        ]);
        await w.upsertEdges(COMPUTERS.map((c) => ({ start: GROUP, end: c, kind: 'CanPSRemote', properties: {} })));
      });
      await t.infra.graphIndex.invalidate();
      const first = await list('?sort_by=name');
      expect(first.count).toBe(3);
      expect(first.data.map((d) => d.name)).toEqual(['PC1.CORP', 'PC2.CORP', 'PC3.CORP']);
      // Renamed behind the store's back: the summaries kept in memory answer, in any order and page.
      await t.testDb.db.query(`update graph_nodes set properties = properties || '{"name": "ZZ.CORP"}' where objectid = $1`, [
        COMPUTERS[0],
      ]);
      expect((await list('?sort_by=-name&skip=1&limit=1')).data.map((d) => d.name)).toEqual(['PC2.CORP']);
      // A write through the store moves the epoch: the summaries are read again.
      await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-77-2999', kinds: ['Base', 'User'], properties: {} }]));
      void t.infra.graphIndex.invalidate();
      expect((await list('?sort_by=name')).data.map((d) => d.name)).toEqual(['PC2.CORP', 'PC3.CORP', 'ZZ.CORP']);
    });
  });

  describe('path graphs', () => {
    const t = useTestApp({ indexCheckMs: 60_000 });
    const [A, G, C] = ['S-1-5-21-78-1001', 'S-1-5-21-78-1100', 'S-1-5-21-78-2001'];
    const path = async () => {
      const res = await request(t.app)
        .get(`/api/v2/graphs/shortest-path?start_node=${A}&end_node=${C}`)
        .set('Authorization', `Bearer ${t.adminJwt}`);
      expect(res.status).toBe(200);
      const { nodes, edges } = res.body.data as {
        nodes: Record<string, { objectId: string; label: string }>;
        edges: { kind: string; properties?: Record<string, unknown> }[];
      };
      return {
        labels: Object.values(nodes)
          .map((n) => n.label)
          .sort(),
        edges: edges.map((e) => `${e.kind}:${String(e.properties?.note ?? '')}`).sort(),
      };
    };

    it("read a path's nodes and edges once per epoch, and a local write shows at once", async () => {
      await t.infra.graphStore.write(async (w) => {
        await w.upsertNodes([
          { objectid: A, kinds: ['Base', 'User'], properties: { name: 'A@CORP' } },
          { objectid: G, kinds: ['Base', 'Group'], properties: { name: 'G@CORP' } },
          { objectid: C, kinds: ['Base', 'Computer'], properties: { name: 'C.CORP' } },
        ]);
        await w.upsertEdges([
          { start: A, end: G, kind: 'MemberOf', properties: { note: 'one' } },
          { start: G, end: C, kind: 'AdminTo', properties: { note: 'two' } },
        ]);
      });
      await t.infra.graphIndex.invalidate();
      const first = await path();
      expect(first).toEqual({ labels: ['A@CORP', 'C.CORP', 'G@CORP'], edges: ['AdminTo:two', 'MemberOf:one'] });
      // Changed behind the store's back: the nodes and edges kept in memory answer.
      await t.testDb.db.query(`update graph_nodes set properties = properties || '{"name": "ZZ@CORP"}' where objectid = $1`, [G]);
      await t.testDb.db.query(`update graph_edges set properties = properties || '{"note": "changed"}'`);
      expect(await path()).toEqual(first);
      // A write through the store moves the epoch: both are read again.
      await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-78-2999', kinds: ['Base', 'User'], properties: {} }]));
      void t.infra.graphIndex.invalidate();
      expect(await path()).toEqual({ labels: ['A@CORP', 'C.CORP', 'ZZ@CORP'], edges: ['AdminTo:changed', 'MemberOf:changed'] });
    });
  });

  describe('before the first index is built', () => {
    const t = useTestApp({ indexCheckMs: 60_000 });

    it('reads the node from the database without waiting for an index build', async () => {
      await seed(t, 'COLD@CORP');
      expect(t.infra.graphIndex.ready).toBe(false);
      const res = await request(t.app).get(`/api/v2/users/${USER}?counts=false`).set('Authorization', `Bearer ${t.adminJwt}`);
      expect(res.status).toBe(200);
      expect(res.body.data.props.name).toBe('COLD@CORP');
      expect(t.infra.graphIndex.ready).toBe(false);
    });
  });

  describe('before the first index is built, with the check on every request', () => {
    const t = useTestApp({ indexCheckMs: 0 });

    const get = () => request(t.app).get(`/api/v2/users/${USER}?counts=false`).set('Authorization', `Bearer ${t.adminJwt}`);

    it('keeps the node from the start, before anyone asked for a path', async () => {
      await seed(t, 'FIRST@CORP');
      expect((await get()).body.data.props.name).toBe('FIRST@CORP');
      await rename(t, 'BEHIND@CORP', false);
      expect((await get()).body.data.props.name).toBe('FIRST@CORP'); // from memory: the generation did not move
      expect(t.infra.graphIndex.ready).toBe(false);
    });

    it("shows another writer's new generation without building an index", async () => {
      await rename(t, 'OTHER@CORP', true);
      expect((await get()).body.data.props.name).toBe('OTHER@CORP');
      expect(t.infra.graphIndex.ready).toBe(false);
    });
  });

  describe('with the check on every request (tests) ', () => {
    const t = useTestApp();

    it("shows another writer's change as soon as its generation is seen", async () => {
      await seed(t, 'FIRST@CORP');
      await t.infra.graphIndex.invalidate();
      const get = () => request(t.app).get(`/api/v2/users/${USER}?counts=false`).set('Authorization', `Bearer ${t.adminJwt}`);
      expect((await get()).body.data.props.name).toBe('FIRST@CORP');
      await rename(t, 'OTHER@CORP', true);
      expect((await get()).body.data.props.name).toBe('OTHER@CORP');
    });
  });
});
