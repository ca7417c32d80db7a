import request from 'supertest';
import { DEFAULT_TIER_ZERO_SELECTORS } from '../../src/analysis/tier-zero-defaults';
import { useTestApp } from '../helpers/app';
import { inDomain, ingestAsAdmin, sharphound, tierZeroTagId } from '../helpers/upload';

// A domain with DNSAdmins (and a member), a certificate template, an NTAuth store, the Domain Controllers OU,
// Incoming Forest Trust Builders, and a plain group: what the default Tier Zero selectors must and must not tag.
const D = 'S-1-5-21-5-5-5';
const props = inDomain('CORP.TEST', D);
const DNSADMINS = `${D}-1101`;
const DNS_MEMBER = `${D}-1102`;
const PLAIN = `${D}-1103`;
const TRUST_BUILDERS = 'CORP.TEST-S-1-5-32-557';
const TEMPLATE = 'B0000000-0000-0000-0000-00000000000T';
const STORE = 'B0000000-0000-0000-0000-00000000000S';
const DC_OU = 'B0000000-0000-0000-0000-0000000000DC';

const FILES: [string, string][] = [
  [
    'domains.json',
    sharphound('domains', [{ ObjectIdentifier: D, Properties: props('CORP.TEST', { distinguishedname: 'DC=CORP,DC=TEST' }), Aces: [] }]),
  ],
  ['users.json', sharphound('users', [{ ObjectIdentifier: DNS_MEMBER, Properties: props('DNSOP'), Aces: [] }])],
  [
    'groups.json',
    sharphound('groups', [
      {
        ObjectIdentifier: DNSADMINS,
        Properties: props('DNSADMINS'),
        Members: [{ ObjectIdentifier: DNS_MEMBER, ObjectType: 'User' }],
        Aces: [],
      },
      { ObjectIdentifier: PLAIN, Properties: props('PLAIN'), Members: [], Aces: [] },
      { ObjectIdentifier: TRUST_BUILDERS, Properties: props('INCOMING FOREST TRUST BUILDERS'), Members: [], Aces: [] },
    ]),
  ],
  [
    'ous.json',
    sharphound('ous', [
      {
        ObjectIdentifier: DC_OU,
        Properties: props('DOMAIN CONTROLLERS', { distinguishedname: 'OU=DOMAIN CONTROLLERS,DC=CORP,DC=TEST' }),
        Aces: [],
      },
    ]),
  ],
  ['certtemplates.json', sharphound('certtemplates', [{ ObjectIdentifier: TEMPLATE, Properties: props('USER'), Aces: [] }])],
  [
    'ntauthstores.json',
    sharphound('ntauthstores', [{ ObjectIdentifier: STORE, DomainSID: D, Properties: props('NTAUTH', { certthumbprints: [] }), Aces: [] }]),
  ],
];

describe('Tier Zero from the seeded selectors of the Tier Zero zone', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let zone: number;
  const tierZero = async () => {
    const ids = await t.infra.graphStore.nodeIdsWithKinds(['Tag_Tier_Zero']);
    return new Set((await t.infra.graphStore.nodesByIds(ids)).map((n) => n.objectid));
  };
  const selectors = async () =>
    (await request(t.app).get(`/api/v2/asset-group-tags/${zone}/selectors`).set(admin())).body.data.selectors as {
      id: number;
      name: string;
      seeds: { type: string; value: string }[];
      member_count: number;
    }[];

  beforeAll(async () => {
    await ingestAsAdmin(t, FILES);
    zone = await tierZeroTagId(t);
  });

  it('seeds BloodHound default selectors as readable rules, the same list analysis uses by default', async () => {
    const seeded = (await selectors()).filter((s) => s.seeds[0]?.type === 'rule');
    expect(seeded.map((s) => [s.name, s.seeds[0]!.value]).sort()).toEqual(DEFAULT_TIER_ZERO_SELECTORS.map((s) => [s.name, s.rule]).sort());
    expect(seeded.find((s) => s.name === 'DNS Admins')!.member_count).toBe(1);
  });

  it('tags templates, the NTAuth store, DNSAdmins and its members, trust builders and the DC OU, not a plain group', async () => {
    const t0 = await tierZero();
    for (const id of [D, DNSADMINS, DNS_MEMBER, TEMPLATE, STORE, TRUST_BUILDERS, DC_OU])
      expect({ id, tierZero: t0.has(id) }).toEqual({ id, tierZero: true });
    expect(t0.has(PLAIN)).toBe(false);
  });

  it('follows an administrator changing the selectors on the next analysis', async () => {
    const dns = (await selectors()).find((s) => s.name === 'DNS Admins')!;
    expect((await request(t.app).delete(`/api/v2/asset-group-tags/${zone}/selectors/${dns.id}`).set(admin())).status).toBe(204);
    const created = await request(t.app)
      .post(`/api/v2/asset-group-tags/${zone}/selectors`)
      .set(admin())
      .send({ name: 'Plain', seeds: [{ type: 'rule', value: 'kind:Group name^="PLAIN@"' }] });
    expect(created.status).toBe(201);
    expect((await request(t.app).put('/api/v2/analysis').set(admin())).status).toBeLessThan(300);
    await t.services.datapipe.drain();
    const t0 = await tierZero();
    expect(t0.has(PLAIN)).toBe(true);
    expect(t0.has(DNSADMINS)).toBe(false);
    expect(t0.has(DNS_MEMBER)).toBe(false);
    expect((await selectors()).find((s) => s.name === 'Plain')!.member_count).toBe(1);
  });

  it('refuses a rule it cannot read with a clear 400 and creates nothing', async () => {
    const before = (await selectors()).length;
    const res = await request(t.app)
      .post(`/api/v2/asset-group-tags/${zone}/selectors`)
      .set(admin())
      .send({ name: 'Broken', seeds: [{ type: 'rule', value: 'kind:Group name~=x' }] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('expected kind:<Kind>');
    expect((await selectors()).length).toBe(before);
  });
});
