import type { AnalysisProgress, AnalysisResult } from '../analysis/run.js';
import type { TierZeroSeed } from '../analysis/steps/tier-zero.js';
import type { DatabaseSettings } from '../db/pool.js';
import type { AnalysisRequest, UploadIngest, UploadIngestResult } from '../services/datapipe/upload-ingest.js';

/** What the pipeline worker starts with: how to open its own pool to the service's database, and its log level. */
export interface PipelineWorkerData {
  db: DatabaseSettings;
  logLevel: string;
  /** Connections of the worker's pool (an ingest's writer and its look-ups, an analysis's reads). */
  poolSize: number;
}

/** Messages to the pipeline worker; `id` pairs a task with its answers. */
export type ToPipeline =
  | { op: 'ingest'; id: number; req: UploadIngest }
  | { op: 'analyze'; id: number; req: AnalysisRequest }
  /** The zones' rule seeds after analysis, one list per selector (ruleSeedMatches). */
  | { op: 'matchRules'; id: number; rules: TierZeroSeed[][] }
  /** The caller gave up on a task (its job was canceled): its open transaction rolls back. */
  | { op: 'abort'; id: number }
  /** Close the pool and end (the worker was idle, or the service stops). */
  | { op: 'close' };

/** An error as a message carries it: an AppError keeps its code and area, anything else its name and message. */
export type WorkerFailure =
  { kind: 'app'; code: string; context: string; message: string } | { kind: 'error'; name: string; message: string; stack?: string };

export type FromPipeline =
  | { op: 'progress'; id: number; progress: AnalysisProgress }
  | { op: 'ingested'; id: number; result: UploadIngestResult }
  | { op: 'analyzed'; id: number; result: AnalysisResult }
  | { op: 'matched'; id: number; result: number[][] }
  | { op: 'failed'; id: number; failure: WorkerFailure };
