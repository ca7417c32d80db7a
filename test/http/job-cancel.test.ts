import fs from 'node:fs';
import request from 'supertest';
import { expectWrapper, signed, useTestApp } from '../helpers/app';
import { createClient } from '../helpers/collectors';
import { sharphound } from '../helpers/upload';

/** Canceling a running collection job ends the upload job it feeds: ingested data stays, queued batches go. */
describe('PUT /api/v2/jobs/{id}/cancel and the upload job behind it', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const group = (sid: string, name: string) => sharphound('groups', [{ ObjectIdentifier: sid, Properties: { name }, Aces: [] }]);
  const nodes = async (...objectids: string[]) =>
    (
      await t.testDb.db.query<{ objectid: string }>('select objectid from graph_nodes where objectid = any($1) order by objectid', [
        objectids,
      ])
    ).map((r) => r.objectid);

  it('keeps the batch already ingested, drops the queued one, and the collector can no longer end the job', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const task = (await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({})).body.data;
    expect((await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: task.id })).status).toBe(200);
    expect((await signed(t.app, c.token, 'POST', '/api/v2/ingest', group('S-1-5-21-5-5-5-1', 'FIRST BATCH'))).status).toBe(202);
    await t.services.datapipe.drain();
    expect(await nodes('S-1-5-21-5-5-5-1')).toEqual(['S-1-5-21-5-5-5-1']);

    // The pipeline stops taking work, so the next batch stays queued when the job is canceled.
    await t.services.datapipe.stop();
    expect((await signed(t.app, c.token, 'POST', '/api/v2/ingest', group('S-1-5-21-5-5-5-2', 'SECOND BATCH'))).status).toBe(202);
    const uploadId = (
      await t.testDb.db.query<{ id: number }>('select ingest_job_id as id from collection_jobs where id = $1', [task.id])
    )[0]!.id;
    const queued = await t.services.datapipe.filesOfJob(uploadId);
    expect(queued.map((f) => f.status)).toEqual([2, 0]);
    expect(fs.existsSync(queued[1]!.path)).toBe(true);

    const res = await request(t.app).put(`/api/v2/jobs/${task.id}/cancel`).set(admin());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: task.id, status: 3 });

    const upload = await request(t.app).get(`/api/v2/file-upload`).set(admin());
    expect(upload.body.data.find((j: { id: number }) => j.id === uploadId)).toMatchObject({
      status: 3,
      status_message: 'canceled: the collection job was canceled',
      end_time: expect.stringMatching(/^\d{4}-/),
      total_files: 2,
      failed_files: 1,
    });
    const files = await t.services.datapipe.filesOfJob(uploadId);
    expect(files.map((f) => [f.status, f.error])).toEqual([
      [2, null],
      [5, `${files[1]!.originalName}: not ingested: the collection job was canceled`],
    ]);
    expect(fs.existsSync(queued[1]!.path)).toBe(false);
    expect(await nodes('S-1-5-21-5-5-5-1', 'S-1-5-21-5-5-5-2')).toEqual(['S-1-5-21-5-5-5-1']);
    // Data went in: analysis is asked for, so derived edges follow it.
    expect((await t.services.datapipe.status()).analysisRequested).toBe(true);

    // The collector learns the job is over: nothing is running, and ingest or end answer 404.
    expectWrapper(await signed(t.app, c.token, 'POST', '/api/v2/ingest', group('S-1-5-21-5-5-5-3', 'LATE')), 404);
    expectWrapper(await signed(t.app, c.token, 'POST', '/api/v2/jobs/end', {}), 404);
    // Canceling again is a conflict and changes nothing.
    expectWrapper(await request(t.app).put(`/api/v2/jobs/${task.id}/cancel`).set(admin()), 409);
    expect((await t.services.datapipe.filesOfJob(uploadId)).map((f) => f.status)).toEqual([2, 5]);
  });

  it('a cancel cut short before its upload job ended (the process stopped) is finished by the pipeline repair', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const task = (await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({})).body.data;
    await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: task.id });
    expect((await signed(t.app, c.token, 'POST', '/api/v2/ingest', group('S-1-5-21-5-5-5-4', 'QUEUED'))).status).toBe(202);
    // Only the first step of the cancel, as a crash between the two would leave it.
    await t.testDb.db.query('update collection_jobs set status = 3 where id = $1', [task.id]);
    await t.services.collectionJobs.repairStranded();
    const uploadId = (
      await t.testDb.db.query<{ id: number }>('select ingest_job_id as id from collection_jobs where id = $1', [task.id])
    )[0]!.id;
    expect((await t.services.datapipe.ingestJob(uploadId))?.status).toBe(3);
    expect((await t.services.datapipe.filesOfJob(uploadId)).map((f) => f.status)).toEqual([5]);
  });
});
