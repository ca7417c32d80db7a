import crypto from 'node:crypto';
import request from 'supertest';
import { MAX_PROPERTY_BYTES } from '../../src/graph/pg/sql';
import { useTestApp } from '../helpers/app';

/**
 * one huge stored property read by a few callers took the service to GiBs. Values over the limit are
 * stored as a marker on write, and a row written before that (put here directly in SQL) is served with the marker.
 */
describe('property size bounds', () => {
  const t = useTestApp();
  const huge = 'A'.repeat(MAX_PROPERTY_BYTES + 1000);

  it('stores an oversized value as a marker naming its size, the other values as they are', async () => {
    await t.infra.graphStore.write((w) =>
      w.upsertNodes([
        {
          objectid: 'S-1-5-21-5-1001',
          kinds: ['User'],
          properties: { name: 'BIG@X.LOCAL', description: huge, spns: [huge], enabled: true },
        },
      ]),
    );
    const node = await t.infra.graphStore.nodeByObjectId('S-1-5-21-5-1001');
    expect(node!.properties).toMatchObject({ name: 'BIG@X.LOCAL', enabled: true });
    expect(node!.properties.description).toMatch(/^\[value of \d+ bytes omitted: over the 1048576-byte property limit\]$/);
    expect(node!.properties.spns).toMatch(/omitted/);
  });

  it('serves a value stored before the bound as a marker, over REST too', async () => {
    await t.testDb.db.query(
      `insert into graph_nodes (objectid, kind_ids, properties)
       select 'S-1-5-21-5-1002', array[(select id from graph_kinds where name = 'User')], jsonb_build_object('name', 'OLD@X.LOCAL',
         'objectid', 'S-1-5-21-5-1002', 'notes', repeat('B', 4 * 1024 * 1024))`,
    );
    const node = await t.infra.graphStore.nodeByObjectId('S-1-5-21-5-1002');
    expect(node!.properties.name).toBe('OLD@X.LOCAL');
    expect(node!.properties.notes).toMatch(/^\[value of 4\d{6} bytes omitted/);
    const res = await request(t.app).get('/api/v2/users/S-1-5-21-5-1002').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body).length).toBeLessThan(100_000);
    // Scans (the path index, analysis) see the marker too.
    const seen: unknown[] = [];
    await t.infra.graphStore.scanNodes(['notes'], (rows) => seen.push(...rows.filter((r) => r.objectid === 'S-1-5-21-5-1002')));
    expect(seen).toEqual([expect.objectContaining({ properties: { notes: expect.stringMatching(/omitted/) } })]);
  });

  it('leaves ordinary rows untouched', async () => {
    // The second one is stored over 16 KiB (random text hardly compresses), so it takes the value-by-value path.
    const props = {
      name: 'SMALL@X.LOCAL',
      description: 'x'.repeat(50_000),
      list: ['a', 'b'],
      blob: crypto.randomBytes(150_000).toString('base64'),
    };
    await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-5-1003', kinds: ['User'], properties: props }]));
    expect((await t.infra.graphStore.nodeByObjectId('S-1-5-21-5-1003'))!.properties).toMatchObject(props);
  });
});
