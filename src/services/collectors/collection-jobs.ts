import type { ClientSession } from '../../auth/session.js';
import type { ClientsStore } from '../../db/stores/collectors/clients-store.js';
import type { IngestFileModel, IngestJobModel } from '../../db/stores/datapipe/datapipe-store.js';
import type { DomainResultInput, JobModel, JobsStore } from '../../db/stores/collectors/jobs-store.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { FileResult } from '../../ingest/ingest-stream.js';
import type { Logger } from '../../logger.js';
import { clientNotFound } from './clients.js';
import type { DatapipeService } from '../datapipe/datapipe.js';
import { END_JOB_STATUS, JOB_STATUS, type EndJobStatusValue } from '../common/job-status.js';
import { readFlags, readObjectIds } from './events.js';
import { paging } from '../common/paging.js';
import type { UploadValue } from '../datapipe/staged-file.js';
import { requireUuid } from '../common/validate.js';

const CONTEXT = 'jobs';
/** Why a canceled job's upload job ended, in its status and its dropped files' errors. */
const CANCELED = 'the collection job was canceled';

/** AzureHound's spellings of the end statuses (upper case, without separators); CANCELLED as well. */
const END_SPELLINGS: Record<string, EndJobStatusValue> = {
  ...Object.fromEntries(Object.entries(END_JOB_STATUS).map(([k, v]) => [k.toUpperCase(), v])),
  CANCELLED: END_JOB_STATUS.canceled,
};

/**
 * Collected object counts per SharpHound file type → the domain result column that carries them. Deleted objects
 * carry no domain, so deleted_count stays 0.
 */
const COUNT_OF: Record<string, keyof DomainResultInput> = {
  users: 'userCount',
  groups: 'groupCount',
  computers: 'computerCount',
  gpos: 'gpoCount',
  ous: 'ouCount',
  containers: 'containerCount',
  aiacas: 'aiacaCount',
  rootcas: 'rootcaCount',
  enterprisecas: 'enterprisecaCount',
  ntauthstores: 'ntauthstoreCount',
  certtemplates: 'certtemplateCount',
};

export interface CollectionJobsDeps {
  jobs: JobsStore;
  clients: ClientsStore;
  datapipe: DatapipeService;
  clock: () => Date;
  log: Logger;
}

const jobNotFound = () => notFound(CONTEXT, 'The requested job could not be found.');
const noRunningJob = () => notFound(CONTEXT, 'No job is running for this client.');

/**
 * The collector side of jobs (available → start → ingest… → end, errors) and the admin side (ad-hoc tasks, job
 * details). A running job's data goes through an upload job of the data pipeline; when that finishes ingest and
 * analysis, the job takes its final status and per-domain results.
 */
