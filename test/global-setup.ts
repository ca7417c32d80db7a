import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Without TEST_DATABASE_URL the suite runs on the embedded PostgreSQL, as the service does by default: one
 * throw-away cluster per run, started here, each test file in a schema of its own. With TEST_DATABASE_URL the suite
 * uses that PostgreSQL server instead.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.GAS_TEST_EMBEDDED = '0';
    return;
  }
  // Global setup runs outside Jest's module mapping (our sources import `./x.js`): tsx loads them here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { require: tsxRequire } = require('tsx/cjs/api') as { require: (id: string, from: string) => unknown };
  const { startCluster } = tsxRequire('../src/db/embedded/cluster.ts', __filename) as typeof import('../src/db/embedded/cluster');
  const { createLogger } = tsxRequire('../src/logger.ts', __filename) as typeof import('../src/logger');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-test-pg-'));
  fs.chmodSync(root, 0o755);
  const cluster = await startCluster({ dir: path.join(root, 'postgres'), log: createLogger('warn'), scratch: true });
  process.env.TEST_DATABASE_URL = cluster.url;
  process.env.GAS_TEST_EMBEDDED = '1';
  (globalThis as Record<string, unknown>).__GAS_TEST_CLUSTER__ = { cluster, root };
}
