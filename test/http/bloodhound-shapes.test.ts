import path from 'node:path';
import request from 'supertest';
import { useTestApp } from '../helpers/app';
import { AZUREHOUND, GOLDEN_INPUT } from '../helpers/fixtures';
import { createClient } from '../helpers/collectors';
import { inDomain, ingestAsAdmin, sharphound, tierZeroTagId } from '../helpers/upload';

/**
 * The envelopes of BloodHound's non-documented routes we serve, as BloodHound's code answers them (handlers in
 * cmd/api/src/api/v2, js-client-library's response types). Key sets are asserted exactly where BloodHound's are
 * fixed; keys we add are named in docs/decisions.md ("The analyst's surface: BloodHound's paths and shapes").
 */

const T = 'S-1-5-21-3130019616-2776909439-2417379446'; // TESTLAB.LOCAL
const TENANT = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145'; // Contoso (azurehound/entra.json)
const ALICE = '1D8A4C57-5B1F-4C3E-9F59-0F8F9D3F0A11';

// A small PKI in its own domain: a root CA, an enterprise CA publishing one template, an NTAuth store.
const PKI_DOMAIN = 'S-1-5-21-9-9-9';
const [ROOT_CA, ENTERPRISE_CA, TEMPLATE, NTAUTH] = [...'ABCD'].map((c) => `F0000000-0000-0000-0000-00000000000${c}`);
const pki = inDomain('PKI.TEST', PKI_DOMAIN);
const PKI_FILES: [string, string][] = [
  ['pki-domains.json', sharphound('domains', [{ ObjectIdentifier: PKI_DOMAIN, Properties: pki('PKI.TEST'), Aces: [] }])],
  ['pki-rootcas.json', sharphound('rootcas', [{ ObjectIdentifier: ROOT_CA, DomainSID: PKI_DOMAIN, Properties: pki('ROOT'), Aces: [] }])],
  [
    'pki-enterprisecas.json',
    sharphound('enterprisecas', [
      {
        ObjectIdentifier: ENTERPRISE_CA,
        DomainSID: PKI_DOMAIN,
        Properties: pki('ISSUING'),
        EnabledCertTemplates: [{ ObjectIdentifier: TEMPLATE, ObjectType: 'CertTemplate' }],
        Aces: [],
      },
    ]),
  ],
  ['pki-certtemplates.json', sharphound('certtemplates', [{ ObjectIdentifier: TEMPLATE, Properties: pki('TEMPLATE'), Aces: [] }])],
  [
    'pki-ntauthstores.json',
    sharphound('ntauthstores', [{ ObjectIdentifier: NTAUTH, DomainSID: PKI_DOMAIN, Properties: pki('NTAUTH'), Aces: [] }]),
  ],
];

type Json = Record<string, unknown>;
const keys = (o: unknown) => Object.keys(o as Json).sort();
const sorted = (...k: string[]) => [...k].sort();