export function createCollectionJobsService(deps: CollectionJobsDeps) {
  const { jobs, datapipe, clock } = deps;

  async function running(s: ClientSession): Promise<JobModel> {
    const job = await jobs.running(s.clientId);
    if (!job) throw noRunningJob();
    return job;
  }

  /** Domain results from what the job's files contributed; recomputed whole each time (an idempotent upsert). */
  async function refreshResults(jobId: number, files: readonly IngestFileModel[]): Promise<void> {
    const perDomain = new Map<string, DomainResultInput>();
    for (const file of files) {
      for (const r of (file.result as FileResult[] | null) ?? []) {
        for (const [domain, counts] of Object.entries(r.perDomain ?? {})) {
          const row = perDomain.get(domain) ?? emptyResult(domain);
          for (const [type, n] of Object.entries(counts)) {
            const column = COUNT_OF[type];
            if (column) (row[column] as number) += n;
          }
          perDomain.set(domain, row);
        }
      }
    }
    await jobs.upsertDomainResults(jobId, [...perDomain.values()]);
  }

  async function filesOf(job: JobModel): Promise<IngestFileModel[]> {
    return job.ingestJobId ? datapipe.filesOfJob(job.ingestJobId) : [];
  }

  /** The data pipeline finished a collector's upload job: the collection job takes its final status. */
  async function finished(ingestJob: IngestJobModel, files: IngestFileModel[]): Promise<void> {
    const job = await jobs.byIngestJob(ingestJob.id);
    if (!job) return;
    const reported = job.reportedStatus ?? JOB_STATUS.complete;
    const reportedErrors = (await jobs.errors([job.id])).length > 0;
    const status =
      reported !== JOB_STATUS.complete
        ? reported
        : ingestJob.status === JOB_STATUS.complete && reportedErrors
          ? JOB_STATUS.partiallyComplete
          : ingestJob.status;
    await refreshResults(job.id, files);
    await jobs.setStatus(job.id, status, `${job.statusMessage}; ${ingestJob.statusMessage}`.slice(0, 4000));
  }

  /**
   * A finish that was interrupted (the process died, or the database went away between the upload job ending and
   * this job taking its status) is redone after the next pipeline run, so no job stays "ingesting" for good.
   */
  async function repairStranded(): Promise<void> {
    for (const job of await jobs.stranded()) {
      const upload = await datapipe.ingestJob(job.ingestJobId!);
      if (upload) await finished(upload, await datapipe.filesOfJob(upload.id));
    }
    for (const job of await jobs.canceledWithOpenUpload()) await datapipe.cancelUpload(job.ingestJobId!, CANCELED);
  }

  return {
    /** The data pipeline's `onJobFinished`: the collection job of a finished upload job takes its final status. */
    jobFinished: finished,
    /** The data pipeline's `onRunEnd`: redoes finishes that were interrupted. */
    repairStranded,

    /** GET /api/v2/jobs/available: the client's ready jobs, earliest first. */
    available: (s: ClientSession) => jobs.available(s.clientId),

    /** GET /api/v2/jobs/current: the running job, or 404 (collectors treat both as a check-in). */
    current: running,

    /** POST /api/v2/jobs/start {id}: ready → running; one job at a time per client. */
    async start(s: ClientSession, id: unknown): Promise<JobModel> {
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
        throw badRequest(CONTEXT, 'id must be a job id (a positive integer).');
      const job = await jobs.get(id);
      if (!job || job.clientId !== s.clientId) throw jobNotFound();
      const current = await jobs.running(s.clientId);
      if (current) throw conflict(CONTEXT, `Job ${current.id} is still running; end it before starting another.`);
      if (job.status !== JOB_STATUS.ready) throw badRequest(CONTEXT, `Job ${id} is not ready to start (status ${job.status}).`);
      const upload = await datapipe.startUpload(s);
      const started = await jobs.start(id, s.clientId, clock(), upload.id).catch(async (err) => {
        await datapipe.discardUpload(s, upload.id, 'the job could not be started');
        throw err;
      });
      if (!started) {
        await datapipe.discardUpload(s, upload.id, 'the job could not be started');
        throw conflict(CONTEXT, `Job ${id} was started by another request.`);
      }
      return (await jobs.get(id))!;
    },

    /** POST /api/v2/ingest: one batch of collected data for the running job (202; ingested as it arrives). */
    async ingest(s: ClientSession, file: UploadValue): Promise<JobModel> {
      const job = await running(s);
      await datapipe.uploadFile(s, job.ingestJobId!, file);
      await jobs.touchIngest(job.id, clock());
      return job;
    },

    /**
     * Endpoint 10. No body means COMPLETE. With data, the job is `ingesting` until the pipeline is done with it
     * (then complete, partially complete or failed); without data it ends at once with the reported status.
     */
    async end(s: ClientSession, input: { status?: EndJobStatusValue | null; message?: unknown }): Promise<JobModel> {
      const job = await running(s);
      const reported = input.status ?? END_JOB_STATUS.complete;
      if (input.message !== undefined && input.message !== null && (typeof input.message !== 'string' || input.message.length > 2000)) {
        throw badRequest(CONTEXT, 'message must be a string of at most 2000 characters.');
      }
      const message = typeof input.message === 'string' && input.message.trim() ? input.message.trim() : '';
      const upload = await datapipe.job(s, job.ingestJobId!);
      let ended: JobModel;
      if (upload.totalFiles > 0) {
        await jobs.end(job.id, JOB_STATUS.ingesting, reported, message || 'collection ended; ingesting its data', clock());
        // Read before the hand-over: once the upload is ended the pipeline may move the job on (to analyzing) at
        // any moment, and the answer is what this call did, not how far the pipeline got in the meantime.
        ended = (await jobs.get(job.id))!;
        await datapipe.endUpload(s, upload.id);
      } else {
        await datapipe.discardUpload(s, upload.id, 'the collector sent no data');
        const errors = (await jobs.errors([job.id])).length > 0;
        const status = reported === JOB_STATUS.complete && errors ? JOB_STATUS.partiallyComplete : reported;
        await jobs.end(job.id, status, reported, message || 'collection ended without data', clock());
        ended = (await jobs.get(job.id))!;
      }
      await refreshResults(job.id, await filesOf(ended));
      return ended;
    },

    /** Endpoint 13: kept against the running job (if any) and added to its status message. */
    async logError(
      s: ClientSession,
      input: { taskError?: unknown; additional?: readonly { name: string; value: string }[] | null },
    ): Promise<void> {
      if (typeof input.taskError !== 'string' || !input.taskError.trim()) throw badRequest('clients', 'task_error is required.');
      if (input.taskError.length > 4000) throw badRequest('clients', 'task_error is longer than 4000 characters.');
      const details = input.additional ?? [];
      if (details.length > 100) throw badRequest('clients', `additional holds ${details.length} details; at most 100 are accepted.`);
      // No prototype: a detail named __proto__ is kept as a detail.
      const additional: Record<string, string> = Object.create(null);
      for (const { name, value } of details) {
        if (!name || name.length > 200) throw badRequest('clients', 'additional names must be 1 to 200 characters.');
        if (Object.hasOwn(additional, name)) throw badRequest('clients', `additional names ${name} twice.`);
        additional[name] = value;
      }
      const job = await jobs.running(s.clientId);
      await jobs.addError(s.clientId, job?.id ?? null, input.taskError.trim(), additional);
      if (job) await jobs.appendMessage(job.id, `error: ${input.taskError.trim()}`);
    },

    /** An ad-hoc collection task for a client, ready now. */
    async createTask(clientId: string, input: Record<string, unknown>): Promise<JobModel> {
      const client = await deps.clients.get(requireUuid('clients', 'client_id', clientId));
      if (!client) throw clientNotFound();
      const id = await jobs.create({
        clientId: client.id,
        eventId: null,
        eventTitle: 'ad-hoc collection',
        executionTime: clock(),
        ...readFlags('clients', input),
        domainController: client.domainController,
        ous: readObjectIds('clients', 'ous', input.ous),
        domains: readObjectIds('clients', 'domains', input.domains),
      });
      return (await jobs.get(id!))!;
    },

    /**
     * Cancels a job that has not finished (BloodHound's status 3, canceled); 409 for a finished one. A running job's
     * upload job ends with it: what was ingested stays, queued batches are dropped (datapipe.cancelUpload).
     */
    async cancel(id: number): Promise<JobModel> {
      if (!(await jobs.cancel(id, clock()))) {
        const job = await jobs.get(id);
        if (!job) throw jobNotFound();
        throw conflict(CONTEXT, 'The job has finished and cannot be canceled.');
      }
      const job = (await jobs.get(id))!;
      if (job.ingestJobId) await datapipe.cancelUpload(job.ingestJobId, CANCELED);
      return job;
    },

    async get(id: number): Promise<JobModel> {
      const job = await jobs.get(id);
      if (!job) throw jobNotFound();
      return job;
    },

    async forClient(clientId: string, input: { skip?: number | null; limit?: number | null }) {
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const { total, jobs: list } = await jobs.forClient(requireUuid('clients', 'client_id', clientId), page.skip, page.limit);
      return { totalCount: total, skip: page.skip, limit: page.limit, jobs: list };
    },

    runningOf: (clientIds: readonly string[]) => jobs.runningOf(clientIds),
    domainResults: (jobIds: readonly number[]) => jobs.domainResults(jobIds),
    errors: (jobIds: readonly number[]) => jobs.errors(jobIds),
  };
}

