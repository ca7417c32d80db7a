/**
 * The path index worker: scans the graph from its own connections to the service's database and lays it out in
 * compressed rows (GraphIndex.buildParts), so that the seconds a build of a forest takes are not spent on the
 * thread that answers requests. The arrays are moved to that thread, not copied; the worker keeps nothing.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../db/pool.js';
import { GraphIndex, transferables } from '../graph/index/graph-index.js';
import { PgGraphStore } from '../graph/pg/store.js';
import { createLogger } from '../logger.js';
import { lowerThreadPriority } from './thread-priority.js';
import type { FromIndex, IndexWorkerData, ToIndex } from './index-protocol.js';

lowerThreadPriority();
const port = parentPort!;
const data = workerData as IndexWorkerData;
const log = createLogger(data.logLevel).child({ module: 'index-worker' });
// Two connections: the node scan's pages and the edge scan's COPY each hold one; builds run one at a time.
const db = Database.fromSettings(data.db, { log: log.child({ module: 'db' }), max: 2 });
const store = new PgGraphStore(db);

async function build(id: number): Promise<void> {
  try {
    const parts = await GraphIndex.buildParts(store);
    port.postMessage({ op: 'built', id, parts } satisfies FromIndex, transferables(parts));
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ op: 'failed', id, failure: { name: e.name, message: e.message, stack: e.stack } } satisfies FromIndex);
  }
}

port.on('message', (m: ToIndex) => {
  if (m.op === 'close') void db.close().finally(() => port.close());
  else void build(m.id);
});
