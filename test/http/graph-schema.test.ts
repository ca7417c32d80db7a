import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { expectWrapper, signed, useTestApp, userWithRole } from '../helpers/app';
import { createClient } from '../helpers/collectors';
import { ingestAsAdmin } from '../helpers/upload';

const collectors = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-kennel-'));
const zip = Buffer.from('PK-a-sharphound-release');
const sum = crypto.createHash('sha256').update(zip).digest('hex');
fs.mkdirSync(path.join(collectors, 'collector_ad'));
fs.writeFileSync(path.join(collectors, 'collector_ad', 'collector_ad-v2.6.1.zip'), zip);
fs.writeFileSync(path.join(collectors, 'collector_ad', 'collector_ad-v2.6.1.zip.sha256'), `${sum}  collector_ad-v2.6.1.zip\n`);
// A release whose zip does not match its checksum is listed but never served.
fs.writeFileSync(path.join(collectors, 'collector_ad', 'collector_ad-v2.7.0-rc1.zip'), 'tampered');
fs.writeFileSync(path.join(collectors, 'collector_ad', 'collector_ad-v2.7.0-rc1.zip.sha256'), `${'0'.repeat(64)}\n`);

const EXTENSION = {
  schema: { name: 'github', display_name: 'GitHub', version: 'v1.0.0', namespace: 'GH' },
  node_kinds: [{ name: 'GH_User', display_name: 'GitHub user', is_display_kind: true, icon: 'user-ninja', color: '#00FF00' }],
  relationship_kinds: [
    { name: 'GH_AdminOf', description: 'admin of a repository', is_traversable: true },
    { name: 'GH_Stars', is_traversable: false },
  ],
};

