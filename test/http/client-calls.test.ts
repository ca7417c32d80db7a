import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { createClient } from '../helpers/collectors';
import { sharphound } from '../helpers/upload';

const SID = 'S-1-5-21-7-7-7-1105';

/** Calls BloodHound's own client makes as it sends them: its client type names and its POST /api/v2/ingest body. */
describe("BloodHound's client: client type names and POST /api/v2/ingest from a user", () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('creates clients under BloodHound’s type names', async () => {
    for (const [given, stored] of [
      ['sharphound', 'collector_ad'],
      ['azurehound', 'collector_azure'],
      ['AzureHound', 'collector_azure'],
    ]) {
      const c = await createClient(t.app, t.adminJwt, { type: given });
      expect(c.body.data.type).toBe(stored);
    }
    const bad = await request(t.app).post('/api/v2/clients').set(admin()).send({ name: 'x', type: 'bloodhound' });
    expect(expectWrapper(bad, 400).message).toMatch(/sharphound, azurehound/);
  });

  it('ingests a user’s JSON body as a one-file upload job', async () => {
    const body = sharphound('users', [{ ObjectIdentifier: SID, Properties: { name: 'POSTED@TEST.LOCAL' }, Aces: [] }]);
    const res = await request(t.app).post('/api/v2/ingest').set(admin()).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(202);
    await t.services.datapipe.drain();
    const rows = await t.testDb.db.query<{ objectid: string }>('select objectid from graph_nodes where objectid = $1', [SID]);
    expect(rows).toHaveLength(1);
    const jobs = await request(t.app).get('/api/v2/file-upload').set(admin());
    expect(jobs.body.data[0]).toMatchObject({ total_files: 1, failed_files: 0, status: 2 });
  });

  it('refuses a user without graphdb/Ingest; a body that is not collected data fails in ingest', async () => {
    const reader = await userWithRole(t, 'Read-Only');
    const denied = await request(t.app)
      .post('/api/v2/ingest')
      .set({ Authorization: `Bearer ${reader.jwt}` })
      .send({});
    expectWrapper(denied, 403);
    const text = await request(t.app).post('/api/v2/ingest').set(admin()).set('Content-Type', 'application/json').send('{"hello": 1}');
    expect(text.status).toBe(202);
    await t.services.datapipe.drain();
    const jobs = await request(t.app).get('/api/v2/file-upload').set(admin());
    // Newest first: the job of the body above, its one file failed; no job is left waiting for files.
    expect(jobs.body.data[0]).toMatchObject({ total_files: 1, failed_files: 1 });
    expect(jobs.body.data.filter((j: { status: number }) => j.status === 0)).toEqual([]);
    // The refusal names the formats accepted.
    const [f] = await t.services.datapipe.filesOfJob(jobs.body.data[0].id);
    expect(f!.error).toMatch(/neither a collector file .* nor an OpenGraph file/);
  });
});
