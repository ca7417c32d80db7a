import fs from 'node:fs';
import { createDatapipeStore, type DatapipeStore, type IngestFileModel } from '../../db/stores/datapipe/datapipe-store.js';
import { asAppError } from '../../errors.js';
import type { GraphStore } from '../../graph/store.js';
import { ingestPath } from '../../ingest/ingest-path.js';
import { IngestError, type FileResult, type IngestLimits } from '../../ingest/ingest-stream.js';
import type { Logger } from '../../logger.js';

/** BloodHound's status numbers for a file: ingested, failed. */
const COMPLETE = 2;
const FAILED = 5;

/** A part of a file that an earlier attempt already committed: its transaction is rolled back, not repeated. */
class AlreadyCommitted extends IngestError {}

/** The database went away (503): work stays pending and is retried after a back-off, never marked failed. */
export const isDatabaseAway = (err: unknown) => asAppError(err)?.code === 'UNAVAILABLE';

/**
 * Ingests one uploaded file of a job. Every committed part (the JSON file, or each JSON entry of a zip) is recorded
 * in its own graph transaction (the `beforeCommit` hook), so after a crash a resumed job skips what was committed
 * and redoes the rest; the record's primary key also stops two replicas committing the same part.
 */
export function createFileIngester(deps: { store: DatapipeStore; graph: GraphStore; log: Logger; limits?: Partial<IngestLimits> }) {
  const { store, log } = deps;
  return async function ingestFile(job: { id: number }, f: IngestFileModel, signal?: AbortSignal): Promise<void> {
    if (!fs.existsSync(f.path)) {
      const parts = await store.partsOf(f.id);
      const error = `${f.originalName}: the uploaded file is no longer on disk (the server that received it stopped before ingesting it)`;
      await store.fileDone(f.id, FAILED, error, parts.length ? parts : null);
      return;
    }
    const seen = new Map<string, number>();
    try {
      const r = await ingestPath(deps.graph, f.path, {
        displayName: f.originalName,
        limits: deps.limits,
        signal,
        beforeCommit: async (tx, result: FileResult) => {
          // A zip may hold two entries of one name: the n-th of them is the same part on every attempt.
          const n = (seen.get(result.file) ?? 0) + 1;
          seen.set(result.file, n);
          const part = n > 1 ? `${result.file}#${n}` : result.file;
          if (!(await createDatapipeStore(tx).recordPart(f.id, part, result))) throw new AlreadyCommitted(result.file, 'already ingested');
        },
      });
      const errors = r.errors.filter((e) => !(e instanceof AlreadyCommitted));
      const parts = await store.partsOf(f.id);
      const ok = parts.length > 0 && errors.length === 0;
      const error = errors.length
        ? errors.map((e) => e.message).join('; ')
        : parts.length
          ? null
          : `${f.originalName}: no JSON collection files found`;
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
        await store.fileDone(f.id, FAILED, `${f.originalName}: the file could not be ingested`, null);
      }
    }
    fs.rmSync(f.path, { force: true });
  };
}
