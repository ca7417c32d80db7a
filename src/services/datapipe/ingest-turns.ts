import type { DatapipeStore, IngestFileModel, IngestJobModel } from '../../db/stores/datapipe/datapipe-store.js';
import { fileType, inCollectionOrder } from '../../ingest/collection-order.js';
import { FILE_STATUS, JOB_STATUS } from '../common/job-status.js';

export interface IngestTurnsDeps {
  store: DatapipeStore;
  instance: string;
  leaseS: number;
  /** Ingests one file of a job; aborting `signal` stops it at once (its open transaction rolls back). */
  ingestFile(job: IngestJobModel, file: IngestFileModel, signal: AbortSignal): Promise<void>;
  /** An ended job whose files are all done: on to analysis. */
  finishJob(job: IngestJobModel): Promise<void>;
  /** How often a running file looks whether its job was canceled on another replica. @default 1000 */
  cancelCheckMs?: number;
}

/**
 * Which file the pipeline ingests next: one file at a time, taking turns between callers (users and collector
 * clients) round-robin, each caller's jobs oldest first and a job's files in collection order. One caller's big job
 * then holds another's at most for the file being ingested, never for the rest of its files. A job being ingested
 * here can be canceled: its file stops at once.
 */
export function createIngestTurns(deps: IngestTurnsDeps) {
  const { store, instance, leaseS } = deps;
  /** When each caller was last served (a counter): the least recently served goes next. */
  const served = new Map<string, number>();
  let turn = 0;
  let current: { jobId: number; controller: AbortController } | undefined;

  const pendingOf = async (jobId: number) => {
    const pending = (await store.filesOf(jobId)).filter((f) => f.status === FILE_STATUS.pending);
    return inCollectionOrder(pending, (f) => fileType(f.path, f.originalName));
  };

  /**
   * The file being ingested stops when its job is canceled on another replica: its status is looked up a second
   * after the previous look-up answered, one at a time (on the embedded store a look-up waits for the file's own
   * transaction, and a timer firing regardless would pile them up on the pool).
   */
  function watchForCancel(jobId: number, controller: AbortController): () => void {
    let timer: NodeJS.Timeout | undefined;
    let watching = true;
    const look = () => {
      timer = setTimeout(() => {
        store.jobStatus(jobId).then(
          (status) => {
            if (status === JOB_STATUS.canceled) controller.abort();
            else if (watching) look();
          },
          () => watching && look(),
        );
      }, deps.cancelCheckMs ?? 1000);
      timer.unref();
    };
    look();
    return () => {
      watching = false;
      clearTimeout(timer);
    };
  }

  return {
    /** Ingests the next file (or finishes a job whose files are done); false when there is nothing to do. */
    async next(): Promise<boolean> {
      const candidates = await store.claimable(instance);
      if (!candidates.length) return false;
      const rank = (c: { caller: string }) => served.get(c.caller) ?? -1;
      const pick = candidates.reduce((best, c) => (rank(c) < rank(best) ? c : best));
      served.set(pick.caller, ++turn);
      const job = await store.claimJobById(instance, leaseS, pick.id);
      if (!job) return true; // another replica took it, or it ended: choose again
      if (job.status === JOB_STATUS.ingesting && job.statusMessage !== 'ingesting')
        await store.setJobStatus(job.id, JOB_STATUS.ingesting, 'ingesting');
      const [file] = await pendingOf(job.id);
      if (file && (await store.isPending(file.id))) {
        const controller = new AbortController();
        current = { jobId: job.id, controller };
        const unwatch = watchForCancel(job.id, controller);
        try {
          await deps.ingestFile(job, file, controller.signal);
        } finally {
          unwatch();
          current = undefined;
        }
      }
      if (job.status === JOB_STATUS.ingesting && !(await pendingOf(job.id)).length) await deps.finishJob(job);
      return true;
    },

    /** Stops the file of this job being ingested here, if one is; true when one was. */
    abort(jobId: number): boolean {
      if (current?.jobId !== jobId) return false;
      current.controller.abort();
      return true;
    },
  };
}

export type IngestTurns = ReturnType<typeof createIngestTurns>;
