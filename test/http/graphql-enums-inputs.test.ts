import request from 'supertest';
import { apiToken, expectWrapper, signed, useTestApp } from '../helpers/app';
import { createClient } from '../helpers/collectors';
import { sharphound, uploadJob } from '../helpers/upload';
import { load } from '../unit/analysis-graph';

/**
 * Issue 12: closed sets are GraphQL enums and mutations take typed inputs; REST keeps BloodHound's numbers and
 * spellings on the same operations.
 */
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
      ],
      edges: [],
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
    expect(rest.body.data.selectors[0].seeds).toEqual([{ type: 'objectid', value: 'S-1-5-21-7-7-7-1001' }]);

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
      { type: 'objectid', value: 'S-1-5-21-7-7-7-1002' },
      { type: 'kind', value: 'User' },
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
});
