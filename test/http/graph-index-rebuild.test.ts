import request from 'supertest';
import { useTestApp } from '../helpers/app';

/**
 * A rebuild of the path index (after an ingest) happens off to the side: queries that arrive while it runs answer
 * from the previous index at once, and see the new graph once the rebuild has swapped it in.
 */
describe('graph index rebuild does not block queries', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const path = (end: string) => `/api/v2/graphs/shortest-path?start_node=S-1-5-21-7-1&end_node=${end}`;

  it('answers shortest-path from the old index during a rebuild, then from the new one', async () => {
    const store = t.infra.graphStore;
    await store.write(async (w) => {
      await w.upsertNodes([
        { objectid: 'S-1-5-21-7-1', kinds: ['Base', 'User'], properties: { name: 'A@CORP' } },
        { objectid: 'S-1-5-21-7-2', kinds: ['Base', 'Group'], properties: { name: 'G@CORP' } },
        { objectid: 'S-1-5-21-7-3', kinds: ['Base', 'Computer'], properties: { name: 'C@CORP' } },
      ]);
      await w.upsertEdges([{ start: 'S-1-5-21-7-1', end: 'S-1-5-21-7-2', kind: 'MemberOf', properties: {} }]);
    });
    await t.infra.graphIndex.invalidate();
    const before = await t.infra.graphIndex.current();
    const none = await request(t.app).get(path('S-1-5-21-7-3')).set(admin());
    expect(none.status).toBe(404); // no path yet

    // A write (as an ingest makes), then the rebuild starts; it is still running when the query below arrives.
    await store.write((w) => w.upsertEdges([{ start: 'S-1-5-21-7-2', end: 'S-1-5-21-7-3', kind: 'AdminTo', properties: {} }]));
    const rebuilt = t.infra.graphIndex.invalidate();
    expect(t.infra.graphIndex.rebuilding).toBe(true);
    const during = await t.infra.graphIndex.current();
    expect(during).toBe(before); // the old index, handed out without waiting
    const answered = await request(t.app).get(path('S-1-5-21-7-2')).set(admin());
    expect(answered.status).toBe(200);
    expect(answered.headers['path-count']).toBe('1');

    await rebuilt;
    expect(t.infra.graphIndex.rebuilding).toBe(false);
    const after = await t.infra.graphIndex.current();
    expect(after).not.toBe(before);
    expect(after.generation).toBeGreaterThan(before.generation);
    const found = await request(t.app).get(path('S-1-5-21-7-3')).set(admin());
    expect(found.headers['path-count']).toBe('1');
  });

  it('keeps answering from the previous index when a change is noticed by the generation check', async () => {
    const before = await t.infra.graphIndex.current();
    await t.infra.graphStore.write((w) =>
      w.upsertNodes([{ objectid: 'S-1-5-21-7-4', kinds: ['Base', 'User'], properties: { name: 'D@CORP' } }]),
    );
    // indexCheckMs is 0 in tests: this call compares generations, starts a rebuild and returns the old index.
    const during = await t.infra.graphIndex.current();
    expect(during).toBe(before);
    expect(t.infra.graphIndex.rebuilding).toBe(true);
    await t.infra.graphIndex.invalidate();
    expect((await t.infra.graphIndex.current()).generation).toBeGreaterThan(before.generation);
  });
});
