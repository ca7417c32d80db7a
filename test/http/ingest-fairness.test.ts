import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { generateSharpHound } from '../../src/generate/sharphound';
import { ADMIN_PASSWORD, apiToken, login, userWithRole, useTestApp, type ApiToken, type TestApp } from '../helpers/app';
import { TESTLAB } from '../helpers/fixtures';
import { uploadJob } from '../helpers/upload';
import { zip } from '../helpers/zip';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Another caller's big job, ended and under way: its first file (users.json of a generated 5,000-user domain) takes a
 * while, then five files of the testlab collection. Resolves once its first file is being ingested.
 */
async function bigJobUnderWay(t: TestApp, token: ApiToken, dir: string): Promise<number> {
  const gen = path.join(dir, 'big');
  if (!fs.existsSync(path.join(gen, 'users.json'))) generateSharpHound(gen, { users: 5000, seed: 4 });
  const rest = ['computers.json', 'groups.json', 'ous.json', 'gpos.json', 'domains.json'].map((f) => path.join(TESTLAB, f));
  const id = await uploadJob(t.app, token, [path.join(gen, 'users.json'), ...rest]);
  for (let i = 0; i < 400 && (await t.services.datapipe.ingestJob(id))?.statusMessage !== 'ingesting'; i++) await sleep(25);
  return id;
}

/**
 * One caller's upload cannot hold another's: the pipeline ingests one file at a time with callers taking turns, an
 * archive that passes its limits fails with the limit on the job, and an administrator can cancel a job while it is
 * ingesting, which stops its file at once.
 */
describe('ingest between callers', () => {
  const t = useTestApp();
  let uploader: { id: string; jwt: string };
  let uploaderToken: ApiToken;
  let adminToken: ApiToken;
  let dir: string;
  beforeAll(async () => {
    uploader = await userWithRole(t, 'Upload-Only');
    const created = await t.services.tokens.create(await t.services.identity.authenticateJwt(uploader.jwt), { name: 'uploader' });
    uploaderToken = { id: created.id, key: created.key };
    adminToken = await apiToken(t.app, t.adminJwt);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-fair-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const job = (id: number) => t.services.datapipe.ingestJob(id);
  /** When each file of the jobs was done, in order. */
  const doneOrder = async (...jobs: number[]) =>
    (
      await t.testDb.db.query<{ job_id: number; original_name: string }>(
        `select job_id::int, original_name from ingest_files where job_id = any($1) order by updated_at, id`,
        [jobs],
      )
    ).map((r) => `${r.job_id}:${r.original_name}`);

  it("ingests a small job after at most one file of another caller's big one", async () => {
    const big = await bigJobUnderWay(t, uploaderToken, dir);
    const small = await uploadJob(t.app, adminToken, [path.join(TESTLAB, 'containers.json')]);
    await t.services.datapipe.drain();
    const order = await doneOrder(big, small);
    expect(order.indexOf(`${small}:containers.json`)).toBe(1);
    expect((await job(small))?.status).toBe(2);
    expect((await job(big))?.status).toBe(2);
  });

  it('fails a bomb on its job with the limit it passed, and the small job behind it completes', async () => {
    const spaces = `{"meta":{"type":"users","version":6},"data":[${' '.repeat(64 * 1024 * 1024)}]}`;
    const bomb = await zip([['users.json', spaces]]);
    const bombJob = await uploadJob(t.app, uploaderToken, [['bomb.zip', bomb, 'application/zip']]);
    const small = await uploadJob(t.app, adminToken, [path.join(TESTLAB, 'containers.json')]);
    await t.services.datapipe.drain();
    const failed = await job(bombJob);
    expect(failed?.status).toBe(5);
    expect(failed?.statusMessage).toMatch(
      /bomb\.zip:users\.json: the entry expands to more than 200 times its compressed size.*ARCHIVE_MAX_RATIO/,
    );
    expect((await job(small))?.status).toBe(2);
  });

  it('lets an administrator cancel a job while its file is being ingested: it stops at once and rolls back', async () => {
    const gen = path.join(dir, 'gen');
    generateSharpHound(gen, { users: 12_000, seed: 3 });
    const id = await uploadJob(t.app, uploaderToken, [path.join(gen, 'computers.json'), path.join(gen, 'users.json')]);
    const drained = t.services.datapipe.drain();
    // Wait until the first file is being ingested.
    for (let i = 0; i < 200 && (await job(id))?.statusMessage !== 'ingesting'; i++) await sleep(25);
    await sleep(500);
    const adminJwt = await login(t.app, 'admin', ADMIN_PASSWORD);
    const res = await request(t.app).put(`/api/v2/file-upload/${id}/cancel`).set('Authorization', `Bearer ${adminJwt}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 3 });
    await drained;
    // The file under way stopped: had it run to its end its status would be 2 and its nodes in the graph.
    const files = await t.services.datapipe.filesOfJob(id);
    expect(files.map((f) => f.status)).toEqual([5, 5]);
    expect(files.every((f) => /canceled/.test(f.error ?? ''))).toBe(true);
    // Rolled back: nothing of the stopped file (nor of the dropped one) is in the graph. Their last objects are past
    // what the smaller generated domain of the other tests holds.
    const ids = ['users.json', 'computers.json'].map(
      (f) =>
        (JSON.parse(fs.readFileSync(path.join(gen, f), 'utf8')) as { data: { ObjectIdentifier: string }[] }).data.at(-1)!.ObjectIdentifier,
    );
    const found = await t.testDb.db.query(`select objectid from graph_nodes where objectid = any($1)`, [ids]);
    expect(found).toEqual([]);
    expect((await job(id))?.status).toBe(3);
    // Once ingest is done there is nothing to cancel; and only the owner or an administrator may.
    expect((await request(t.app).put(`/api/v2/file-upload/${id}/cancel`).set('Authorization', `Bearer ${adminJwt}`)).status).toBe(409);
    const other = await uploadJob(t.app, adminToken, [path.join(TESTLAB, 'containers.json')]);
    const stranger = await request(t.app).put(`/api/v2/file-upload/${other}/cancel`).set('Authorization', `Bearer ${uploader.jwt}`);
    expect(stranger.status).toBe(404);
    await t.services.datapipe.drain();
  });
});

/** Nor does another caller's big job hold a small job's completion: its analysis runs between two files. */
describe('analysis between callers', () => {
  const t = useTestApp({ analysisMaxDelayMs: 0 });

  it("completes a small job, analysis included, before another caller's big job has ingested its files", async () => {
    const uploader = await userWithRole(t, 'Upload-Only');
    const created = await t.services.tokens.create(await t.services.identity.authenticateJwt(uploader.jwt), { name: 'uploader' });
    const uploaderToken = { id: created.id, key: created.key };
    const adminToken = await apiToken(t.app, t.adminJwt);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-fair-'));
    const big = await bigJobUnderWay(t, uploaderToken, dir);
    const small = await uploadJob(t.app, adminToken, [path.join(TESTLAB, 'containers.json')]);
    await t.services.datapipe.drain();
    const [row] = await t.testDb.db.query<{ small_done: Date; big_last_file: Date }>(
      `select (select end_time from ingest_jobs where id = $2) as small_done,
              (select max(updated_at) from ingest_files where job_id = $1) as big_last_file`,
      [big, small],
    );
    expect((await t.services.datapipe.ingestJob(small))?.status).toBe(2);
    expect((await t.services.datapipe.ingestJob(big))?.status).toBe(2);
    expect(row!.small_done.getTime()).toBeLessThan(row!.big_last_file.getTime());
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