describe("BloodHound's envelopes", () => {
  const t = useTestApp();
  const get = (p: string) => request(t.app).get(p).set('Authorization', `Bearer ${t.adminJwt}`);
  const ok = async (p: string) => {
    const res = await get(p);
    expect({ path: p, status: res.status }).toEqual({ path: p, status: 200 });
    return res.body as Json;
  };

  beforeAll(async () => {
    await ingestAsAdmin(t, [...GOLDEN_INPUT, path.join(AZUREHOUND, 'entra.json'), ...PKI_FILES]);
  });

  describe('AD entity info and lists', () => {
    /** BloodHound's count keys per entity type (ad_entity.go); `kinds` and `props` beside them. */
    const COUNT_KEYS: Record<string, string[]> = {
      groups: ['sessions', 'members', 'membership', 'adminRights', 'rdpRights', 'backupRights', 'dcomRights', 'psRemoteRights'],
      computers: [
        'sessions',
        'adminUsers',
        'rdpUsers',
        'dcomUsers',
        'psRemoteUsers',
        'backupOperators',
        'sqlAdminUsers',
        'constrainedUsers',
        'groupMembership',
        'adminRights',
        'rdpRights',
        'backupRights',
        'dcomRights',
        'psRemoteRights',
        'constrainedPrivs',
        'controllables',
        'controllers',
        'gpos',
      ],
      // BloodHound's `adcs-escalations` is missing: we compute no ADCS escalation list (decisions.md).
      domains: [
        'users',
        'groups',
        'computers',
        'ous',
        'gpos',
        'foreignUsers',
        'foreignGroups',
        'foreignGPOControllers',
        'foreignAdmins',
        'inboundTrusts',
        'outboundTrusts',
        'controllers',
        'linkedgpos',
        'dcsyncers',
      ],
    };
    const IDS: Record<string, string> = { groups: `${T}-512`, computers: `${T}-1104`, domains: T };

    it.each(Object.keys(COUNT_KEYS))('/api/v2/%s/{id}: {data: {props, <BloodHound count keys>}}', async (type) => {
      const body = await ok(`/api/v2/${type}/${IDS[type]}`);
      expect(keys(body)).toEqual(['data']);
      const d = body.data as Json;
      const counts = COUNT_KEYS[type]!;
      // Groups also get controllables/controllers in BloodHound; every listed key is there, and only ours besides.
      const extra = type === 'groups' ? ['controllables', 'controllers'] : [];
      expect(keys(d)).toEqual(sorted('kinds', 'props', ...counts, ...extra));
      for (const k of [...counts, ...extra]) expect(typeof d[k]).toBe('number');
      expect((d.props as Json).objectid).toBe(IDS[type]);
    });

    it.each([
      ['enterprisecas', ENTERPRISE_CA, ['controllers', 'pki-hierarchy', 'published-templates']],
      ['rootcas', ROOT_CA, ['controllers', 'pki-hierarchy']],
      ['certtemplates', TEMPLATE, ['controllers', 'published-to-cas']],
      ['ntauthstores', NTAUTH, ['controllers', 'trusted-cas']],
    ])('/api/v2/%s/{id} spells the PKI count keys as BloodHound', async (type, id, counts) => {
      const d = (await ok(`/api/v2/${type}/${id}`)).data as Json;
      expect(keys(d)).toEqual(sorted('kinds', 'props', ...counts));
      if (type === 'enterprisecas') expect(d['published-templates']).toBe(1);
      if (type === 'certtemplates') expect(d['published-to-cas']).toBe(1);
    });

    it('counts=false answers the props alone, Tier Zero marked as BloodHound does', async () => {
      const d = (await ok(`/api/v2/groups/${T}-512?counts=false`)).data as Json;
      expect(keys(d)).toEqual(['kinds', 'props']);
      expect((d.props as Json).isTierZero).toBe(true);
      const plain = (await ok(`/api/v2/computers/${T}-1104?counts=false`)).data as Json;
      expect((plain.props as Json).isTierZero).toBeUndefined();
    });

    it('a list is the pagination envelope of paged node list entries', async () => {
      const body = await ok(`/api/v2/groups/${T}-512/members?limit=2`);
      expect(keys(body)).toEqual(['count', 'data', 'limit', 'skip']);
      expect(body).toMatchObject({ count: 3, skip: 0, limit: 2 });
      for (const e of body.data as Json[]) {
        expect(keys(e)).toEqual(['kinds', 'label', 'name', 'objectID']);
        expect(typeof e.objectID).toBe('string');
      }
    });
  });

  describe('Azure entities', () => {
    const NODE = ['isOwnedObject', 'isTierZero', 'kind', 'kinds', 'props'];

    it('entity info is azure.Node with the snake_case counts of its *Details struct', async () => {
      const user = (await ok(`/api/v2/azure/users?object_id=${ALICE}`)).data as Json;
      expect(keys(user)).toEqual(
        sorted(...NODE, 'group_membership', 'roles', 'execution_privileges', 'outbound_object_control', 'inbound_object_control'),
      );
      expect(user).toMatchObject({ kind: 'AZUser', isTierZero: true, isOwnedObject: false, group_membership: 2, roles: 1 });

      const tenant = (await ok(`/api/v2/azure/tenants?object_id=${TENANT}`)).data as Json;
      expect(keys(tenant)).toEqual(sorted(...NODE, 'inbound_object_control', 'descendents'));
      const descendants = (tenant.descendents as Json).descendent_counts as Json;
      expect(descendants).toMatchObject({ AZUser: 3, AZGroup: 2, AZServicePrincipal: 2, AZApp: 1, AZDevice: 1 });

      // Without counts BloodHound still serialises its *Details struct: the same count keys, each 0.
      const bare = (await ok(`/api/v2/azure/users?object_id=${ALICE}&counts=false`)).data as Json;
      expect(keys(bare)).toEqual(keys(user));
      for (const k of keys(user).filter((k) => !NODE.includes(k))) expect(bare[k]).toBe(0);
      const bareTenant = (await ok(`/api/v2/azure/tenants?object_id=${TENANT}&counts=false`)).data as Json;
      expect(bareTenant).toMatchObject({ inbound_object_control: 0, descendents: { descendent_counts: null } });
    });

    it('a related-entity list pages azure.Node items, 100 by default', async () => {
      const body = await ok(`/api/v2/azure/users?object_id=${ALICE}&related_entity_type=group-membership`);
      expect(keys(body)).toEqual(['count', 'data', 'limit', 'skip']);
      expect(body).toMatchObject({ count: 2, skip: 0, limit: 100 });
      for (const n of body.data as Json[]) {
        expect(keys(n)).toEqual(NODE);
        expect(n.kind).toBe('AZGroup');
        expect(typeof (n.props as Json).objectid).toBe('string');
      }
      const paged = await ok(`/api/v2/azure/tenants?object_id=${TENANT}&related_entity_type=descendent-users&limit=1&skip=1`);
      expect(paged).toMatchObject({ count: 3, skip: 1, limit: 1 });
      expect(paged.data).toHaveLength(1);
    });
  });

  describe('search', () => {
    it('/api/v2/search: data is a list of SearchResult', async () => {
      const body = await ok('/api/v2/search?q=domain%20adm');
      const [hit] = body.data as Json[];
      expect(keys(hit)).toEqual(['distinguishedname', 'kinds', 'name', 'objectid', 'system_tags', 'type']);
      expect(hit).toMatchObject({
        objectid: `${T}-512`,
        type: 'Group',
        name: 'DOMAIN ADMINS@TESTLAB.LOCAL',
        distinguishedname: 'CN=DOMAIN ADMINS,CN=USERS,DC=TESTLAB,DC=LOCAL',
        system_tags: 'admin_tier_0',
      });
    });

    it('/api/v2/graph-search: data is the flat graph map of styled nodes keyed by node id', async () => {
      const body = await ok('/api/v2/graph-search?query=domain%20adm');
      const entries = Object.entries(body.data as Json);
      expect(entries.length).toBeGreaterThan(0);
      for (const [id, node] of entries) {
        expect(id).toMatch(/^\d+$/);
        expect(keys(node)).toEqual(['border', 'color', 'data', 'fontIcon', 'label', 'size']);
      }
      const da = entries.map(([, n]) => n as Json).find((n) => (n.data as Json).objectid === `${T}-512`)!;
      expect(da).toMatchObject({
        data: { nodetype: 'Group', kinds: expect.arrayContaining(['Group']) },
        label: { text: 'DOMAIN ADMINS@TESTLAB.LOCAL' },
      });
    });
  });
  describe('paths', () => {
    it('/api/v2/graphs/shortest-path: {data: {nodes, edges}} of UnifiedNode and UnifiedEdge', async () => {
      const body = await ok(`/api/v2/graphs/shortest-path?start_node=${T}-1105&end_node=${T}-512`);
      expect(keys(body.data)).toEqual(['edges', 'nodes']);
      const { nodes, edges } = body.data as { nodes: Json; edges: Json[] };
      for (const n of Object.values(nodes)) {
        expect(keys(n)).toEqual(['isOwnedObject', 'isTierZero', 'kind', 'kinds', 'label', 'lastSeen', 'objectId', 'properties']);
      }
      for (const e of edges) expect(keys(e)).toEqual(['kind', 'label', 'lastSeen', 'properties', 'source', 'target']);
      expect(edges.every((e) => typeof nodes[e.source as string] === 'object')).toBe(true);
    });
  });

  describe('inventories and service information', () => {
    it('available domains, kinds, version and features', async () => {
      const domains = (await ok('/api/v2/available-domains')).data as Json[];
      for (const d of domains) expect(keys(d)).toEqual(['collected', 'id', 'name', 'type']);
      expect(domains).toContainEqual({ type: 'azure', name: 'CONTOSO', id: TENANT, collected: true });
      expect(domains).toContainEqual(expect.objectContaining({ type: 'active-directory', id: T }));

      const kinds = await ok('/api/v2/graphs/kinds?type=node');
      expect(keys(kinds.data)).toEqual(['kinds']);
      expect((kinds.data as Json).kinds).toEqual(expect.arrayContaining(['User', 'AZUser']));

      const version = (await ok('/api/version')).data as Json;
      expect(keys(version)).toEqual(['API', 'server_version']);
      expect(keys(version.API)).toEqual(['current_version', 'deprecated_version']);

      const features = (await ok('/api/v2/features')).data as Json[];
      for (const f of features) expect(keys(f)).toEqual(['description', 'enabled', 'id', 'key', 'name', 'user_updatable']);
    });

    it('roles and users: {data: {roles}} and {data: {users}}', async () => {
      const roles = (await ok('/api/v2/roles')).data as Json;
      expect(keys(roles)).toEqual(['roles']);
      for (const r of roles.roles as Json[]) {
        expect(keys(r)).toEqual(['created_at', 'deleted_at', 'description', 'id', 'name', 'permissions', 'updated_at']);
        for (const p of r.permissions as Json[]) expect(p).toMatchObject({ id: expect.any(Number), authority: expect.any(String) });
      }
      const users = (await ok('/api/v2/bloodhound-users')).data as Json;
      expect(keys(users)).toEqual(['users']);
      const [admin] = users.users as Json[];
      expect(admin).toMatchObject({
        principal_name: 'admin',
        is_disabled: false,
        roles: [expect.objectContaining({ name: 'Administrator' })],
      });
    });
  });

  describe('asset group tags', () => {
    let tag: number;
    beforeAll(async () => {
      tag = await tierZeroTagId(t);
    });

    it('one tag is {data: {tag}} with a numeric position; one selector {data: {selector}}', async () => {
      const one = (await ok(`/api/v2/asset-group-tags/${tag}`)).data as Json;
      expect(keys(one)).toEqual(['tag']);
      expect(one.tag).toMatchObject({ id: tag, type: 1, name: 'Tier Zero', position: 1, require_certify: true });
      const listed = ((await ok('/api/v2/asset-group-tags')).data as { tags: Json[] }).tags.find((x) => x.id === tag);
      expect(listed).toEqual(one.tag);

      const list = await ok(`/api/v2/asset-group-tags/${tag}/selectors`);
      expect(keys(list)).toEqual(['count', 'data', 'limit', 'skip']);
      expect(list).toMatchObject({ skip: 0, limit: 50 });
      const { selectors } = list.data as { selectors: Json[] };
      expect(selectors).toHaveLength(list.count as number);
      const sel = (await ok(`/api/v2/asset-group-tags/${tag}/selectors/${selectors[0]!.id}`)).data as Json;
      expect(keys(sel)).toEqual(['selector']);
      expect(sel.selector).toEqual(selectors[0]);
      // SelectorSeed: each seed names its selector.
      for (const seed of (sel.selector as { seeds: Json[] }).seeds) {
        expect(keys(seed)).toEqual(['selector_id', 'type', 'value']);
        expect(seed.selector_id).toBe(selectors[0]!.id);
      }
    });

    it('certifications: pagination envelope around {members} of AssetGroupMemberWithCertification', async () => {
      const body = await ok('/api/v2/asset-group-tags/certifications?limit=3');
      expect(keys(body)).toEqual(['count', 'data', 'limit', 'skip']);
      expect(body).toMatchObject({ skip: 0, limit: 3 });
      expect(keys(body.data)).toEqual(['members']);
      const members = (body.data as { members: Json[] }).members;
      expect(members.length).toBeGreaterThan(0);
      for (const m of members) {
        expect(keys(m)).toEqual(
          sorted(
            'id',
            'object_id',
            'environment_id',
            'primary_kind',
            'name',
            'asset_group_tag_id',
            'created_at',
            'certified_by',
            'certified',
          ),
        );
        expect(m).toMatchObject({ asset_group_tag_id: tag, certified: 0, certified_by: '' });
      }
      expect(keys(await ok('/api/v2/asset-group-tags/certifications'))).toEqual(['count', 'data', 'limit', 'skip']);
    });

    it('members: pagination envelope around {members}; counts {total_count, counts}', async () => {
      const members = await ok(`/api/v2/asset-group-tags/${tag}/members?limit=2`);
      expect(keys(members)).toEqual(['count', 'data', 'limit', 'skip']);
      expect(keys(members.data)).toEqual(['members']);
      for (const m of (members.data as { members: Json[] }).members) {
        expect(m).toMatchObject({
          asset_group_tag_id: tag,
          id: expect.any(Number),
          primary_kind: expect.any(String),
          object_id: expect.any(String),
        });
      }
      const counts = (await ok(`/api/v2/asset-group-tags/${tag}/members/counts`)).data as Json;
      expect(keys(counts)).toEqual(['counts', 'total_count']);
      expect(counts.total_count).toBe(members.count);
    });
  });

  describe('collection jobs', () => {
    it('/jobs, /jobs/finished and a client’s completed jobs list ScheduledJobDisplay items', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const task = await request(t.app)
        .post(`/api/v2/clients/${c.id}/jobs`)
        .set('Authorization', `Bearer ${t.adminJwt}`)
        .send({ session_collection: true });
      expect(task.status).toBe(200);
      const jobs = await ok('/api/v2/jobs');
      expect(keys(jobs)).toEqual(['count', 'data', 'limit', 'skip']);
      const [job] = jobs.data as Json[];
      // ScheduledJobDisplay is the API document's job as embedded in a client (current_job, current_task).
      const client = (await ok(`/api/v2/clients/${c.id}`)).data as Json;
      expect(keys(job)).toEqual(keys(client.current_job));
      expect(keys(job)).toContain('status_message');
      expect(job).toMatchObject({ id: task.body.data.id, client_id: c.id, session_collection: true, domain_controller: '' });
      expect(keys(await ok('/api/v2/jobs/finished'))).toEqual(['count', 'data', 'limit', 'skip']);
      expect(keys(await ok(`/api/v2/clients/${c.id}/completed-jobs`))).toEqual(['count', 'data', 'limit', 'skip']);
    });
  });
});
