import type { Queryable } from '../../pool.js';

export interface IngestJobModel {
  id: number;
  userId: string | null;
  clientId: string | null;
  status: number;
  statusMessage: string;
  startTime: Date;
  endTime: Date | null;
  lastIngest: Date | null;
  totalFiles: number;
  failedFiles: number;
  instance: string;
  /** Until when `instance` holds the job; past it, any live replica may take the job over. */
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IngestFileModel {
  id: number;
  jobId: number;
  path: string;
  originalName: string;
  contentType: string;
  sizeBytes: number;
  status: number;
  error: string | null;
  result: unknown;
  createdAt: Date;
}

export interface DatapipeStateModel {
  status: 'idle' | 'ingesting' | 'analyzing';
  analysisRequested: boolean;
  requestedBy: string | null;
  requestedAt: Date | null;
  lastAnalysisRunAt: Date | null;
  lastCompleteAnalysisAt: Date | null;
  lastAnalysisResult: unknown;
  updatedAt: Date;
}

const JOB = /* SQL */ `id, user_id as "userId", client_id as "clientId", status, status_message as "statusMessage",
  start_time as "startTime", end_time as "endTime", last_ingest as "lastIngest", total_files as "totalFiles",
  failed_files as "failedFiles", instance, lease_until as "leaseUntil", created_at as "createdAt", updated_at as "updatedAt"`;
const FILE = /* SQL */ `id, job_id as "jobId", path, original_name as "originalName", content_type as "contentType",
  size_bytes as "sizeBytes", status, error, result, created_at as "createdAt"`;
const STATE = /* SQL */ `status, analysis_requested as "analysisRequested", requested_by as "requestedBy",
  requested_at as "requestedAt", last_analysis_run_at as "lastAnalysisRunAt",
  last_complete_analysis_at as "lastCompleteAnalysisAt", last_analysis_result as "lastAnalysisResult", updated_at as "updatedAt"`;

const SQL = {
  createJob: /* SQL */ `-- datapipe.createJob
insert into ingest_jobs (user_id, client_id, instance, lease_until) values ($1, $2, $3, now() + make_interval(secs => $4))
returning ${JOB}`,
  getJob: /* SQL */ `-- datapipe.getJob
select ${JOB} from ingest_jobs where id = $1`,
  listJobs: /* SQL */ `-- datapipe.listJobs
select ${JOB}, count(*) over ()::int as total from ingest_jobs
where ($1::uuid is null or user_id = $1) and ($2::uuid is null or client_id = $2)
order by id desc offset $3 limit $4`,
  addFile: /* SQL */ `-- datapipe.addFile
with f as (insert into ingest_files (job_id, path, original_name, content_type, size_bytes) values ($1, $2, $3, $4, $5) returning ${FILE})
, j as (update ingest_jobs set total_files = total_files + 1, last_ingest = now(), updated_at = now() where id = $1)
select * from f`,
  filesOf: /* SQL */ `-- datapipe.filesOf
select ${FILE} from ingest_files where job_id = $1 order by id`,
  setJobStatus: /* SQL */ `-- datapipe.setJobStatus
update ingest_jobs set status = $2, status_message = $3, end_time = case when $4 then now() else end_time end, updated_at = now()
where id = $1 returning ${JOB}`,
  // Jobs this process may ingest a file of now: ended ones (6) and collector jobs streaming files (1), with whom
  // they belong to (the fair choice between callers is the scheduler's).
  claimable: /* SQL */ `-- datapipe.claimable
select j.id, coalesce('user:' || j.user_id::text, 'client:' || j.client_id::text, 'job:' || j.id::text) as caller
from ingest_jobs j where (instance = $1 or lease_until is null or lease_until < now())
  and (status = 6 or (status = 1 and client_id is not null
    and exists (select 1 from ingest_files f where f.job_id = j.id and f.status = 0)))
order by id`,
  claimJobById: /* SQL */ `-- datapipe.claimJobById
update ingest_jobs set instance = $1, lease_until = now() + make_interval(secs => $2), updated_at = now()
where id = (select id from ingest_jobs where id = $3 and status in (1, 6)
  and (instance = $1 or lease_until is null or lease_until < now()) for update skip locked)
returning ${JOB}`,
  // A job whose ingest is done moves to "analyzing", unless it was canceled meanwhile.
  ingested: /* SQL */ `-- datapipe.ingested
update ingest_jobs set status = 7, status_message = $2, updated_at = now() where id = $1 and status = 6 returning ${JOB}`,
  jobStatus: /* SQL */ `-- datapipe.jobStatus
select status from ingest_jobs where id = $1`,
  hasWork: /* SQL */ `-- datapipe.hasWork
select exists (select 1 from ingest_jobs j where (instance = $1 or lease_until is null or lease_until < now())
  and (status = 6 or (status = 1 and client_id is not null
    and exists (select 1 from ingest_files f where f.job_id = j.id and f.status = 0)))) as work`,
  renewLeases: /* SQL */ `-- datapipe.renewLeases
update ingest_jobs set lease_until = now() + make_interval(secs => $2) where instance = $1 and status in (1, 6)`,
  recordPart: /* SQL */ `-- datapipe.recordPart
insert into ingest_file_parts (file_id, part, result) values ($1, $2, $3) on conflict do nothing returning file_id`,
  partsOf: /* SQL */ `-- datapipe.partsOf
select result from ingest_file_parts where file_id = $1 order by created_at, part`,
  pendingPaths: /* SQL */ `-- datapipe.pendingPaths
select f.path from ingest_files f join ingest_jobs j on j.id = f.job_id where f.status = 0 and j.status in (1, 6)`,
  // Ends a job that is still receiving or ingesting files at once (canceled) and drops its files still queued, in
  // one statement: nothing is dropped unless the job was running or ingesting. Files already ingested keep theirs.
  cancelRunning: /* SQL */ `-- datapipe.cancelRunning
with ended as (
  update ingest_jobs set status = 3, status_message = $2, end_time = now(), updated_at = now()
  where id = $1 and status in (1, 6) returning id
), dropped as (
  update ingest_files f set status = 5, error = f.original_name || ': ' || $3, updated_at = now()
  from ended where f.job_id = ended.id and f.status = 0 returning f.path
)
select coalesce((select array_agg(path) from dropped), '{}') as paths from ended`,
  isPending: /* SQL */ `-- datapipe.isPending
select status = 0 as pending from ingest_files where id = $1`,
  fileDone: /* SQL */ `-- datapipe.fileDone
update ingest_files set status = $2, error = $3, result = $4, updated_at = now() where id = $1`,
  countFailed: /* SQL */ `-- datapipe.countFailed
update ingest_jobs j set failed_files = (select count(*) from ingest_files f where f.job_id = j.id and f.status = 5), updated_at = now()
where id = $1 returning ${JOB}`,
  jobsInStatus: /* SQL */ `-- datapipe.jobsInStatus
select ${JOB} from ingest_jobs where status = $1`,
  state: /* SQL */ `-- datapipe.state
select ${STATE} from datapipe_state where id = 1`,
  requestAnalysis: /* SQL */ `-- datapipe.requestAnalysis
update datapipe_state set analysis_requested = true, requested_by = $1, requested_at = now(), updated_at = now() where id = 1`,
  // The pipeline is free when idle, already ours, or when its holder stopped beating for a lease (it died).
  // Analysis runs when requested, when a run died part-way, or when jobs wait in "analyzing" with no run pending.
  claim: /* SQL */ `-- datapipe.claim
update datapipe_state set status = $2, worker = $1, heartbeat_at = now(), updated_at = now(),
  analysis_requested = case when $2 = 'analyzing' then false else analysis_requested end,
  last_analysis_run_at = case when $2 = 'analyzing' then now() else last_analysis_run_at end
where id = 1 and (status = 'idle' or worker = $1 or heartbeat_at is null or heartbeat_at < now() - make_interval(secs => $3))
  and ($2 <> 'analyzing' or analysis_requested or status = 'analyzing'
    or exists (select 1 from ingest_jobs where status = 7))
returning ${STATE}`,
  heartbeat: /* SQL */ `-- datapipe.heartbeat
update datapipe_state set heartbeat_at = now() where id = 1 and worker = $1`,
  release: /* SQL */ `-- datapipe.release
update datapipe_state set status = 'idle', worker = null, updated_at = now(),
  last_complete_analysis_at = case when $2::jsonb is not null then now() else last_complete_analysis_at end,
  last_analysis_result = coalesce($2::jsonb, last_analysis_result)
where id = 1 and worker = $1`,
};

export function createDatapipeStore(db: Queryable) {
  return {
    async createJob(userId: string | null, clientId: string | null, instance: string, leaseS: number): Promise<IngestJobModel> {
      return (await db.query<IngestJobModel>(SQL.createJob, [userId, clientId, instance, leaseS]))[0]!;
    },
    async getJob(id: number): Promise<IngestJobModel | undefined> {
      return (await db.query<IngestJobModel>(SQL.getJob, [id]))[0];
    },
    async listJobs(
      filter: { userId?: string | null; clientId?: string | null },
      skip: number,
      limit: number,
    ): Promise<{ total: number; jobs: IngestJobModel[] }> {
      const rows = await db.query<IngestJobModel & { total: number }>(SQL.listJobs, [
        filter.userId ?? null,
        filter.clientId ?? null,
        skip,
        limit,
      ]);
      return { total: rows[0]?.total ?? 0, jobs: rows.map(({ total: _t, ...j }) => j) };
    },
    async addFile(
      jobId: number,
      f: { path: string; originalName: string; contentType: string; sizeBytes: number },
    ): Promise<IngestFileModel> {
      return (await db.query<IngestFileModel>(SQL.addFile, [jobId, f.path, f.originalName, f.contentType, f.sizeBytes]))[0]!;
    },
    filesOf: (jobId: number) => db.query<IngestFileModel>(SQL.filesOf, [jobId]),
    async setJobStatus(id: number, status: number, message: string, ended = false): Promise<IngestJobModel | undefined> {
      return (await db.query<IngestJobModel>(SQL.setJobStatus, [id, status, message, ended]))[0];
    },
    /** Jobs with files this process may ingest now, oldest first, with their caller (`user:…`, `client:…`). */
    claimable: (instance: string) => db.query<{ id: number; caller: string }>(SQL.claimable, [instance]),
    /** Takes one of those jobs with a fresh lease; undefined when another replica has it or it ended. */
    async claimJobById(instance: string, leaseS: number, id: number): Promise<IngestJobModel | undefined> {
      return (await db.query<IngestJobModel>(SQL.claimJobById, [instance, leaseS, id]))[0];
    },
    /** Moves an ended job whose files are all done to "analyzing"; undefined when it was canceled meanwhile. */
    async ingested(id: number, message: string): Promise<IngestJobModel | undefined> {
      return (await db.query<IngestJobModel>(SQL.ingested, [id, message]))[0];
    },
    async jobStatus(id: number): Promise<number | undefined> {
      return (await db.query<{ status: number }>(SQL.jobStatus, [id]))[0]?.status;
    },
    /** Whether a job waits that this process may take (its own, or one whose holder's lease ran out). */
    async hasWork(instance: string): Promise<boolean> {
      return (await db.query<{ work: boolean }>(SQL.hasWork, [instance]))[0]!.work;
    },
    /** Extends this process's hold on the jobs it works on (the heartbeat); returns how many it holds. */
    renewLeases: (instance: string, leaseS: number) => db.execute(SQL.renewLeases, [instance, leaseS]),
    /** Records a committed part of a file; false when it was already recorded (committed by an earlier attempt). */
    async recordPart(fileId: number, part: string, result: unknown): Promise<boolean> {
      return (await db.query(SQL.recordPart, [fileId, part, JSON.stringify(result)])).length > 0;
    },
    async partsOf(fileId: number): Promise<unknown[]> {
      return (await db.query<{ result: unknown }>(SQL.partsOf, [fileId])).map((r) => r.result);
    },
    /** Paths of uploaded files still waiting for ingest (start-up cleanup keeps these). */
    async pendingPaths(): Promise<string[]> {
      return (await db.query<{ path: string }>(SQL.pendingPaths)).map((r) => r.path);
    },
    /** Ends a running or ingesting job and drops its queued files (see the SQL); their paths, or null if it had ended. */
    async cancelRunning(jobId: number, message: string, fileError: string): Promise<string[] | null> {
      return (await db.query<{ paths: string[] }>(SQL.cancelRunning, [jobId, message, fileError]))[0]?.paths ?? null;
    },
    /** Whether a file still waits for ingest (a canceled job's queued files do not). */
    async isPending(fileId: number): Promise<boolean> {
      return (await db.query<{ pending: boolean }>(SQL.isPending, [fileId]))[0]?.pending ?? false;
    },
    async fileDone(id: number, status: number, error: string | null, result: unknown): Promise<void> {
      await db.execute(SQL.fileDone, [id, status, error, result === null ? null : JSON.stringify(result)]);
    },
    async countFailed(jobId: number): Promise<IngestJobModel> {
      return (await db.query<IngestJobModel>(SQL.countFailed, [jobId]))[0]!;
    },
    jobsInStatus: (status: number) => db.query<IngestJobModel>(SQL.jobsInStatus, [status]),
    async state(): Promise<DatapipeStateModel> {
      return (await db.query<DatapipeStateModel>(SQL.state))[0]!;
    },
    async requestAnalysis(by: string): Promise<void> {
      await db.execute(SQL.requestAnalysis, [by]);
    },
    async claim(worker: string, status: 'ingesting' | 'analyzing', leaseS: number): Promise<boolean> {
      return (await db.query(SQL.claim, [worker, status, leaseS])).length > 0;
    },
    async heartbeat(worker: string): Promise<void> {
      await db.execute(SQL.heartbeat, [worker]);
    },
    async release(worker: string, analysisResult?: unknown): Promise<void> {
      await db.execute(SQL.release, [worker, analysisResult === undefined ? null : JSON.stringify(analysisResult)]);
    },
  };
}

export type DatapipeStore = ReturnType<typeof createDatapipeStore>;
