import fs from 'node:fs';
import type { DatapipeStore, IngestFileModel } from '../../db/stores/datapipe/datapipe-store.js';
import { asAppError } from '../../errors.js';
import type { GraphStore } from '../../graph/store.js';
import type { IngestLimits } from '../../ingest/ingest-stream.js';
import type { Logger } from '../../logger.js';
import { ingestUpload, PipelineThreadStopped, type PipelineThread } from './upload-ingest.js';

/** BloodHound's status numbers for a file: ingested, failed. */
const COMPLETE = 2;
const FAILED = 5;

/** The database went away (503): work stays pending and is retried after a back-off, never marked failed. */
export const isDatabaseAway = (err: unknown) => asAppError(err)?.code === 'UNAVAILABLE';

/**
 * Ingests one uploaded file of a job (see ingestUpload), on the pipeline's thread when there is one, and records how
 * it went. A file that cannot be ingested fails with a message naming it; the database being away leaves it pending.
 */
export function createFileIngester(deps: {
  store: DatapipeStore;
  graph: GraphStore;
  log: Logger;
  limits?: Partial<IngestLimits>;
  thread?: PipelineThread;
}) {
  const { store, log } = deps;
  return async function ingestFile(job: { id: number }, f: IngestFileModel, signal?: AbortSignal): Promise<void> {
    if (!fs.existsSync(f.path)) {
      const parts = await store.partsOf(f.id);
      const error = `${f.originalName}: the uploaded file is no longer on disk (the server that received it stopped before ingesting it)`;
      await store.fileDone(f.id, FAILED, error, parts.length ? parts : null);
      return;
    }
    try {
      const req = { path: f.path, displayName: f.originalName, fileId: f.id, limits: deps.limits };
      const { errors } = await (deps.thread ? deps.thread.ingestUpload(req, signal) : ingestUpload(deps.graph, req, signal));
      const parts = await store.partsOf(f.id);
      const ok = parts.length > 0 && errors.length === 0;
      const error = errors.length ? errors.join('; ') : parts.length ? null : `${f.originalName}: no JSON collection files found`;
      await store.fileDone(f.id, ok ? COMPLETE : FAILED, error, parts);
    } catch (err) {
      if (isDatabaseAway(err) && !signal?.aborted) throw err; // stays pending; the run stops and is retried
      if (signal?.aborted) {
        // Its job was canceled: what committed before stays, the rest rolled back.
        log.info({ job: job.id, file: f.originalName }, 'ingest of an uploaded file stopped: its job was canceled');
        const parts = await store.partsOf(f.id);
        await store.fileDone(f.id, FAILED, `${f.originalName}: not ingested: its job was canceled`, parts.length ? parts : null);
      } else {
        log.error({ err, job: job.id, file: f.originalName }, 'ingest of an uploaded file failed');
        const why = err instanceof PipelineThreadStopped ? ` (${err.message})` : '';
        await store.fileDone(f.id, FAILED, `${f.originalName}: the file could not be ingested${why}`, null);
      }
    }
    fs.rmSync(f.path, { force: true });
  };
}