/**
 * The status a collector ends its job with, as REST takes it: a name as AzureHound spells it (any case, with or
 * without separators) or a number; none means COMPLETE. GraphQL takes the EndJobStatus enum instead.
 */
export function endStatus(v: unknown): EndJobStatusValue {
  if (v === undefined || v === null || v === '') return END_JOB_STATUS.complete;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  const byNumber = Object.values(END_JOB_STATUS).find((s) => s === n);
  const byName = typeof v === 'string' ? END_SPELLINGS[v.toUpperCase().replace(/[\s_-]/g, '')] : undefined;
  const status = byNumber ?? byName;
  if (status === undefined) throw badRequest(CONTEXT, 'invalid status: use COMPLETE, CANCELED, TIMEDOUT, FAILED or PARTIALLYCOMPLETE.');
  return status;
}

function emptyResult(domain: string): DomainResultInput {
  return {
    domainName: domain,
    success: true,
    message: '',
    userCount: 0,
    groupCount: 0,
    computerCount: 0,
    gpoCount: 0,
    ouCount: 0,
    containerCount: 0,
    aiacaCount: 0,
    rootcaCount: 0,
    enterprisecaCount: 0,
    ntauthstoreCount: 0,
    certtemplateCount: 0,
    deletedCount: 0,
  };
}

export type CollectionJobsService = ReturnType<typeof createCollectionJobsService>;
