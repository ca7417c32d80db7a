import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { derived, load, type SmallGraph } from '../unit/analysis-graph';

/** BloodHound's runtime parameters: GET|PUT /api/v2/config and GraphQL appConfig / updateAppConfig. */
describe('runtime parameters (/api/v2/config)', () => {
  const t = useTestApp({ sessionTtlHours: 6 });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const citrix = (enabled: unknown) => ({ key: 'analysis.citrix_rdp_support', value: { enabled } });

  it('GET lists the parameters we serve, with their defaults, in BloodHound’s envelope', async () => {
    const res = await request(t.app).get('/api/v2/config').set(admin());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          key: 'analysis.citrix_rdp_support',
          name: 'Citrix RDP Support',
          description: expect.stringContaining('Direct Access Users'),
          value: { enabled: false },
          writable: true,
          updated_at: null,
          updated_by: null,
        },
        {
          key: 'auth.session_ttl_hours',
          name: 'Session TTL Hours',
          description: expect.stringContaining('SESSION_TTL_HOURS'),
          value: { hours: 6 },
          writable: false,
          updated_at: null,
          updated_by: null,
        },
      ],
    });
    const one = await request(t.app).get('/api/v2/config?parameter=auth.session_ttl_hours').set(admin());
    expect(one.body.data.map((p: { key: string }) => p.key)).toEqual(['auth.session_ttl_hours']);
    expect((await request(t.app).get('/api/v2/config?parameter=neo4j.configuration').set(admin())).body).toEqual({ data: [] });
  });

  it('PUT changes a parameter and answers it as stored; GET and GraphQL see the change', async () => {
    const res = await request(t.app).put('/api/v2/config').set(admin()).send(citrix(true));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ key: 'analysis.citrix_rdp_support', value: { enabled: true }, updated_by: 'admin' });
    expect(res.body.data.updated_at).toMatch(/^\d{4}-/);
    const gql = await request(t.app)
      .post('/graphql')
      .set(admin())
      .send({ query: '{ appConfig(key: "analysis.citrix_rdp_support") { key value { ... on ToggleValue { enabled } } } }' });
    expect(gql.body).toEqual({ data: { appConfig: [{ key: 'analysis.citrix_rdp_support', value: { enabled: true } }] } });
    const back = await request(t.app).post('/graphql').set(admin()).send({
      query: 'mutation { updateAppConfig(input: { citrixRdpSupport: { enabled: false } }) { value { ... on ToggleValue { enabled } } } }',
    });
    expect(back.body).toEqual({ data: { updateAppConfig: { value: { enabled: false } } } });
  });

  it.each([
    [{ key: 'auth.session_ttl_hours', value: { hours: 1 } }, /set by the server environment/],
    [{ key: 'neo4j.configuration', value: { batch_write_size: 1 } }, /not a parameter this server has/],
    [{ key: 'analysis.citrix_rdp_support', value: { enabled: 'yes' } }, /./],
    [{ key: 'analysis.citrix_rdp_support', value: { enabled: true, extra: 1 } }, /extra/],
    [{ key: 'analysis.citrix_rdp_support', value: {} }, /enabled/],
    [{ key: 'analysis.citrix_rdp_support' }, /value/],
    [{ value: { enabled: true } }, /key/],
  ])('400 for %j', async (body, reason) => {
    const err = expectWrapper(await request(t.app).put('/api/v2/config').set(admin()).send(body), 400);
    expect(err.message).toMatch(reason);
  });

  it('GraphQL refuses a change naming no parameter', async () => {
    const res = await request(t.app).post('/graphql').set(admin()).send({ query: 'mutation { updateAppConfig(input: {}) { key } }' });
    expect(res.body.errors[0].message).toMatch(/exactly one parameter/);
  });

  it('401 without a caller; 403 without app/ReadAppConfig or app/WriteAppConfig', async () => {
    expectWrapper(await request(t.app).get('/api/v2/config'), 401);
    expectWrapper(await request(t.app).put('/api/v2/config').send(citrix(true)), 401);
    const ro = await userWithRole(t, 'Read-Only');
    expect((await request(t.app).get('/api/v2/config').set('Authorization', `Bearer ${ro.jwt}`)).status).toBe(200);
    expectWrapper(await request(t.app).put('/api/v2/config').set('Authorization', `Bearer ${ro.jwt}`).send(citrix(true)), 403);
    const upload = await userWithRole(t, 'Upload-Only');
    expectWrapper(await request(t.app).get('/api/v2/config').set('Authorization', `Bearer ${upload.jwt}`), 403);
  });

  it('Citrix support changes CanRDP at the next analysis: Remote Desktop Users must be Direct Access Users too', async () => {
    const C = 'S-1-5-21-9-9-9-1000';
    const g: SmallGraph = {
      nodes: [
        [C, 'Computer', {}],
        [`${C}-555`, 'Group', { name: 'REMOTE DESKTOP USERS@HOST' }],
        [`${C}-1001`, 'Group', { name: 'DIRECT ACCESS USERS@HOST' }],
        ['ALICE', 'User', {}],
        ['BOB', 'User', {}],
        ['TEAM', 'Group', {}],
        ['CAROL', 'User', {}],
      ],
      edges: [
        `${C}-555 LocalToComputer ${C}`,
        `${C}-1001 LocalToComputer ${C}`,
        `ALICE MemberOfLocalGroup ${C}-555`,
        `ALICE MemberOfLocalGroup ${C}-1001`,
        `BOB MemberOfLocalGroup ${C}-555`,
        // TEAM is in Remote Desktop Users; only CAROL of its members is in Direct Access Users.
        `TEAM MemberOfLocalGroup ${C}-555`,
        'CAROL MemberOf TEAM',
        `CAROL MemberOfLocalGroup ${C}-1001`,
      ],
    };
    const db = t.testDb.db;
    await load(db, g);
    await t.services.datapipe.analyzeNow('test');
    expect(await derived(db, ['CanRDP'])).toEqual([`ALICE CanRDP ${C}`, `BOB CanRDP ${C}`, `TEAM CanRDP ${C}`]);

    await request(t.app).put('/api/v2/config').set(admin()).send(citrix(true)).expect(200);
    await t.services.datapipe.analyzeNow('test');
    expect(await derived(db, ['CanRDP'])).toEqual([`ALICE CanRDP ${C}`, `CAROL CanRDP ${C}`]);
  });
});
