import type { DatabaseSettings } from '../db/pool.js';
import type { GraphIndexParts } from '../graph/index/graph-index.js';

/** What the index worker starts with: how to open its own pool to the service's database, and its log level. */
export interface IndexWorkerData {
  db: DatabaseSettings;
  logLevel: string;
}

/** Messages to the index worker; `id` pairs a build with its answer. */
export type ToIndex = { op: 'build'; id: number } | { op: 'close' };

/** The worker's answer: the index's parts (typed arrays moved, not copied), or why the build failed. */
export type FromIndex =
  | { op: 'built'; id: number; parts: GraphIndexParts }
  | { op: 'failed'; id: number; failure: { name: string; message: string; stack?: string } };