describe('OpenGraph schema API, edge types, dog tags, kennel and job logs', () => {
  const t = useTestApp({ collectorsDir: collectors });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('serves the kennel manifest from COLLECTORS_DIR and downloads only what matches its checksum', async () => {
    const res = await request(t.app).get('/api/v2/kennel/manifest').set(admin());
    expect(res.status).toBe(200);
    expect(res.body.data.azurehound).toEqual([]);
    expect(res.body.data.sharphound.map((r: { version: string }) => r.version)).toEqual(['v2.7.0-rc1', 'v2.6.1']);
    const [, stable] = res.body.data.sharphound;
    expect(stable).toMatchObject({
      version_meta: { major: 2, minor: 6, patch: 1, prerelease: '' },
      release_assets: [
        {
          name: 'collector_ad-v2.6.1.zip',
          download_url: 'http://gas.test/api/v2/kennel/download/collector_ad-v2.6.1.zip',
          checksum_download_url: 'http://gas.test/api/v2/kennel/download/collector_ad-v2.6.1.zip.sha256',
          os: 'windows',
          arch: 'x86',
        },
      ],
    });
    expect(res.body.data.sharphound[0].version_meta.prerelease).toBe('rc1');

    const file = await request(t.app).get('/api/v2/kennel/download/collector_ad-v2.6.1.zip').set(admin()).buffer(true);
    expect(file.status).toBe(200);
    expect(Buffer.from(file.body as Buffer).equals(zip)).toBe(true);
    const check = await request(t.app).get('/api/v2/kennel/download/collector_ad-v2.6.1.zip.sha256').set(admin()).buffer(true);
    expect(Buffer.from(check.body as Buffer).toString('utf8')).toContain(sum);
    expectWrapper(await request(t.app).get('/api/v2/kennel/download/collector_ad-v2.7.0-rc1.zip').set(admin()), 409);
    expectWrapper(await request(t.app).get('/api/v2/kennel/download/..%2F..%2Fetc%2Fpasswd').set(admin()), 400);
    expectWrapper(await request(t.app).get('/api/v2/kennel/download/collector_ad-v9.9.9.zip').set(admin()), 404);

    const ent = await request(t.app).get('/api/v2/kennel/enterprise-manifest').set(admin());
    expect(ent.body.data).toEqual({ sharphound_enterprise: [], azurehound_enterprise: [], openhound: [] });
  });

  it('validates, stores and replaces OpenGraph extensions; their relationship kinds are edge types', async () => {
    const put = await request(t.app).put('/api/v2/extensions').set(admin()).send(EXTENSION);
    expect(put.status).toBe(201);
    expect(put.body.data).toMatchObject({ name: 'github', namespace: 'GH', node_kinds: [{ name: 'GH_User', is_display_kind: true }] });
    const again = await request(t.app)
      .put('/api/v2/extensions')
      .set(admin())
      .send({
        ...EXTENSION,
        schema: { ...EXTENSION.schema, version: 'v1.1.0' },
        relationship_kinds: EXTENSION.relationship_kinds.slice(0, 1),
      });
    expect(again.body.data).toMatchObject({ id: put.body.data.id, version: 'v1.1.0' });
    expect(again.body.data.relationship_kinds).toHaveLength(1);
    const list = await request(t.app).get('/api/v2/extensions').set(admin());
    expect(list.body.data.extensions).toHaveLength(1);

    const edges = await request(t.app).get('/api/v2/graph-schema/edges').set(admin());
    expect(edges.status).toBe(200);
    expect(edges.body.data).toContainEqual({
      name: 'GH_AdminOf',
      description: 'admin of a repository',
      is_traversable: true,
      schema_name: 'github',
    });
    expect(edges.body.data).toContainEqual(expect.objectContaining({ name: 'MemberOf', is_traversable: true, schema_name: 'AD' }));
    expect(edges.body.data.find((e: { name: string }) => e.name === 'GH_Stars')).toBeUndefined();

    const bad = (body: unknown) =>
      request(t.app)
        .put('/api/v2/extensions')
        .set(admin())
        .send(body as object);
    expect(expectWrapper(await bad({}), 400).message).toMatch(/schema must be an object/);
    expect(expectWrapper(await bad({ ...EXTENSION, node_kinds: [{ name: 'User' }] }), 400).message).toMatch(
      /start with the namespace: GH_/,
    );
    expect(expectWrapper(await bad({ ...EXTENSION, node_kinds: [{ name: 'GH_X', color: 'green' }] }), 400).message).toMatch(/colour/);
    const other = { ...EXTENSION, schema: { ...EXTENSION.schema, name: 'other' } };
    expect(expectWrapper(await bad(other), 409).message).toMatch(/Another extension defines GH_AdminOf, GH_User/);
    const reader = await userWithRole(t, 'Read-Only');
    expectWrapper(
      await request(t.app)
        .put('/api/v2/extensions')
        .set({ Authorization: `Bearer ${reader.jwt}` })
        .send(EXTENSION),
      403,
    );
  });

  it('serves kinds and graph objects by id, and pathfinding follows an extension’s traversable kinds', async () => {
    const put = await request(t.app)
      .put('/api/v2/extensions')
      .set(admin())
      .send({ ...EXTENSION, schema: { ...EXTENSION.schema, version: 'v2.0.0' } });
    const x = put.body.data;
    const graph = {
      metadata: { source_kind: 'GitHub' },
      graph: {
        nodes: [
          { id: 'gh-alice', kinds: ['GH_User'], properties: { name: 'alice' } },
          { id: 'gh-bob', kinds: ['GH_User'], properties: { name: 'bob' } },
          { id: 'gh-carol', kinds: ['GH_User'], properties: { name: 'carol' } },
        ],
        edges: [
          { start: { value: 'gh-alice' }, end: { value: 'gh-bob' }, kind: 'GH_AdminOf' },
          { start: { value: 'gh-alice' }, end: { value: 'gh-carol' }, kind: 'GH_Stars' },
        ],
      },
    };
    const file = path.join(collectors, 'opengraph.json');
    fs.writeFileSync(file, JSON.stringify(graph));
    await ingestAsAdmin(t, [file]);

    const path1 = await request(t.app)
      .get('/api/v2/graphs/shortest-path?start_node=GH-ALICE&end_node=GH-BOB&only_traversable=true')
      .set(admin());
    expect(path1.status).toBe(200);
    const edge = Object.values(path1.body.data.edges as Record<string, { kind: string }>)[0] ?? path1.body.data.edges[0];
    expect(edge).toMatchObject({ kind: 'GH_AdminOf' });
    // GH_Stars is not traversable: no path to carol when only traversable kinds count, one otherwise.
    const noPath = await request(t.app)
      .get('/api/v2/graphs/shortest-path?start_node=GH-ALICE&end_node=GH-CAROL&only_traversable=true')
      .set(admin());
    expect(noPath.status).toBe(404);
    const anyPath = await request(t.app).get('/api/v2/graphs/shortest-path?start_node=GH-ALICE&end_node=GH-CAROL').set(admin());
    expect(anyPath.status).toBe(200);

    const nodeId = (await t.testDb.db.query<{ id: string }>("select id from graph_nodes where objectid = 'GH-ALICE'"))[0]!.id;
    const node = await request(t.app).get(`/api/v2/nodes/${nodeId}`).set(admin());
    expect(node.body.data).toMatchObject({ id: Number(nodeId), object_id: 'GH-ALICE', kinds: expect.arrayContaining(['GH_User']) });
    const edgeId = (
      await t.testDb.db.query<{ id: string }>(
        "select e.id from graph_edges e join graph_kinds k on k.id = e.kind_id where k.name = 'GH_AdminOf'",
      )
    )[0]!.id;
    const rel = await request(t.app).get(`/api/v2/relationships/${edgeId}`).set(admin());
    expect(rel.body.data).toMatchObject({ id: Number(edgeId), kind: 'GH_AdminOf', source: Number(nodeId) });
    expectWrapper(await request(t.app).get('/api/v2/nodes/999999999').set(admin()), 404);
    // Graph answers draw the extension's icon and colour for its node kind.
    const legacy = await request(t.app).get('/api/v2/pathfinding?start_node=GH-ALICE&end_node=GH-BOB').set(admin());
    expect(legacy.body.data[nodeId]).toMatchObject({ color: '#00FF00', fontIcon: { text: 'fas fa-user-ninja' } });
    expectWrapper(await request(t.app).get('/api/v2/relationships/abc').set(admin()), 400);

    const nk = await request(t.app).get(`/api/v2/node-kinds/${x.node_kinds[0].id}`).set(admin());
    expect(nk.body.data).toMatchObject({ name: 'GH_User', icon: 'user-ninja', color: '#00FF00' });
    const rk = await request(t.app).get(`/api/v2/relationship-kinds/${x.relationship_kinds[0].id}`).set(admin());
    expect(rk.body.data).toMatchObject({ name: 'GH_AdminOf', is_traversable: true });
    expectWrapper(await request(t.app).get('/api/v2/node-kinds/999999').set(admin()), 404);

    const edges = await request(t.app).get('/api/v2/extensions-edges?schemas=github').set(admin());
    expect(edges.body.data).toEqual([
      { name: 'GH_AdminOf', is_traversable: true, is_builtin: false, schema_name: 'github' },
      { name: 'GH_Stars', is_traversable: false, is_builtin: false, schema_name: 'github' },
    ]);
    const builtin = await request(t.app).get('/api/v2/extensions-edges?is_traversable=false').set(admin());
    expect(builtin.body.data.every((e: { is_traversable: boolean }) => !e.is_traversable)).toBe(true);
    expectWrapper(await request(t.app).get('/api/v2/extensions-edges?is_traversable=maybe').set(admin()), 400);

    await request(t.app).delete(`/api/v2/extensions/${x.id}`).set(admin()).expect(204);
    expectWrapper(await request(t.app).delete(`/api/v2/extensions/${x.id}`).set(admin()), 404);
  });

  it('answers dog tags and refuses to toggle a feature flag that is not user updatable', async () => {
    const tags = await request(t.app).get('/api/v2/dog-tags').set(admin());
    expect(tags.body.data).toMatchObject({
      'privilege_zones.multi_tier_analysis': false,
      'auth.environment_targeted_access_control': false,
    });
    expect(expectWrapper(await request(t.app).put('/api/v2/features/1/toggle').set(admin()), 403).message).toMatch(/not user updatable/);
    expectWrapper(await request(t.app).put('/api/v2/features/99/toggle').set(admin()), 404);
  });

  it('answers a job log: what the collector reported, in time order', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const task = (await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({})).body.data;
    expect((await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: task.id })).status).toBe(200);
    expect((await signed(t.app, c.token, 'POST', '/api/v2/clients/error', { task_error: 'LDAP timeout', additional: {} })).status).toBe(
      204,
    );
    expect((await signed(t.app, c.token, 'POST', '/api/v2/jobs/end', { status: 'FAILED', message: 'gave up' })).status).toBe(200);
    const res = await request(t.app).get(`/api/v2/jobs/${task.id}/log`).set(admin());
    expect(res.status).toBe(200);
    const lines = (res.body.data.log as string).split('\n').map((l) => l.replace(/^\S+ /, ''));
    expect(lines[0]).toMatch(/^scheduled/);
    expect(lines).toContain('started');
    expect(lines).toContain('error: LDAP timeout');
    expect(lines[lines.length - 1]).toBe('ended: gave up');
    expectWrapper(await request(t.app).get('/api/v2/jobs/999999/log').set(admin()), 404);
  });
});
