import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { runAnalysis, type AnalysisResult } from '../analysis/run.js';
import { PERMISSIONS, type Session } from '../auth/session.js';
import type { DatapipeStateModel, DatapipeStore, IngestFileModel, IngestJobModel } from '../db/stores/datapipe-store.js';
import { badRequest, notFound, unsupportedMedia } from '../errors.js';
import type { GraphStore } from '../graph/store.js';
import { ingestPath } from '../ingest/ingest-path.js';
import type { Logger } from '../logger.js';
import { runOutsideScope } from '../scope.js';
import type { GraphIndexHolder } from './graph-index-holder.js';
import { paging } from './paging.js';
import { StagedFile, type UploadValue } from './staged-file.js';

/** BloodHound's job status numbers. */
export const JOB_STATUS = {
  invalid: -1,
  ready: 0,
  running: 1,
  complete: 2,
  canceled: 3,
  timedOut: 4,
  failed: 5,
  ingesting: 6,
  analyzing: 7,
  partiallyComplete: 8,
} as const;

const ACCEPTED_TYPES = /^(application\/(json|zip|x-zip-compressed|zip-compressed|gzip|x-gzip)|text\/plain)\b/i;

export interface DatapipeDeps {
  store: DatapipeStore;
  graph: GraphStore;
  index: GraphIndexHolder;
  uploadsDir: string;
  log: Logger;
  /** How often to look for work other replicas requested; 0 = only when kicked. */
  pollMs: number;
  /** Seeds of the Tier Zero zone's selectors, read before each analysis run (defaults when absent). */
  tierZeroSeeds?: () => Promise<{ type: string; value: string }[]>;
}

/** Called when a job finished ingest and analysis (collector jobs close with it). */
export type JobFinishedListener = (job: IngestJobModel, files: IngestFileModel[]) => Promise<void>;

const CONTEXT = 'file-upload';

/**
 * The data pipeline: upload jobs (start, add files, end), ingest of ended jobs, and analysis runs. Ingest and
 * analysis never overlap, across replicas too: both take the single datapipe_state row as a mutex.
 */
