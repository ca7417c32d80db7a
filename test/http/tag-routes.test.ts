import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

describe('asset-group-tag reads of BloodHound', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const get = (p: string) => request(t.app).get(p).set(admin());
  let tierZero: number;

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    tierZero = await tierZeroTagId(t);
  });

  it('counts members per primary kind (not taken for a member id)', async () => {
    const tag = (await get(`/api/v2/asset-group-tags/${tierZero}`)).body.data.tag;
    const res = await get(`/api/v2/asset-group-tags/${tierZero}/members/counts`);
    expect(res.status).toBe(200);
    expect(res.body.data.total_count).toBe(tag.member_count);
    const sum = Object.values(res.body.data.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(sum).toBe(tag.member_count);
    expect(res.body.data.counts.Group).toBeGreaterThan(0);
  });

  it('reads one selector and its members', async () => {
    const selectors = (await get(`/api/v2/asset-group-tags/${tierZero}/selectors`)).body.data.selectors;
    const s = selectors[0];
    const one = await get(`/api/v2/asset-group-tags/${tierZero}/selectors/${s.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.selector).toEqual(s);
    const members = await get(`/api/v2/asset-group-tags/${tierZero}/selectors/${s.id}/members?limit=5`);
    expect(members.status).toBe(200);
    expect(members.body).toMatchObject({ skip: 0, limit: 5, data: { members: expect.any(Array) } });
    const counts = await get(`/api/v2/asset-group-tags/${tierZero}/members/counts?selector_id=${s.id}`);
    expect(counts.body.data.total_count).toBe(members.body.count);
  });

  it('lists zone members with their current certification at GET …/certifications, filtered as BloodHound', async () => {
    type Entry = { id: number; object_id: string; name: string; primary_kind: string; certified: number; certified_by: string };
    const list = async (q: string) => {
      const res = await get(`/api/v2/asset-group-tags/certifications${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
      return res.body as { count: number; skip: number; limit: number; data: { members: Entry[] } };
    };
    const all = await list('?limit=1000');
    const tag = (await get(`/api/v2/asset-group-tags/${tierZero}`)).body.data.tag;
    // Every Tier Zero member once (Tier Zero requires certification), all pending before anyone certifies.
    expect(all.count).toBe(tag.member_count);
    expect(all.data.members.every((m) => m.certified === 0)).toBe(true);
    expect((await list('?limit=2&skip=1')).data.members).toEqual(all.data.members.slice(1, 3));

    const [a, b] = all.data.members;
    const certified = await request(t.app)
      .post('/api/v2/asset-group-tags/certifications')
      .set(admin())
      .send({ member_ids: [a!.id, b!.id], action: 2, note: 'reviewed' });
    expect(certified.status).toBe(200);
    const done = await list('?certified=eq:2');
    expect(done.data.members.map((m) => m.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(done.data.members[0]!.certified_by).toBe('admin');
    expect((await list('?certified=eq:0')).count).toBe(all.count - 2);
    expect((await list('?certified_by=eq:admin')).count).toBe(2);
    expect((await list(`?asset_group_tag_id=${tierZero}&certified=gt:0`)).count).toBe(2);
    // Name contains (case-insensitive), object id (any case), kind, first-seen window.
    const da = (await list('?name=~eq:domain%20admins')).data.members;
    expect(da.map((m) => m.name)).toContain('DOMAIN ADMINS@TESTLAB.LOCAL');
    expect((await list(`?object_id=eq:${da[0]!.object_id.toLowerCase()}`)).data.members.map((m) => m.id)).toEqual([da[0]!.id]);
    const groups = await list('?primary_kind=eq:Group&limit=1000');
    expect(groups.count).toBeGreaterThan(0);
    expect(groups.data.members.every((m) => m.primary_kind === 'Group')).toBe(true);
    expect((await list('?primary_kind=neq:Group')).count).toBe(all.count - groups.count);
    expect((await list('?created_at=gte:2000-01-01T00:00:00Z&created_at=lte:2999-01-01T00:00:00Z')).count).toBe(all.count);
    expect((await list('?created_at=gt:2999-01-01T00:00:00Z')).count).toBe(0);
    // The change history stays on the member's detail.
    const detail = await get(`/api/v2/asset-group-tags/${tierZero}/members/${a!.id}`);
    expect(detail.body.data.member.certification_history).toEqual([expect.objectContaining({ action: 2, note: 'reviewed' })]);
  });

  it('answers 400 for a bad certification filter or page, 401 without credentials', async () => {
    for (const q of [
      'limit=abc',
      'limit=100000',
      'skip=-1',
      'certified=abc',
      'certified=~eq:1',
      'name=gt:x',
      'created_at=gte:yesterday',
      'colour=eq:red',
    ]) {
      expectWrapper(await get(`/api/v2/asset-group-tags/certifications?${q}`), 400);
    }
    expectWrapper(await request(t.app).get('/api/v2/asset-group-tags/certifications'), 401);
    // Reading the list needs graphdb/Read: a read-only user may, an upload-only client token may not.
    const ro = await userWithRole(t, 'Read-Only');
    const uploader = await userWithRole(t, 'Upload-Only');
    const as = (jwt: string) => request(t.app).get('/api/v2/asset-group-tags/certifications').set('Authorization', `Bearer ${jwt}`);
    expect((await as(ro.jwt)).status).toBe(200);
    expectWrapper(await as(uploader.jwt), 403);
  });

  it('pages the selectors of a tag; 400 for a bad page, 404 for an unknown tag', async () => {
    const all = (await get(`/api/v2/asset-group-tags/${tierZero}/selectors`)).body;
    expect(all.count).toBe(all.data.selectors.length);
    const page = (await get(`/api/v2/asset-group-tags/${tierZero}/selectors?skip=1&limit=1`)).body;
    expect(page).toMatchObject({ count: all.count, skip: 1, limit: 1 });
    expect(page.data.selectors).toEqual(all.data.selectors.slice(1, 2));
    expectWrapper(await get(`/api/v2/asset-group-tags/${tierZero}/selectors?limit=x`), 400);
    expectWrapper(await get('/api/v2/asset-group-tags/999999/selectors'), 404);
  });

  it('404 for an unknown selector or tag, 400 for a bad id, 401 without credentials', async () => {
    expectWrapper(await get(`/api/v2/asset-group-tags/${tierZero}/selectors/999999`), 404);
    expectWrapper(await get('/api/v2/asset-group-tags/999999/members/counts'), 404);
    expectWrapper(await get(`/api/v2/asset-group-tags/${tierZero}/selectors/abc`), 400);
    expectWrapper(await request(t.app).get(`/api/v2/asset-group-tags/${tierZero}/members/counts`), 401);
  });
});
