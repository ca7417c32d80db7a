import request from 'supertest';
import { apiToken, expectWrapper, signed, useTestApp } from '../helpers/app';
import { createClient, createEvent } from '../helpers/collectors';
import { createTestIdp } from '../helpers/saml-idp';
import { sharphound, uploadJob } from '../helpers/upload';
import { load } from '../unit/analysis-graph';

/**
 * closed sets are GraphQL enums and mutations take typed inputs; REST keeps BloodHound's numbers and
 * spellings on the same operations.
 */
/** GraphQL over HTTP's own media type: a request that does not validate (a wrong enum value) answers 400. */
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

describe('GraphQL enums and typed inputs, REST numbers', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const gql = (query: string, variables?: Record<string, unknown>) =>
    request(t.app).post('/graphql').set(admin()).send({ query, variables });

  beforeAll(async () => {
    await load(t.testDb.db, {
      nodes: [
        ['S-1-5-21-7-7-7-1001', 'User', { name: 'ALICE@ENUMS.LOCAL' }],
        ['S-1-5-21-7-7-7-1002', 'User', { name: 'BOB@ENUMS.LOCAL' }],
        ['S-1-5-21-7-7-7-513', 'Group', { name: 'DOMAIN USERS@ENUMS.LOCAL' }],
      ],
      edges: ['S-1-5-21-7-7-7-1001 MemberOf S-1-5-21-7-7-7-513', 'S-1-5-21-7-7-7-1002 MemberOf S-1-5-21-7-7-7-513'],
    });
  });

  it('a zone, its selector and certification through typed inputs; enums out, numbers over REST', async () => {
    const tag = await gql(
      `mutation ($input: CreateAssetGroupTagInput!) { createAssetGroupTag(input: $input) { id type name requireCertify } }`,
      { input: { type: 'ZONE', name: 'Enum zone', requireCertify: true } },
    );
    expect(tag.body.data.createAssetGroupTag).toMatchObject({ type: 'ZONE', name: 'Enum zone', requireCertify: true });
    const tagId = tag.body.data.createAssetGroupTag.id;
    expect((await request(t.app).get(`/api/v2/asset-group-tags/${tagId}`).set(admin())).body.data.tag.type).toBe(1);

    const sel = await gql(
      `mutation ($tagId: Int!, $input: AssetGroupSelectorInput!) {
         createAssetGroupSelector(tagId: $tagId, input: $input) { name seeds { type value } memberCount } }`,
      { tagId, input: { name: 'Alice', seeds: [{ type: 'OBJECTID', value: 's-1-5-21-7-7-7-1001' }] } },
    );
    expect(sel.body.data.createAssetGroupSelector).toEqual({
      name: 'Alice',
      seeds: [{ type: 'OBJECTID', value: 'S-1-5-21-7-7-7-1001' }],
      memberCount: 1,
    });
    const rest = await request(t.app).get(`/api/v2/asset-group-tags/${tagId}/selectors`).set(admin());
    const [restSelector] = rest.body.data.selectors;
    expect(restSelector.seeds).toEqual([{ selector_id: restSelector.id, type: 1, value: 'S-1-5-21-7-7-7-1001' }]);

    const members = await gql(`query ($id: Int!) { assetGroupTag(id: $id) { members { members { id certified } } } }`, { id: tagId });
    const [member] = members.body.data.assetGroupTag.members.members;
    expect(member.certified).toBe('PENDING');
    const revoked = await gql(
      `mutation ($ids: [Int!]) { certifyMembers(memberIds: $ids, action: REVOKE, note: "no") { action changed } }`,
      {
        ids: [member.id],
      },
    );
    expect(revoked.body.data.certifyMembers).toEqual({ action: 'REVOKE', changed: [member.id] });
    const detail = await gql(
      `query ($t: Int!, $m: Int!) { assetGroupMember(tagId: $t, memberId: $m) { member { certified } history { action previous } } }`,
      {
        t: tagId,
        m: member.id,
      },
    );
    expect(detail.body.data.assetGroupMember).toEqual({
      member: { certified: 'REVOKED' },
      history: [{ action: 'REVOKE', previous: 'PENDING' }],
    });
    // REST: the same member in numbers; "certify" / 2 and "revoke" / 1 both spell the action.
    const restDetail = await request(t.app).get(`/api/v2/asset-group-tags/${tagId}/members/${member.id}`).set(admin());
    expect(restDetail.body.data.member).toMatchObject({
      certified: 1,
      certification_history: [expect.objectContaining({ action: 1, previous: 0 })],
    });
    const certify = (action: unknown) =>
      request(t.app)
        .post('/api/v2/asset-group-tags/certifications')
        .set(admin())
        .send({ member_ids: [member.id], action });
    expect((await certify('certify')).body.data).toEqual({ action: 'certify', changed: [member.id], unchanged: [] });
    expect((await certify(1)).body.data).toEqual({ action: 'revoke', changed: [member.id], unchanged: [] });
    expect((await certify('revoke')).body.data).toEqual({ action: 'revoke', changed: [], unchanged: [member.id] });
  });

  it('REST takes a tag type as 2 or "label", and a seed type as 1, "objectid", "kind" or "rule"', async () => {
    const post = (body: object) => request(t.app).post('/api/v2/asset-group-tags').set(admin()).send(body);
    expect((await post({ type: 2, name: 'Two' })).body.data.type).toBe(2);
    const label = await post({ type: 'label', name: 'Label' });
    expect(label.body.data.type).toBe(2);
    const sel = await request(t.app)
      .post(`/api/v2/asset-group-tags/${label.body.data.id}/selectors`)
      .set(admin())
      .send({
        name: 'mixed',
        seeds: [
          { type: 1, value: 'S-1-5-21-7-7-7-1002' },
          { type: 'kind', value: 'User' },
        ],
      });
    expect(sel.status).toBe(201);
    expect(sel.body.data.seeds).toEqual([
      { selector_id: sel.body.data.id, type: 1, value: 'S-1-5-21-7-7-7-1002' },
      { selector_id: sel.body.data.id, type: 'kind', value: 'User' },
    ]);
    expect(sel.body.data.member_count).toBe(2);
    expect(expectWrapper(await post({ type: true, name: 'x' }), 400).message).toMatch(/type must be "zone"/);
    expect(expectWrapper(await post({ type: '__proto__', name: 'x' }), 400).message).toMatch(/type must be "zone"/);
  });

  it('GraphQL refuses a wrong shape before the service: a string for an enum, JSON for a typed input', async () => {
    const bad = [
      `mutation { createAssetGroupTag(input: { type: "zone", name: "x" }) { id } }`,
      `mutation { createAssetGroupTag(input: { type: ZONE, name: "x", color: "red" }) { id } }`,
      `mutation { certifyMembers(memberIds: ["1"]) { action } }`,
      `mutation { updateCustomNodeKind(kindName: "X", config: { icon: "user" }) { id } }`,
    ];
    for (const query of bad) {
      const res = await gql(query);
      expect({ query, data: res.body.data }).toEqual({ query, data: undefined });
      expect(res.body.errors[0].message).toEqual(expect.any(String));
    }
    // Field checks stay in the service: its messages name the field.
    const noName = await gql(`mutation { createAssetGroupTag(input: { type: LABEL }) { id } }`);
    expect(noName.body.errors[0].message).toBe('name is required.');
    const badIcon = await gql(
      `mutation { createCustomNodeKinds(kinds: [{ kindName: "Gizmo", config: { icon: { type: "svg", name: "cog" } } }]) { id } }`,
    );
    expect(badIcon.body.errors[0].message).toMatch(/custom_types.Gizmo.icon.type must be "iconset"/);
    const kind = await gql(
      `mutation { createCustomNodeKinds(kinds: [{ kindName: "Gizmo", config: { icon: { type: "iconset", name: "cog" } } }]) { config { icon { color } } } }`,
    );
    expect(kind.body.data.createCustomNodeKinds).toEqual([{ config: { icon: { color: '#FFFFFF' } } }]);
  });

  it('job and file statuses: enum names in GraphQL, BloodHound numbers over REST', async () => {
    const token = await apiToken(t.app, t.adminJwt);
    const job = await uploadJob(t.app, token, [['groups.json', sharphound('groups', [])]]);
    await t.services.datapipe.drain();
    const q = await gql(`query ($id: Int!) { uploadJob(id: $id) { status files { status } } datapipeStatus { status } }`, { id: job });
    expect(q.body.data).toEqual({ uploadJob: { status: 'COMPLETE', files: [{ status: 'INGESTED' }] }, datapipeStatus: { status: 'IDLE' } });
    const rest = await request(t.app).get('/api/v2/file-upload').set(admin());
    expect(rest.body.data.find((j: { id: number }) => j.id === job).status).toBe(2);
    const files = await request(t.app).get(`/api/v2/file-upload/${job}/completed-tasks`).set(admin());
    expect(files.body.data.map((f: { status: number }) => f.status)).toEqual([2]);
    expect((await request(t.app).get('/api/v2/datapipe/status').set(admin())).body.data.status).toBe('idle');
  });

  it('a client error’s additional object is kept as text details; more than 100 are refused', async () => {
    const client = await createClient(t.app, t.adminJwt);
    const res = await signed(t.app, client.token, 'POST', '/api/v2/clients/error', {
      task_error: 'timeout',
      additional: { host: 'DC01', attempts: 3 },
    });
    expect(res.status).toBe(204);
    const errors = await t.testDb.db.query<{ additional: unknown }>('select additional from client_errors order by id desc limit 1');
    expect(errors[0]!.additional).toEqual({ host: 'DC01', attempts: '3' });
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await signed(t.app, client.token, 'POST', '/api/v2/clients/error', { task_error: 'x', additional: many });
    expect(expectWrapper(tooMany, 400).message).toMatch(/at most 100/);
  });

  it('client type: ClientType in GraphQL, the API document’s names over REST (and sharphound / azurehound on collector paths)', async () => {
    const made = await gql(`mutation { createClient(input: { name: "enum-azure", type: COLLECTOR_AZURE }) { id type } }`);
    expect(made.body.data.createClient).toEqual({ id: expect.any(String), type: 'COLLECTOR_AZURE' });
    const rest = await request(t.app).get(`/api/v2/clients/${made.body.data.createClient.id}`).set(admin());
    expect(rest.body.data.type).toBe('collector_azure');
    const listed = await gql(`{ clients(limit: 1000) { clients { name type } } }`);
    expect(listed.body.data.clients.clients).toContainEqual({ name: 'enum-azure', type: 'COLLECTOR_AZURE' });
    // REST takes the document's names and BloodHound's client's (sharphound, azurehound, openhound); the enum's
    // names are not client types there.
    for (const type of ['COLLECTOR_AD', 'bloodhound']) {
      const res = await request(t.app)
        .post('/api/v2/clients')
        .set(admin())
        .send({ name: `bad-${type}`, type });
      expect(expectWrapper(res, 400)).toEqual({
        context: 'clients',
        message: 'type must be one of: collector_ad, collector_azure, collector_open, sharphound, azurehound, openhound.',
      });
    }
    const manifest = await gql(`{ collectorManifest(type: COLLECTOR_AD) { type versions { version } } }`);
    expect(manifest.body.data.collectorManifest.type).toBe('COLLECTOR_AD');
    const byAlias = await request(t.app).get('/api/v2/collectors/sharphound').set(admin());
    expect(byAlias.body).toEqual((await request(t.app).get('/api/v2/collectors/collector_ad').set(admin())).body);
    expect(expectWrapper(await request(t.app).get('/api/v2/collectors/COLLECTOR_AD').set(admin()), 400).message).toMatch(
      /^Invalid collector type: COLLECTOR_AD; use one of collector_ad, collector_azure, collector_open\.$/,
    );
  });

  it('endJob takes EndJobStatus in GraphQL; REST takes AzureHound’s names or numbers for the same enum', async () => {
    const client = await createClient(t.app, t.adminJwt);
    const run = async () => {
      const task = await request(t.app).post(`/api/v2/clients/${client.id}/tasks`).set(admin()).send({});
      expect((await signed(t.app, client.token, 'POST', '/api/v2/jobs/start', { id: task.body.data.id })).status).toBe(200);
      return task.body.data.id as number;
    };
    const endGql = (status: string) =>
      signed(t.app, client.token, 'POST', '/graphql', {
        query: `mutation { endJob(status: ${status}, message: "slow") { id status } }`,
      }).set('Accept', GRAPHQL_RESPONSE);

    const first = await run();
    const wrong = await endGql('RUNNING');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].message).toMatch(/EndJobStatus/);
    expect((await endGql('TIMED_OUT')).body.data.endJob).toEqual({ id: first, status: 'TIMED_OUT' });
    expect((await request(t.app).get(`/api/v2/jobs/${first}`).set(admin())).body.data).toMatchObject({ status: 4, statusMessage: 'slow' });

    for (const [status, number] of [
      ['timed_out', 4],
      [8, 8],
      ['Cancelled', 3],
    ] as const) {
      const id = await run();
      const ended = await signed(t.app, client.token, 'POST', '/api/v2/jobs/end', { status });
      expect({ status, ended: ended.body.data.status }).toEqual({ status, ended: number });
      const job = await gql(`query ($id: Int!) { collectionJob(id: $id) { status } }`, { id });
      expect(job.body.data.collectionJob.status).toBe({ 3: 'CANCELED', 4: 'TIMED_OUT', 8: 'PARTIALLY_COMPLETE' }[number]);
    }
    await run();
    for (const status of ['RUNNING', 1, 'TIMED OUT!']) {
      const res = await signed(t.app, client.token, 'POST', '/api/v2/jobs/end', { status });
      expect(expectWrapper(res, 400)).toEqual({
        context: 'jobs',
        message: 'invalid status: use COMPLETE, CANCELED, TIMEDOUT, FAILED or PARTIALLYCOMPLETE.',
      });
    }
  });

  it('SSO provider type: SsoProviderType in GraphQL, "saml" over REST', async () => {
    const idp = await createTestIdp();
    const made = await request(t.app)
      .post('/api/v2/saml/providers')
      .set(admin())
      .field('name', 'Enum IdP')
      .attach('metadata', Buffer.from(idp.metadata), { filename: 'idp.xml', contentType: 'application/xml' });
    expect(made.status).toBe(200);
    const gqlList = await gql(`{ ssoProviders { name type } }`);
    expect(gqlList.body.data.ssoProviders).toContainEqual({ name: 'Enum IdP', type: 'SAML' });
    const rest = await request(t.app).get('/api/v2/sso-providers');
    expect(rest.body.data.find((p: { name: string }) => p.name === 'Enum IdP').type).toBe('saml');
  });

  it('event filters and sorting: EventFilterColumn and EventSort in GraphQL, query parameters over REST', async () => {
    const client = await createClient(t.app, t.adminJwt);
    const made = [];
    for (const session of [true, false, true])
      made.push(await createEvent(t.app, t.adminJwt, { client_id: client.id, session_collection: session }));
    const ids = made.map((e: { id: number }) => e.id);
    const listed = await gql(
      `query ($c: String!) { events(filters: [{ column: CLIENT_ID, value: $c }, { column: SESSION_COLLECTION, value: "true" }],
         sortBy: [{ column: ID, descending: true }]) { totalCount events { id } } }`,
      { c: `eq:${client.id}` },
    );
    expect(listed.body.data.events).toEqual({ totalCount: 2, events: [{ id: ids[2] }, { id: ids[0] }] });
    const ascending = await gql(
      `query ($c: String!) { events(filters: [{ column: CLIENT_ID, value: $c }], sortBy: [{ column: ID }]) { events { id } } }`,
      {
        c: client.id,
      },
    );
    expect(ascending.body.data.events.events.map((e: { id: number }) => e.id)).toEqual(ids);
    const rest = await request(t.app).get(`/api/v2/events?client_id=eq:${client.id}&session_collection=true&sort_by=-id`).set(admin());
    expect(rest.body.data.map((e: { id: number }) => e.id)).toEqual([ids[2], ids[0]]);

    for (const query of [
      `{ events(filters: [{ column: ALL_TRUSTED_DOMAINS, value: "true" }]) { totalCount } }`,
      `{ events(filters: [{ column: "id", value: "1" }]) { totalCount } }`,
      `{ events(sortBy: [{ column: RRULE }]) { totalCount } }`,
      `{ events(sortBy: ["-id"]) { totalCount } }`,
    ]) {
      const res = await gql(query).set('Accept', GRAPHQL_RESPONSE);
      expect({ query, status: res.status, data: res.body.data }).toEqual({ query, status: 400, data: undefined });
    }
    expect(expectWrapper(await request(t.app).get('/api/v2/events?ID=1').set(admin()), 400).message).toMatch(
      /^ID is not a filterable column/,
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/events?sort_by=-ID').set(admin()), 400).message).toMatch(
      /^sort_by column "ID" is not sortable/,
    );
  });

  it('node lists sort by NodeSort in GraphQL and by sort_by over REST', async () => {
    const group = 'S-1-5-21-7-7-7-513';
    const list = (sort: string) =>
      gql(`query ($g: String!) { entity(objectId: $g) { list(name: members, sortBy: ${sort}) { nodes { name } } } }`, { g: group });
    const names = (res: request.Response) => res.body.data.entity.list.nodes.map((n: { name: string }) => n.name);
    expect(names(await list('[{ column: NAME, descending: true }]'))).toEqual(['BOB@ENUMS.LOCAL', 'ALICE@ENUMS.LOCAL']);
    expect(names(await list('[{ column: OBJECTID }]'))).toEqual(['ALICE@ENUMS.LOCAL', 'BOB@ENUMS.LOCAL']);
    const rest = await request(t.app).get(`/api/v2/groups/${group}/members?sort_by=-name`).set(admin());
    expect(rest.body.data.map((n: { name: string }) => n.name)).toEqual(['BOB@ENUMS.LOCAL', 'ALICE@ENUMS.LOCAL']);
    for (const sort of ['[{ column: COLOR }]', '["-name"]']) {
      const res = await list(sort).set('Accept', GRAPHQL_RESPONSE);
      expect({ sort, status: res.status, data: res.body.data }).toEqual({ sort, status: 400, data: undefined });
    }
    expect(expectWrapper(await request(t.app).get(`/api/v2/groups/${group}/members?sort_by=-NAME`).set(admin()), 400).message).toMatch(
      /^sort_by column "NAME" is not sortable; use one of: name, objectid, label\.$/,
    );
  });

  it('edition: Edition in GraphQL; /health answers it in lower case', async () => {
    const res = await gql(`{ health { edition } serviceInfo { edition } }`);
    expect(res.body.data).toEqual({ health: { edition: 'ENTERPRISE' }, serviceInfo: { edition: 'ENTERPRISE' } });
    expect((await request(t.app).get('/health')).body.edition).toBe('enterprise');
  });
});
