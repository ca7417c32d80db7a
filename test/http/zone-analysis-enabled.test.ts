import request from 'supertest';
import { expectWrapper, useTestApp } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin } from '../helpers/upload';

const DOMAINS = 'MATCH (d:Domain) RETURN d';

/**
 * A zone's analysis_enabled as BloodHound honours it (analysis selects Tier Zero, labels and enabled zones only),
 * and a tag change and its history row committed in one transaction (the mutation's unit of work).
 */
describe('zone analysis flag and tag history in the change’s transaction', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const members = async (tagId: number) =>
    (await request(t.app).get(`/api/v2/asset-group-tags/${tagId}/members?limit=100`).set(admin())).body.count as number;
  const zone = async (name: string, analysisEnabled?: boolean) => {
    const res = await request(t.app)
      .post('/api/v2/asset-group-tags')
      .set(admin())
      .send({ type: 1, name, analysis_enabled: analysisEnabled });
    expect(res.status).toBe(201);
    const id = res.body.data.id as number;
    const sel = await request(t.app)
      .post(`/api/v2/asset-group-tags/${id}/selectors`)
      .set(admin())
      .send({ name: `${name} domains`, seeds: [{ type: 2, value: DOMAINS }] });
    expect(sel.status).toBe(201);
    return id;
  };
  const history = async (tagId: number) =>
    (
      (await request(t.app).get(`/api/v2/asset-group-tags-history?asset_group_tag_id=eq:${tagId}&limit=100`).set(admin())).body.data
        .records as { action: string }[]
    ).map((r) => r.action);

  it('analysis re-selects an enabled zone and leaves a disabled one as it was; enabling selects at once', async () => {
    // The graph is empty: both zones select nothing yet.
    const enabled = await zone('Analysed Zone', true);
    const disabled = await zone('Unanalysed Zone');
    expect([await members(enabled), await members(disabled)]).toEqual([0, 0]);

    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
    // TESTLAB's domain and the trusted domains its trusts name.
    const domains = await members(enabled);
    expect(domains).toBeGreaterThan(0);
    expect(await members(disabled)).toBe(0);

    const on = await request(t.app).patch(`/api/v2/asset-group-tags/${disabled}`).set(admin()).send({ analysis_enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data.analysis_enabled).toBe(true);
    expect(await members(disabled)).toBe(domains);
    expect(await history(disabled)).toEqual(expect.arrayContaining(['CreateTag', 'CreateSelector', 'UpdateTag', 'AnalysisEnabledTag']));
  });

  it('a flag that is not a boolean is a 400 in the error wrapper', async () => {
    const res = await request(t.app)
      .post('/api/v2/asset-group-tags')
      .set(admin())
      .send({ type: 1, name: 'Odd Zone', analysis_enabled: 'yes' });
    expectWrapper(res, 400);
  });

  it('a history row that cannot be written undoes the tag change with it', async () => {
    // A fault in the history table only: the tag's own statements succeed, its history insert fails.
    await t.testDb.db.execute(`create function refuse_history() returns trigger language plpgsql as $$
      begin raise exception 'history refused' using errcode = '40001'; end $$`);
    await t.testDb.db.execute(`create trigger refuse_history before insert on asset_group_tag_history
      for each row when (new.target = 'Refused Zone') execute function refuse_history()`);
    try {
      const res = await request(t.app).post('/api/v2/asset-group-tags').set(admin()).send({ type: 1, name: 'Refused Zone' });
      expectWrapper(res, 503);
      const tags = (await request(t.app).get('/api/v2/asset-group-tags').set(admin())).body.data.tags as { name: string }[];
      expect(tags.map((x) => x.name)).not.toContain('Refused Zone');
    } finally {
      await t.testDb.db.execute('drop trigger refuse_history on asset_group_tag_history');
      await t.testDb.db.execute('drop function refuse_history()');
    }
    // The same change goes through, recorded, once the history can be written.
    const ok = await request(t.app).post('/api/v2/asset-group-tags').set(admin()).send({ type: 1, name: 'Refused Zone' });
    expect(ok.status).toBe(201);
    expect(await history(ok.body.data.id)).toEqual(['CreateTag']);
  });
});
