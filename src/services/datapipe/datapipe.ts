import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runAnalysis, type AnalysisProgress, type AnalysisResult } from '../../analysis/run.js';
import { PERMISSIONS, type Session } from '../../auth/session.js';
import {
  type DatapipeStateModel,
  type DatapipeStore,
  type IngestFileModel,
  type IngestJobModel,
} from '../../db/stores/datapipe/datapipe-store.js';
import { asAppError, badRequest, conflict, notFound, unsupportedMedia } from '../../errors.js';
import type { GraphStore } from '../../graph/store.js';
import type { Logger } from '../../logger.js';
import { runOutsideScope } from '../../scope.js';
import { ingestPath, type PathOptions, type PathResult } from '../../ingest/ingest-path.js';
import type { IngestLimits } from '../../ingest/ingest-types.js';
import { createIngestTurns } from './ingest-turns.js';
import type { GraphIndexHolder } from '../graph/graph-index-holder.js';
import { createFileIngester, isDatabaseAway } from './datapipe-files.js';
import { PipelineThreadStopped, type AnalysisRequest, type PipelineThread } from './upload-ingest.js';
import { paging } from '../common/paging.js';
import { saveUpload, StagedFile, type UploadValue } from './staged-file.js';
import { cleanLeftoverUploads } from './upload-cleanup.js';
import { JOB_STATUS } from '../common/job-status.js';

/** The upload content types we take (BloodHound's /file-upload/accepted-types answers this list). */
export const ACCEPTED_UPLOAD_TYPES = [
  'application/json',
  'application/zip',
  'application/x-zip-compressed',
  'application/zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'text/plain',
] as const;
const ACCEPTED_TYPES = new RegExp(`^(${ACCEPTED_UPLOAD_TYPES.map((t) => t.replace(/[/+.-]/g, '\\$&')).join('|')})\\b`, 'i');

export interface DatapipeDeps {
  store: DatapipeStore;
  graph: GraphStore;
  index: GraphIndexHolder;
  uploadsDir: string;
  log: Logger;
  /** How often to look for work other replicas requested; 0 = only when kicked. */
  pollMs: number;
  /**
   * How long a process holds a job (and the pipeline mutex) without renewing it; it renews every quarter of this.
   * A job whose process died is taken over by a live replica at most this long (plus one poll) later.
   * @default 60000
   */
  leaseMs?: number;
  /** Seeds of the Tier Zero zone's selectors, read before each analysis run (defaults when absent). */
  tierZeroSeeds?: () => Promise<{ type: string; value: string }[]>;
  /** Most heap an analysis run may take, in bytes (the rest of this process's heap when absent). */
  analysisHeapBytes?: number;
  /** The analysis.citrix_rdp_support parameter, read before each analysis run (off when absent). */
  citrixRdpSupport?: () => Promise<boolean>;
  /** Runs after every successful analysis (zones follow what analysis tagged); a failure is logged, not fatal. */
  afterAnalysis?: () => Promise<void>;
  /** Called for each upload job that finished ingest and analysis (collection jobs close with it); a failure is logged. */
  onJobFinished?: JobFinishedListener;
  /** Runs after every pipeline run that ended without error (repairs, sweeps); a failure is logged. */
  onRunEnd?: () => Promise<void>;
  /**
   * Longest a job whose files are done waits for analysis while other jobs still ingest (then analysis runs between
   * two files). @default 30000
   */
  analysisMaxDelayMs?: number;
  /** Size bounds of uploaded files and archives (ARCHIVE_MAX_*); DEFAULT_LIMITS where absent. */
  limits?: Partial<IngestLimits>;
  /** Where uploaded files are ingested and analysis runs; this thread when absent (the command line, tests). */
  thread?: PipelineThread;
}

