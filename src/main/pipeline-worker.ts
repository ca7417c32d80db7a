/**
 * The pipeline worker: ingests uploaded files, runs analysis and matches the zones' rule seeds on a pool of its own
 * to the service's database, so that parsing, converting, writing and the rules never hold up the thread that
 * answers requests. It keeps no job
 * state: the serving thread claims, records and finishes jobs, and every write here commits in one transaction per
 * part (or per run), so a worker that dies leaves nothing half-written.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ruleSeedMatches } from '../analysis/rule-seeds.js';
import { runAnalysis } from '../analysis/run.js';
import { Database } from '../db/pool.js';
import { asAppError } from '../errors.js';
import { PgGraphStore } from '../graph/pg/store.js';
import { createLogger } from '../logger.js';
import { lowerThreadPriority } from './thread-priority.js';
import { ingestUpload } from '../services/datapipe/upload-ingest.js';
import type { FromPipeline, PipelineWorkerData, ToPipeline, WorkerFailure } from './pipeline-protocol.js';

lowerThreadPriority();
const port = parentPort!;
const data = workerData as PipelineWorkerData;
const log = createLogger(data.logLevel).child({ module: 'pipeline-worker' });
const db = Database.fromSettings(data.db, { log: log.child({ module: 'db' }), max: data.poolSize });
const graph = new PgGraphStore(db);
const running = new Map<number, AbortController>();
const send = (m: FromPipeline) => port.postMessage(m);

function failure(err: unknown): WorkerFailure {
  const app = asAppError(err);
  if (app) return { kind: 'app', code: app.code, context: app.context, message: app.message };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'error', name: e.name, message: e.message, stack: e.stack };
}

async function run(m: Extract<ToPipeline, { op: 'ingest' | 'analyze' | 'matchRules' }>): Promise<void> {
  const controller = new AbortController();
  running.set(m.id, controller);
  try {
    if (m.op === 'ingest') send({ op: 'ingested', id: m.id, result: await ingestUpload(graph, m.req, controller.signal) });
    else if (m.op === 'matchRules') send({ op: 'matched', id: m.id, result: await ruleSeedMatches(graph, m.rules) });
    else {
      const result = await runAnalysis(graph, {
        ...m.req,
        onProgress: (progress) => send({ op: 'progress', id: m.id, progress }),
      });
      send({ op: 'analyzed', id: m.id, result });
    }
  } catch (err) {
    send({ op: 'failed', id: m.id, failure: failure(err) });
  } finally {
    running.delete(m.id);
  }
}

port.on('message', (m: ToPipeline) => {
  if (m.op === 'abort') running.get(m.id)?.abort();
  else if (m.op === 'close') void db.close().finally(() => port.close());
  else void run(m);
});
