import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatapipeStore } from '../../src/db/stores/datapipe/datapipe-store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { cleanLeftoverUploads } from '../../src/services/datapipe/upload-cleanup';
import { JOB_STATUS } from '../../src/services/common/job-status';
import { useTestApp } from '../helpers/app';
import { createClient } from '../helpers/collectors';
import { testLog } from '../helpers/db';
import { sharphound } from '../helpers/upload';

const DEAD = 'instance-of-a-process-that-died';
const user = (sid: string, name: string) => ({
  ObjectIdentifier: sid,
  Properties: { name, domain: 'RECOVERY.LOCAL', domainsid: 'S-1-5-21-9' },
  Aces: [],
  AllowedToDelegate: [],
  SPNTargets: [],
  HasSIDHistory: [],
});

/**
 * Crash recovery of the data pipeline: the state a process leaves when it dies mid-job is set up
 * directly in the tables and on disk, exactly as a crash leaves it; a live process must then finish the job.
 */
describe('crash recovery of upload jobs', () => {
  const t = useTestApp();
  const store = () => createDatapipeStore(t.testDb.db);
  const uploads = () => path.join(t.config.dataDir, 'uploads');
  const q = <R = Record<string, unknown>>(sql: string, params: unknown[] = []) => t.testDb.db.query<R>(sql, params);
  const nameOf = async (sid: string) =>
    (await q<{ name: string }>(`select properties->>'name' as name from graph_nodes where objectid = $1`, [sid]))[0]?.name;

  /** A job of a dead process: its lease ran out, the pipeline mutex is still held in its name. */
  async function deadJob(files: { name: string; body?: string }[]): Promise<{ jobId: number; fileIds: number[]; paths: string[] }> {
    const job = await store().createJob(null, null, DEAD, 60);
    const dir = path.join(uploads(), String(job.id));
    fs.mkdirSync(dir, { recursive: true });
    const fileIds: number[] = [];
    const paths: string[] = [];
    for (const f of files) {
      const p = path.join(dir, f.name);
      if (f.body !== undefined) fs.writeFileSync(p, f.body);
      const row = await store().addFile(job.id, { path: p, originalName: f.name, contentType: 'application/json', sizeBytes: 10 });
      fileIds.push(row.id);
      paths.push(p);
    }
    await q(`update ingest_jobs set status = 6, lease_until = now() - interval '1 second' where id = $1`, [job.id]);
    await q(`update datapipe_state set status = 'ingesting', worker = $1, heartbeat_at = now() - interval '5 minutes'`, [DEAD]);
    return { jobId: job.id, fileIds, paths };
  }

  afterEach(async () => {
    await q(`update datapipe_state set status = 'idle', worker = null`);
  });

  it('resumes a dead process’s job: the committed file is not ingested again, the uncommitted one is', async () => {
    const a = sharphound('users', [user('S-1-5-21-9-1001', 'ALICE@RECOVERY.LOCAL')]);
    const b = sharphound('users', [user('S-1-5-21-9-1002', 'BOB@RECOVERY.LOCAL')]);
    const { jobId, fileIds, paths } = await deadJob([
      { name: 'a.json', body: a },
      { name: 'b.json', body: b },
    ]);
    // The dead process had committed a.json (graph and its part record in one transaction), then died before
    // marking the file done.
    await ingestPath(t.infra.graphStore, paths[0]!, {
      displayName: 'a.json',
      beforeCommit: async (tx, result) => {
        await createDatapipeStore(tx).recordPart(fileIds[0]!, result.file, result);
      },
    });
    // A tracer: re-ingesting a.json would overwrite this name with the file's.
    await q(`update graph_nodes set properties = properties || '{"name":"TRACER"}' where objectid = 'S-1-5-21-9-1001'`);

    await t.services.datapipe.drain();

    const job = await store().getJob(jobId);
    expect(job).toMatchObject({ status: JOB_STATUS.complete, totalFiles: 2, failedFiles: 0 });
    expect(job!.instance).toBe(t.services.datapipe.instance);
    expect(await nameOf('S-1-5-21-9-1001')).toBe('TRACER');
    expect(await nameOf('S-1-5-21-9-1002')).toBe('BOB@RECOVERY.LOCAL');
    const files = await store().filesOf(jobId);
    expect(files.map((f) => f.status)).toEqual([JOB_STATUS.complete, JOB_STATUS.complete]);
    expect(files[0]!.result).toEqual([expect.objectContaining({ file: 'a.json', type: 'users', objects: 1 })]);
    // Spooled upload files are removed when the job ends.
    expect(fs.existsSync(path.join(uploads(), String(jobId)))).toBe(false);
    expect((await t.services.datapipe.status()).status).toBe('idle');
  });

  it('fails the files a dead replica kept on its own disk, and the job still ends', async () => {
    const { jobId } = await deadJob([
      { name: 'gone.json' },
      { name: 'here.json', body: sharphound('users', [user('S-1-5-21-9-1003', 'CAROL@RECOVERY.LOCAL')]) },
    ]);
    await t.services.datapipe.drain();
    const job = await store().getJob(jobId);
    expect(job!.status).toBe(JOB_STATUS.partiallyComplete);
    expect(job!.statusMessage).toMatch(/gone\.json: the uploaded file is no longer on disk/);
    expect(await nameOf('S-1-5-21-9-1003')).toBe('CAROL@RECOVERY.LOCAL');
  });

  it('leaves a job alone while its holder’s lease is live', async () => {
    const { jobId } = await deadJob([{ name: 'later.json', body: sharphound('users', [user('S-1-5-21-9-1004', 'DAN@RECOVERY.LOCAL')]) }]);
    await q(`update ingest_jobs set lease_until = now() + interval '1 minute' where id = $1`, [jobId]);
    await q(`update datapipe_state set status = 'idle', worker = null`);
    await t.services.datapipe.drain();
    expect((await store().getJob(jobId))!.status).toBe(6);
    expect(await nameOf('S-1-5-21-9-1004')).toBeUndefined();
    // Its holder dies: the lease runs out and the job is taken over.
    await q(`update ingest_jobs set lease_until = now() - interval '1 second' where id = $1`, [jobId]);
    await t.services.datapipe.drain();
    expect((await store().getJob(jobId))!.status).toBe(JOB_STATUS.complete);
    expect(await nameOf('S-1-5-21-9-1004')).toBe('DAN@RECOVERY.LOCAL');
  });

  it('reruns an analysis whose process died, and finishes the jobs that waited for it', async () => {
    const job = await store().createJob(null, null, DEAD, 60);
    await q(`update ingest_jobs set status = 7, total_files = 0 where id = $1`, [job.id]);
    await q(
      `update datapipe_state set status = 'analyzing', worker = $1, analysis_requested = false,
      heartbeat_at = now() - interval '5 minutes'`,
      [DEAD],
    );
    await t.services.datapipe.drain();
    expect((await store().getJob(job.id))!.status).toBe(JOB_STATUS.complete);
    expect((await t.services.datapipe.status()).status).toBe('idle');
  });

  it('finishes a collection job whose finish was interrupted after its upload job ended', async () => {
    const client = await createClient(t.app, t.adminJwt);
    const task = await t.services.collectionJobs.createTask(client.id, {});
    const upload = await store().createJob(null, client.id, DEAD, 60);
    await q(`update ingest_jobs set status = 2, status_message = '0 files ingested and analyzed', end_time = now() where id = $1`, [
      upload.id,
    ]);
    await q(`update collection_jobs set status = 6, ingest_job_id = $2, status_message = 'collection ended' where id = $1`, [
      task.id,
      upload.id,
    ]);
    await t.services.datapipe.drain();
    const job = await t.services.collectionJobs.get(task.id);
    expect(job.status).toBe(JOB_STATUS.complete);
    expect(job.statusMessage).toMatch(/collection ended; 0 files ingested and analyzed/);
  });

  it('does not take the pipeline from a live holder; `gas ingest`’s lock is refused, or waits with --wait', async () => {
    await q(`update datapipe_state set status = 'ingesting', worker = 'a-live-server', heartbeat_at = now()`);
    await expect(t.services.datapipe.withIngestLock(async () => 1)).rejects.toMatchObject({ status: 409 });
    setTimeout(() => void q(`update datapipe_state set status = 'idle', worker = null`), 300);
    const started = Date.now();
    await expect(t.services.datapipe.withIngestLock(async () => 'ran', { wait: true, pollMs: 50 })).resolves.toBe('ran');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await t.services.datapipe.status()).status).toBe('idle');
  });

  it('removes leftover uploads at start-up and keeps files still waiting for ingest', async () => {
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-cleanup-'));
    const incoming = path.join(uploads(), 'incoming');
    fs.mkdirSync(incoming, { recursive: true });
    fs.writeFileSync(path.join(incoming, 'upload-abandoned'), 'x');
    fs.mkdirSync(path.join(uploads(), '999999'), { recursive: true });
    fs.writeFileSync(path.join(uploads(), '999999', 'orphan'), 'x');
    fs.mkdirSync(path.join(spoolDir, 'gas-spool-old'));
    fs.writeFileSync(path.join(spoolDir, 'gas-spool-old', 'items.jsonl'), '{}\n');
    const pending = path.join(uploads(), '1', 'pending.json');
    fs.mkdirSync(path.dirname(pending), { recursive: true });
    fs.writeFileSync(pending, '{}');
    const removed = await cleanLeftoverUploads({
      uploadsDir: uploads(),
      keep: async () => [pending],
      log: testLog(),
      olderThanMs: -1000,
      spoolDir,
    });
    expect(removed).toBeGreaterThanOrEqual(4);
    expect(fs.existsSync(path.join(incoming, 'upload-abandoned'))).toBe(false);
    expect(fs.existsSync(path.join(uploads(), '999999'))).toBe(false);
    expect(fs.existsSync(path.join(spoolDir, 'gas-spool-old'))).toBe(false);
    expect(fs.existsSync(pending)).toBe(true);
    // Fresh files (another replica may be writing them) are kept.
    fs.writeFileSync(path.join(incoming, 'upload-live'), 'x');
    await cleanLeftoverUploads({ uploadsDir: uploads(), keep: async () => [], log: testLog(), spoolDir });
    expect(fs.existsSync(path.join(incoming, 'upload-live'))).toBe(true);
    fs.rmSync(spoolDir, { recursive: true, force: true });
  });
});