/** Back-off after a failed pipeline run: 1 s, 2 s, 4 s … at most 30 s. */
const backoffMs = (failures: number) => Math.min(1000 * 2 ** Math.max(failures - 1, 0), 30_000);

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
  const leaseMs = deps.leaseMs ?? 60_000;
  const leaseS = leaseMs / 1000;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let beatTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failures = 0;
  let pausedUntil = 0;

  const owns = (s: Session, job: IngestJobModel) =>
    s.kind === 'client' ? job.clientId === s.clientId : job.userId === s.userId || s.permissions.has(PERMISSIONS.AuthManageUsers);

  async function ownJob(s: Session, id: number): Promise<IngestJobModel> {
    const job = await store.getJob(id);
    if (!job || !owns(s, job)) throw notFound(CONTEXT, `Upload job ${id} was not found.`);
    return job;
  }

  /** Renews the pipeline mutex and this process's job leases; a failed beat is retried at the next one. */
  async function beat(): Promise<void> {
    await Promise.all([store.heartbeat(instance), store.renewLeases(instance, leaseS)]).catch((err) =>
      log.warn({ err: { message: (err as Error).message } }, 'datapipe heartbeat failed'),
    );
  }

  async function withHeartbeat<T>(fn: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => void beat(), leaseMs / 4);
    try {
      return await fn();
    } finally {
      clearInterval(timer);
    }
  }

  const ingestFile = createFileIngester({ store, graph: deps.graph, log, limits: deps.limits, thread: deps.thread });

  /** One analysis run, on the pipeline's thread when there is one. */
  const analyze = (req: AnalysisRequest) =>
    deps.thread ? deps.thread.analyze(req, analysisProgress) : runAnalysis(deps.graph, { ...req, onProgress: analysisProgress });
  /** Told how the analysis runs of this process go, while a caller of analyzeNow waits for one (the CLI's bar). */
  let analysisProgress: ((p: AnalysisProgress) => void) | undefined;

  /** An ended job whose files are all ingested (or failed): on to analysis, unless it was canceled meanwhile. */
  async function finishJob(job: IngestJobModel): Promise<void> {
    const updated = await store.countFailed(job.id);
    const message = `ingested ${updated.totalFiles - updated.failedFiles} of ${updated.totalFiles} files; analysis pending`;
    if (!(await store.ingested(job.id, message))) return;
    analysisWaitsSince ??= Date.now();
    await store.requestAnalysis(`upload job ${job.id}`);
    fs.rmSync(path.join(deps.uploadsDir, String(job.id)), { recursive: true, force: true });
  }

  /**
   * Since when a job whose files are done has waited for analysis (this process's). Analysis runs once the ingest
   * queue is empty, or once one has waited `analysisMaxDelayMs` (another caller's big job does not hold a small job's
   * completion either); ingest goes on after it.
   */
  let analysisWaitsSince: number | undefined;
  const analysisDue = () => analysisWaitsSince !== undefined && Date.now() - analysisWaitsSince >= (deps.analysisMaxDelayMs ?? 30_000);

  // One file at a time, callers taking turns (ingest-turns.ts).
  const turns = createIngestTurns({ store, instance, leaseS, ingestFile, finishJob });

  /** Ends a job that is receiving or ingesting files: its file being ingested stops, the queued ones are dropped. */
  async function cancel(jobId: number, reason: string): Promise<IngestJobModel | undefined> {
    const dropped = await store.cancelRunning(jobId, `canceled: ${reason}`, `not ingested: ${reason}`);
    if (!dropped) return undefined;
    turns.abort(jobId);
    for (const p of dropped) fs.rmSync(p, { force: true });
    const job = await store.countFailed(jobId);
    // What was committed stays in the graph: analysis follows it.
    if (job.totalFiles > 0) {
      await store.requestAnalysis(`upload job ${jobId} (canceled)`);
      void kick();
    }
    return job;
  }

  async function finishJobs(jobs: IngestJobModel[], result: AnalysisResult | undefined, why?: string): Promise<void> {
    for (const job of jobs) {
      fs.rmSync(path.join(deps.uploadsDir, String(job.id)), { recursive: true, force: true });
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
        ? `analysis failed${why ? `: ${why}` : ''}`
        : failed.length
          ? `${files.length - failed.length} of ${files.length} files ingested; failed: ${failed.map((f) => f.error).join('; ')}`
          : `${files.length} files ingested and analyzed`;
      const done = await store.setJobStatus(job.id, status, message.slice(0, 4000), true);
      if (done && deps.onJobFinished)
        await deps.onJobFinished(done, files).catch((err) => log.error({ err, job: job.id }, 'a job-finished listener failed'));
    }
  }

  /** One pass: ingest this process's ended jobs, then run analysis if one was requested. */
  async function runOnce(): Promise<void> {
    if ((await store.hasWork(instance)) && (await store.claim(instance, 'ingesting', leaseS))) {
      try {
        await withHeartbeat(async () => {
          while (!stopped && !analysisDue() && (await turns.next()));
        });
      } finally {
        await store.release(instance);
        deps.index.invalidate();
      }
    }
    if (await store.claim(instance, 'analyzing', leaseS)) {
      analysisWaitsSince = undefined;
      const jobs = await store.jobsInStatus(JOB_STATUS.analyzing);
      let result: AnalysisResult | undefined;
      let why: string | undefined;
      try {
        result = await withHeartbeat(async () =>
          analyze({
            tierZeroSeeds: await deps.tierZeroSeeds?.(),
            citrixRdpSupport: (await deps.citrixRdpSupport?.()) ?? false,
            heapBytes: deps.analysisHeapBytes,
          }),
        );
        log.info({ ...result }, 'analysis complete');
      } catch (err) {
        if (isDatabaseAway(err)) {
          // Not the analysis's fault: its jobs stay "analyzing" and the run is asked for again, after a back-off.
          await store.requestAnalysis('retry: the database was away').catch(() => undefined);
          throw err;
        }
        log.error({ err }, 'analysis failed');
        // What an admin can act on (the heap it needs, say); anything else stays in the log.
        why = err instanceof PipelineThreadStopped ? err.message : asAppError(err)?.message;
      } finally {
        await store.release(instance, result ?? undefined);
        await deps.index.invalidate(); // jobs read "complete" only once paths reflect them
      }
      if (result) {
        await deps.afterAnalysis?.().catch((err) => log.error({ err }, 'the after-analysis step failed'));
      }
      await finishJobs(jobs, result, why);
      again = true; // a request that arrived during the run is picked up next
    } else if (analysisDue()) {
      // Another process holds the pipeline: ingest here is not held back for an analysis it cannot run now.
      analysisWaitsSince = undefined;
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
          do {
            again = false;
            await runOnce();
          } while (again && !stopped);
          failures = 0;
          // A kick while the listener runs joins this run, so the run must look again before it ends.
          if (deps.onRunEnd) await deps.onRunEnd().catch((err) => log.warn({ err }, 'an after-run listener failed'));
        } while (again && !stopped);
      } catch (err) {
        // Never fatal: the work stays where the tables say and the next run (after a back-off) picks it up.
        failures++;
        pausedUntil = Date.now() + backoffMs(failures);
        if (isDatabaseAway(err)) log.warn({ failures, retryInMs: backoffMs(failures) }, 'datapipe paused: the database is away');
        else log.error({ err, failures }, 'datapipe run failed');
      } finally {
        running = undefined;
      }
    });
    return running;
  }

  /**
   * Holds the pipeline mutex (as ingest does) while `fn` runs: `gas ingest` writes the graph under it, so it and a
   * running server never write at once. Busy → a 409, or with `wait` polls until free.
   */
  async function withIngestLock<T>(fn: () => Promise<T>, opts: { wait?: boolean; pollMs?: number } = {}): Promise<T> {
    while (!(await store.claim(instance, 'ingesting', leaseS))) {
      if (!opts.wait) {
        const state = await store.state();
        throw conflict('datapipe', `The data pipeline is busy (${state.status}); retry when it is idle, or wait for it.`);
      }
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000));
    }
    try {
      return await withHeartbeat(fn);
    } finally {
      await store.release(instance);
      await deps.index.invalidate();
    }
  }

  return {
    instance,

    /** An upload job by id, without an ownership check (services that already checked it). */
    ingestJob: (id: number): Promise<IngestJobModel | undefined> => store.getJob(id),

    withIngestLock,

    /** Ingests a file from disk into the graph (`gas ingest`, under `withIngestLock`). */
    ingestFile: (file: string, opts?: PathOptions): Promise<PathResult> =>
      ingestPath(deps.graph, file, { ...opts, limits: { ...deps.limits, ...opts?.limits } }),

    start(): void {
      if (deps.pollMs > 0) {
        timer = setInterval(() => {
          if (Date.now() >= pausedUntil) void kick();
        }, deps.pollMs);
      }
      // Leases of idle jobs (uploads still running) are renewed even when there is nothing to ingest.
      beatTimer = setInterval(() => void beat(), leaseMs / 4);
      timer?.unref();
      beatTimer.unref();
      void runOutsideScope(() =>
        cleanLeftoverUploads({ uploadsDir: deps.uploadsDir, keep: store.pendingPaths, log }).catch((err) =>
          log.warn({ err: { message: (err as Error).message } }, 'start-up cleanup of leftover uploads failed'),
        ),
      ).finally(() => void kick());
    },

    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      clearInterval(beatTimer);
      await running;
      await deps.thread?.close();
    },

    /** Runs all pending work now and resolves when the pipeline is idle (tests, CLI). */
    async drain(): Promise<void> {
      await kick();
      while (running) await running;
    },

    async startUpload(s: Session): Promise<IngestJobModel> {
      return store.createJob(s.kind === 'user' ? s.userId : null, s.kind === 'client' ? s.clientId : null, instance, leaseS);
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
      const size = await saveUpload(file, target);
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

    /**
     * Ends a running upload job whose collection job was canceled. What is in the graph stays: each file (each part
     * of a zip) commits on its own, and a file being ingested at this moment is let finish, so no file is left half
     * written. Files still queued are dropped (failed, saying why) and removed from disk. When the job received
     * files, analysis is requested so derived edges follow what went in. Undefined when the job had already ended.
     */
    cancelUpload: cancel,

    /**
     * An upload job's owner, or an administrator (auth/ManageUsers), cancels it while it receives or ingests files:
     * the file being ingested stops at once and rolls back (each file, each zip entry, commits on its own, so
     * nothing is left half written; what committed before stays), queued files are dropped. 409 once ingest is done.
     */
    async cancelJob(s: Session, jobId: number): Promise<IngestJobModel> {
      const job = await ownJob(s, jobId);
      const by = s.kind === 'user' ? s.principalName : `client ${s.clientName}`;
      const canceled =
        job.status === JOB_STATUS.running || job.status === JOB_STATUS.ingesting ? await cancel(jobId, `canceled by ${by}`) : undefined;
      if (!canceled) throw conflict(CONTEXT, `Upload job ${jobId} is no longer receiving or ingesting files; it cannot be canceled.`);
      return (await store.getJob(jobId))!;
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
    async analyzeNow(by: string, onProgress?: (p: AnalysisProgress) => void): Promise<unknown> {
      await store.requestAnalysis(by);
      analysisProgress = onProgress;
      try {
        await this.drain();
      } finally {
        analysisProgress = undefined;
      }
      return (await store.state()).lastAnalysisResult;
    },
  };
}

export type DatapipeService = ReturnType<typeof createDatapipeService>;