export function createDatapipeService(deps: DatapipeDeps) {
  const { store, log } = deps;
  const instance = crypto.randomUUID();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const finishedListeners: JobFinishedListener[] = [];
  const analysisListeners: (() => Promise<void>)[] = [];

  const owns = (s: Session, job: IngestJobModel) =>
    s.kind === 'client' ? job.clientId === s.clientId : job.userId === s.userId || s.permissions.has(PERMISSIONS.AuthManageUsers);

  async function ownJob(s: Session, id: number): Promise<IngestJobModel> {
    const job = await store.getJob(id);
    if (!job || !owns(s, job)) throw notFound(CONTEXT, `Upload job ${id} was not found.`);
    return job;
  }

  async function withHeartbeat<T>(fn: () => Promise<T>): Promise<T> {
    const beat = setInterval(() => store.heartbeat(instance).catch((err) => log.warn({ err }, 'datapipe heartbeat failed')), 30_000);
    try {
      return await fn();
    } finally {
      clearInterval(beat);
    }
  }

  /** Ingests the job's files that have not been ingested yet, each in its own transaction. */
  async function ingestPendingFiles(job: IngestJobModel): Promise<void> {
    const files = (await store.filesOf(job.id)).filter((f) => f.status === 0);
    for (const f of files) {
      try {
        const r = await ingestPath(deps.graph, f.path, { displayName: f.originalName });
        const ok = r.files.length > 0 && r.errors.length === 0;
        const error = r.errors.length
          ? r.errors.map((e) => e.message).join('; ')
          : r.files.length
            ? null
            : `${f.originalName}: no JSON collection files found`;
        await store.fileDone(f.id, ok ? JOB_STATUS.complete : JOB_STATUS.failed, error, r.files);
      } catch (err) {
        log.error({ err, job: job.id, file: f.originalName }, 'ingest of an uploaded file failed');
        await store.fileDone(f.id, JOB_STATUS.failed, `${f.originalName}: the file could not be ingested`, null);
      } finally {
        fs.rmSync(f.path, { force: true });
      }
    }
  }

  async function ingestJob(job: IngestJobModel): Promise<void> {
    await ingestPendingFiles(job);
    const updated = await store.countFailed(job.id);
    await store.setJobStatus(
      job.id,
      JOB_STATUS.analyzing,
      `ingested ${updated.totalFiles - updated.failedFiles} of ${updated.totalFiles} files; analysis pending`,
    );
    await store.requestAnalysis(`upload job ${job.id}`);
    fs.rmSync(path.join(deps.uploadsDir, String(job.id)), { recursive: true, force: true });
  }

  async function finishJobs(jobs: IngestJobModel[], result: AnalysisResult | undefined): Promise<void> {
    for (const job of jobs) {
      const files = await store.filesOf(job.id);
      const failed = files.filter((f) => f.status === JOB_STATUS.failed);
      const status = !result
        ? JOB_STATUS.failed
        : failed.length === 0
          ? JOB_STATUS.complete
          : failed.length === files.length
            ? JOB_STATUS.failed
            : JOB_STATUS.partiallyComplete;
      const message = !result
        ? 'analysis failed'
        : failed.length
          ? `${files.length - failed.length} of ${files.length} files ingested; failed: ${failed.map((f) => f.error).join('; ')}`
          : `${files.length} files ingested and analyzed`;
      const done = await store.setJobStatus(job.id, status, message.slice(0, 4000), true);
      for (const listener of done ? finishedListeners : []) {
        await listener(done!, files).catch((err) => log.error({ err, job: job.id }, 'a job-finished listener failed'));
      }
    }
  }

  /** One pass: ingest this process's ended jobs, then run analysis if one was requested. */
  async function runOnce(): Promise<void> {
    const work = async () => (await store.claimJob(instance)) ?? (await store.claimStreaming(instance));
    if ((await work()) && (await store.claim(instance, 'ingesting'))) {
      try {
        await withHeartbeat(async () => {
          for (let job = await work(); job; job = await work()) {
            if (job.status === JOB_STATUS.running) {
              await ingestPendingFiles(job);
              continue;
            }
            await store.setJobStatus(job.id, JOB_STATUS.ingesting, 'ingesting');
            await ingestJob(job);
          }
        });
      } finally {
        await store.release(instance);
        deps.index.invalidate();
      }
    }
    if (await store.claim(instance, 'analyzing')) {
      const jobs = await store.jobsInStatus(JOB_STATUS.analyzing);
      let result: AnalysisResult | undefined;
      try {
        result = await withHeartbeat(async () => runAnalysis(deps.graph, { tierZeroSeeds: await deps.tierZeroSeeds?.() }));
        log.info({ ...result }, 'analysis complete');
      } catch (err) {
        log.error({ err }, 'analysis failed');
      } finally {
        await store.release(instance, result ?? undefined);
        deps.index.invalidate();
      }
      if (result) {
        for (const listener of analysisListeners) await listener().catch((err) => log.error({ err }, 'an analysis listener failed'));
      }
      await finishJobs(jobs, result);
      again = true; // a request that arrived during the run is picked up next
    }
  }

  /** Runs the pipeline until there is nothing left; concurrent kicks join the current run. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = runOutsideScope(async () => {
      try {
        do {
          again = false;
          await runOnce();
        } while (again && !stopped);
      } catch (err) {
        log.error({ err }, 'datapipe run failed');
      } finally {
        running = undefined;
      }
    });
    return running;
  }

  return {
    instance,

    /** Registers a listener for jobs that finished ingest and analysis. */
    whenJobFinished(listener: JobFinishedListener): void {
      finishedListeners.push(listener);
    },

    /** Registers a listener for every successful analysis run (zones follow what analysis tagged). */
    whenAnalysisFinished(listener: () => Promise<void>): void {
      analysisListeners.push(listener);
    },

    start(): void {
      if (deps.pollMs > 0) timer = setInterval(() => void kick(), deps.pollMs);
      void kick();
    },

    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running;
    },

    /** Runs all pending work now and resolves when the pipeline is idle (tests, CLI). */
    async drain(): Promise<void> {
      await kick();
      while (running) await running;
    },

    async startUpload(s: Session): Promise<IngestJobModel> {
      return store.createJob(s.kind === 'user' ? s.userId : null, s.kind === 'client' ? s.clientId : null, instance);
    },

    /** Adds a file to a running job: JSON, a zip of JSON files, or either gzip-compressed. */
    async uploadFile(s: Session, jobId: number, file: UploadValue): Promise<IngestFileModel> {
      const job = await ownJob(s, jobId);
      if (job.status !== JOB_STATUS.running) throw badRequest(CONTEXT, `Upload job ${jobId} is not accepting files (it has ended).`);
      if (!ACCEPTED_TYPES.test(file instanceof StagedFile ? file.contentType : file.type)) {
        throw unsupportedMedia(CONTEXT, 'Upload a JSON file (application/json) or a zip archive (application/zip).');
      }
      const dir = path.join(deps.uploadsDir, String(jobId));
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = path.join(dir, crypto.randomUUID());
      let size: number;
      if (file instanceof StagedFile) {
        moveFile(file.path, target);
        size = file.size;
      } else {
        await pipeline(Readable.from(readWebStream(file.stream())), fs.createWriteStream(target));
        size = file.size;
      }
      if (size === 0) {
        fs.rmSync(target, { force: true });
        throw badRequest(CONTEXT, 'The uploaded file is empty.');
      }
      const added = await store.addFile(jobId, {
        path: target,
        originalName: file.name || `upload-${Date.now()}.json`,
        contentType: file instanceof StagedFile ? file.contentType : file.type,
        sizeBytes: size,
      });
      // Collectors stream batches while they run: ingest them now rather than piling them up until the end.
      if (s.kind === 'client') void kick();
      return added;
    },

    /** Ends a running job that received no files: nothing to ingest or analyse. */
    async discardUpload(s: Session, jobId: number, message: string): Promise<IngestJobModel> {
      const job = await ownJob(s, jobId);
      if (job.status !== JOB_STATUS.running) throw badRequest(CONTEXT, `Upload job ${jobId} has already ended.`);
      fs.rmSync(path.join(deps.uploadsDir, String(jobId)), { recursive: true, force: true });
      return (await store.setJobStatus(jobId, JOB_STATUS.canceled, message, true))!;
    },

    /** Ends a job: its files are ingested, then analysis runs. */
    async endUpload(s: Session, jobId: number): Promise<IngestJobModel> {
      const job = await ownJob(s, jobId);
      if (job.status !== JOB_STATUS.running) throw badRequest(CONTEXT, `Upload job ${jobId} has already ended.`);
      const ended = (await store.setJobStatus(
        jobId,
        JOB_STATUS.ingesting,
        job.totalFiles ? 'queued for ingest' : 'no files were uploaded',
      ))!;
      void kick();
      return ended;
    },

    async listJobs(s: Session, input: { skip?: number | null; limit?: number | null }) {
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const filter =
        s.kind === 'client' ? { clientId: s.clientId } : s.permissions.has(PERMISSIONS.AuthManageUsers) ? {} : { userId: s.userId };
      const { total, jobs } = await store.listJobs(filter, page.skip, page.limit);
      return { totalCount: total, skip: page.skip, limit: page.limit, jobs };
    },

    job: ownJob,

    /** Files of any job, without an ownership check (services that already checked it). */
    filesOfJob: (jobId: number): Promise<IngestFileModel[]> => store.filesOf(jobId),

    async files(s: Session, jobId: number): Promise<IngestFileModel[]> {
      await ownJob(s, jobId);
      return store.filesOf(jobId);
    },

    /** PUT /api/v2/analysis: at most one run is pending at a time; a request during a run queues one more. */
    async requestAnalysis(s: Session): Promise<boolean> {
      await store.requestAnalysis(s.kind === 'user' ? s.principalName : `client ${s.clientName}`);
      void kick();
      return true;
    },

    status: (): Promise<DatapipeStateModel> => store.state(),

    /** Requests analysis and runs it in this process (command line); returns the run's result. */
    async analyzeNow(by: string): Promise<unknown> {
      await store.requestAnalysis(by);
      await this.drain();
      return (await store.state()).lastAnalysisResult;
    },
  };
}

/** Chunks of a web ReadableStream through its reader (works for Node's streams and fetch ponyfills alike). */
async function* readWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Moves a spooled upload into the job's folder (copies when the spool is on another file system). */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}

export type DatapipeService = ReturnType<typeof createDatapipeService>;
