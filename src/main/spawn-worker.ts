import path from 'node:path';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';

/**
 * Starts the worker whose entry is `name` beside this file: compiled JavaScript (`npm start`), or TypeScript loaded
 * through tsx (tests, benches). Its heap may grow as far as this thread's (analysis sizes itself against it,
 * src/analysis/memory-guard.ts).
 */
export function spawnWorker(name: string, workerData: unknown): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: Math.floor(v8.getHeapStatistics().heap_size_limit / 1024 ** 2) };
  const entry = path.join(__dirname, `${name}${path.extname(__filename)}`);
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  const tsx = require.resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, {
    eval: true,
    workerData,
    resourceLimits,
  });
}
