import { createDatapipeStore } from '../../db/stores/datapipe/datapipe-store.js';
import type { AnalysisProgress, AnalysisResult } from '../../analysis/run.js';
import type { TierZeroSeed } from '../../analysis/steps/tier-zero.js';
import type { GraphStore } from '../../graph/store.js';
import { ingestPath } from '../../ingest/ingest-path.js';
import { IngestError, type FileResult, type IngestLimits } from '../../ingest/ingest-stream.js';

/** One uploaded file to ingest: where it is, what its uploader called it, its row in ingest_files. */
export interface UploadIngest {
  path: string;
  displayName: string;
  fileId: number;
  limits?: Partial<IngestLimits>;
}

/** What an ingest left to report: the human messages of the parts that were refused (committed parts are recorded). */
export interface UploadIngestResult {
  errors: string[];
}

/** A part of a file that an earlier attempt already committed: its transaction is rolled back, not repeated. */
class AlreadyCommitted extends IngestError {}

/**
 * Ingests one uploaded file. Every committed part (the JSON file, or each JSON entry of a zip) is recorded in its
 * own graph transaction (the `beforeCommit` hook), so after a crash a resumed job skips what was committed and redoes
 * the rest; the record's primary key also stops two replicas committing the same part.
 */
export async function ingestUpload(graph: GraphStore, req: UploadIngest, signal?: AbortSignal): Promise<UploadIngestResult> {
  const seen = new Map<string, number>();
  const r = await ingestPath(graph, req.path, {
    displayName: req.displayName,
    limits: req.limits,
    signal,
    beforeCommit: async (tx, result: FileResult) => {
      // A zip may hold two entries of one name: the n-th of them is the same part on every attempt.
      const n = (seen.get(result.file) ?? 0) + 1;
      seen.set(result.file, n);
      const part = n > 1 ? `${result.file}#${n}` : result.file;
      if (!(await createDatapipeStore(tx).recordPart(req.fileId, part, result)))
        throw new AlreadyCommitted(result.file, 'already ingested');
    },
  });
  return { errors: r.errors.filter((e) => !(e instanceof AlreadyCommitted)).map((e) => e.message) };
}

/** What an analysis run is given (the same whether it runs on this thread or another). */
export interface AnalysisRequest {
  tierZeroSeeds?: { type: string; value: string }[];
  citrixRdpSupport: boolean;
  /** Most heap the run may take, in bytes (capped by what the running thread has left). */
  heapBytes?: number;
}

/**
 * Runs the pipeline's CPU-heavy work (parsing and writing an uploaded file, an analysis run) away from the thread that
 * answers requests, on a pool of its own to the same database. The job state machine stays with the caller.
 */
export interface PipelineThread {
  ingestUpload(req: UploadIngest, signal?: AbortSignal): Promise<UploadIngestResult>;
  analyze(req: AnalysisRequest, onProgress?: (p: AnalysisProgress) => void): Promise<AnalysisResult>;
  /** The nodes each list of zone rule seeds selects, on an analysis view loaded there (ruleSeedMatches). */
  matchRules(rules: TierZeroSeed[][]): Promise<number[][]>;
  /** Whether a task is running on it. */
  busy(): boolean;
  /** Ends the thread at once, as a crash would: its task fails with PipelineThreadStopped (operators, tests). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** The pipeline's thread ended (a crash, its memory cap) before it answered: what it had not committed rolled back. */
export class PipelineThreadStopped extends Error {
  constructor(readonly reason: string) {
    super(`the pipeline worker stopped before it finished (${reason}); nothing it had not committed was kept`);
    this.name = 'PipelineThreadStopped';
  }
}
