import request from 'supertest';
import { PREBUILT_QUERIES } from '../../src/services/queries/prebuilt/index';
import { expectWrapper, useTestApp } from '../helpers/app';

/** The catalogue of pre-built queries as a front-end lists it, over REST and GraphQL. */
describe('pre-built queries', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('has one entry per question with a unique id and every field filled', () => {
    const ids = PREBUILT_QUERIES.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const q of PREBUILT_QUERIES) {
      expect({ id: q.id, ok: /^[a-z0-9-]+$/.test(q.id) && !!q.name && !!q.category && !!q.description && !!q.query }).toEqual({
        id: q.id,
        ok: true,
      });
    }
    // the questions BloodHound's UI ships, by area
    for (const id of [
      'ad-domain-admins',
      'ad-tier-zero',
      'ad-kerberoastable',
      'ad-asrep-roastable',
      'ad-unconstrained-delegation',
      'ad-constrained-delegation',
      'ad-resource-based-constrained-delegation',
      'ad-dcsync',
      'adcs-esc1',
      'adcs-esc13',
      'ntlm-all-relay-edges',
      'ad-paths-owned-to-tier-zero',
      'ad-paths-domain-users-to-tier-zero',
      'ad-paths-kerberoastable-to-domain-admins',
      'az-global-admins',
      'az-privileged-role-members',
      'az-mg-dangerous-app-roles',
    ])
      expect(ids).toContain(id);
  });

  it('serves the sections at /api/v2/prebuilt-queries in BloodHound’s CommonSearchType shape, filtered by platform or category', async () => {
    const res = await request(t.app).get('/api/v2/prebuilt-queries').set(admin());
    expect(res.status).toBe(200);
    const sections = res.body.data as { subheader: string; category: string; queries: { id: string }[] }[];
    expect(sections[0]).toEqual({
      subheader: 'Domain Information',
      category: 'Active Directory',
      queries: expect.arrayContaining([
        expect.objectContaining({
          id: 'ad-domain-admins',
          name: 'All Domain Admins',
          category: 'Domain Information',
          platform: 'Active Directory',
        }),
      ]),
    });
    expect(sections.flatMap((s) => s.queries).length).toBe(PREBUILT_QUERIES.length);
    const azure = await request(t.app).get('/api/v2/prebuilt-queries?platform=azure').set(admin());
    expect(new Set(azure.body.data.map((s: { category: string }) => s.category))).toEqual(new Set(['Azure']));
    const kerberos = await request(t.app).get('/api/v2/prebuilt-queries?category=kerberos interaction').set(admin());
    expect(kerberos.body.data.map((s: { subheader: string }) => s.subheader)).toEqual(['Kerberos Interaction']);
    expectWrapper(await request(t.app).get('/api/v2/prebuilt-queries?platform=aws').set(admin()), 400);

    const one = await request(t.app).get('/api/v2/prebuilt-queries/ad-kerberoastable').set(admin());
    expect(one.body.data).toMatchObject({
      id: 'ad-kerberoastable',
      category: 'Kerberos Interaction',
      query: expect.stringContaining('MATCH (u:User)'),
    });
    expectWrapper(await request(t.app).get('/api/v2/prebuilt-queries/nope').set(admin()), 404);
    expectWrapper(await request(t.app).get('/api/v2/prebuilt-queries'), 401);
  });

  it('answers the same in GraphQL: prebuiltQueries and prebuiltQueryCategories', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set(admin())
      .send({
        query: `{ prebuiltQueryCategories(platform: "Azure") { name platform queries { id } }
                  prebuiltQueries(category: "Microsoft Graph") { id name category platform description query } }`,
      });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.prebuiltQueryCategories.map((c: { name: string }) => c.name)).toEqual([
      'General',
      'Shortest Paths',
      'Microsoft Graph',
      'Azure Hygiene',
      'Cross Platform Attack Paths',
    ]);
    expect(res.body.data.prebuiltQueries.map((q: { id: string }) => q.id)).toContain('az-mg-grant-app-roles');
  });
});
