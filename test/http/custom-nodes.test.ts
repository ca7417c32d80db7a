import request from 'supertest';
import { apiToken, expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { sharphound, uploadJob } from '../helpers/upload';

describe('custom node kinds (endpoint 4)', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const icon = (name: string, color?: string, type = 'iconset') => ({ icon: { type, name, ...(color === undefined ? {} : { color }) } });

  beforeAll(async () => {
    const res = await request(t.app)
      .post('/api/v2/custom-nodes')
      .set(admin())
      .send({ custom_types: { Person: icon('user', '#abc'), Vault: icon('lock', '#112233', 'font-awesome'), Blank: icon('circle') } });
    expect(res.status).toBe(201);
  });

  it('creates kinds in one go: font-awesome is stored as iconset, a missing color is white', async () => {
    const list = await request(t.app).get('/api/v2/custom-nodes').set(admin());
    expect(list.body.data).toEqual([
      { id: expect.any(Number), kindName: 'Blank', config: { icon: { type: 'iconset', name: 'circle', color: '#FFFFFF' } } },
      { id: expect.any(Number), kindName: 'Person', config: { icon: { type: 'iconset', name: 'user', color: '#ABC' } } },
      { id: expect.any(Number), kindName: 'Vault', config: { icon: { type: 'iconset', name: 'lock', color: '#112233' } } },
    ]);
    expectWrapper(
      await request(t.app)
        .post('/api/v2/custom-nodes')
        .set(admin())
        .send({ custom_types: { Person: icon('user') } }),
      409,
    );
    // all or nothing: the valid kind of a failed request is not created
    await request(t.app)
      .post('/api/v2/custom-nodes')
      .set(admin())
      .send({ custom_types: { Fresh: icon('star'), Person: icon('user') } });
    expectWrapper(await request(t.app).get('/api/v2/custom-nodes/Fresh').set(admin()), 404);
  });

  it('PUT answers the kind object itself, not wrapped in data', async () => {
    const res = await request(t.app)
      .put('/api/v2/custom-nodes/Person')
      .set(admin())
      .send({ config: icon('user-secret', '#FF0000') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      kindName: 'Person',
      config: { icon: { type: 'iconset', name: 'user-secret', color: '#FF0000' } },
    });
    expect((await request(t.app).get('/api/v2/custom-nodes/Person').set(admin())).body.data.config.icon.name).toBe('user-secret');
  });

  it.each([
    [{ config: icon('user', '#12') }, /config.icon.color must be a hex color/],
    [{ config: icon('user', 'FF0000') }, /config.icon.color/],
    [{ config: icon('user', '#GGGGGG') }, /config.icon.color/],
    [{ config: icon('', '#FFF') }, /config.icon.name must be a non-empty icon name/],
    [{ config: icon('user', '#FFF', 'svg') }, /config.icon.type must be "iconset"/],
    [{ config: { icon: 'user' } }, /config.icon must be an object/],
    [{ config: null }, /config must be an object/],
    [{}, /config must be an object/],
  ])('400 naming the field for %j', async (body, reason) => {
    const err = expectWrapper(await request(t.app).put('/api/v2/custom-nodes/Person').set(admin()).send(body), 400);
    expect(err).toEqual({ context: 'custom-nodes', message: expect.stringMatching(reason) });
  });

  it('404 for an unknown kind, 400 for a malformed kind name, 403 without graphdb/Write', async () => {
    for (const [kind, status] of [
      ['Nobody', 404],
      ['bad%20name', 400],
    ] as const)
      expectWrapper(
        await request(t.app)
          .put(`/api/v2/custom-nodes/${kind}`)
          .set(admin())
          .send({ config: icon('user') }),
        status,
      );
    const ro = await userWithRole(t, 'Read-Only');
    expectWrapper(
      await request(t.app)
        .put('/api/v2/custom-nodes/Person')
        .set('Authorization', `Bearer ${ro.jwt}`)
        .send({ config: icon('user') }),
      403,
    );
    expect((await request(t.app).get('/api/v2/custom-nodes').set('Authorization', `Bearer ${ro.jwt}`)).status).toBe(200);
    expectWrapper(
      await request(t.app)
        .put('/api/v2/custom-nodes/Person')
        .send({ config: icon('user') }),
      401,
    );
  });

  it('renders nodes of a custom kind with its icon in the Graph format; unknown kinds are a question mark on white', async () => {
    const token = await apiToken(t.app, t.adminJwt);
    // An OpenGraph-ish pair: a Person who has GenericAll on a Vault, written as SharpHound users with extra kinds.
    await uploadJob(t.app, token, [
      [
        'users.json',
        sharphound('users', [
          { ObjectIdentifier: 'S-1-5-21-9-1001', Properties: { name: 'ALICE@CORP.LOCAL', domain: 'CORP.LOCAL' }, Aces: [] },
          {
            ObjectIdentifier: 'S-1-5-21-9-1002',
            Properties: { name: 'BOB@CORP.LOCAL', domain: 'CORP.LOCAL' },
            Aces: [{ PrincipalSID: 'S-1-5-21-9-1001', PrincipalType: 'User', RightName: 'GenericAll', IsInherited: false }],
          },
        ]),
      ],
    ]);
    await t.services.datapipe.drain();
    await t.infra.graphStore.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-9-1002', kinds: ['Vault'], properties: {} }]));
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes([{ objectid: 'MYSTERY-1', kinds: ['Mystery'], properties: { name: 'SOMETHING' } }]);
      await w.upsertEdges([{ start: 'S-1-5-21-9-1002', end: 'MYSTERY-1', kind: 'GenericAll', properties: {} }]);
    });
    await t.infra.graphIndex.invalidate();
    const res = await request(t.app).get('/api/v2/pathfinding?start_node=S-1-5-21-9-1001&end_node=S-1-5-21-9-1002').set(admin());
    expect(res.status).toBe(200);
    const nodes = Object.values(res.body.data).filter((v: any) => v.data?.objectid) as any[];
    const bob = nodes.find((n) => n.data.objectid === 'S-1-5-21-9-1002');
    const alice = nodes.find((n) => n.data.objectid === 'S-1-5-21-9-1001');
    expect(bob).toMatchObject({ color: '#112233', fontIcon: { text: 'fas fa-lock' } });
    expect(alice.fontIcon.text).toBe('fas fa-user'); // built-in User icon
    const toMystery = await request(t.app).get('/api/v2/pathfinding?start_node=S-1-5-21-9-1001&end_node=MYSTERY-1').set(admin());
    const mystery = (Object.values(toMystery.body.data) as any[]).find((n) => n.data?.objectid === 'MYSTERY-1');
    expect(mystery).toMatchObject({ color: '#FFFFFF', fontIcon: { text: 'fas fa-question' } });
    // Icons are cached for Graph answers; a change made here shows in the very next answer.
    await request(t.app)
      .put('/api/v2/custom-nodes/Vault')
      .set(admin())
      .send({ config: icon('key', '#445566') })
      .expect(200);
    const changed = await request(t.app).get('/api/v2/pathfinding?start_node=S-1-5-21-9-1001&end_node=S-1-5-21-9-1002').set(admin());
    const bobKey = (Object.values(changed.body.data) as any[]).find((n) => n.data?.objectid === 'S-1-5-21-9-1002');
    expect(bobKey).toMatchObject({ color: '#445566', fontIcon: { text: 'fas fa-key' } });
    await request(t.app).delete('/api/v2/custom-nodes/Vault').set(admin()).expect(204);
    const after = await request(t.app).get('/api/v2/pathfinding?start_node=S-1-5-21-9-1001&end_node=S-1-5-21-9-1002').set(admin());
    const bob2 = (Object.values(after.body.data) as any[]).find((n) => n.data?.objectid === 'S-1-5-21-9-1002');
    expect(bob2.fontIcon.text).toBe('fas fa-user');
    expectWrapper(await request(t.app).delete('/api/v2/custom-nodes/Vault').set(admin()), 404);
  });
});
