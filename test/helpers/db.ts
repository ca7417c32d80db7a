import crypto from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/db/migrate';
import { Database } from '../../src/db/pool';
import { createLogger } from '../../src/logger';

export const embedded = () => process.env.GAS_TEST_EMBEDDED === '1';
export const testUrl = () => process.env.TEST_DATABASE_URL!;
export const testLog = () => createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

export interface TestDb {
  db: Database;
  schema: string;
  /** A connection string that lands in this test's schema (for child processes such as the CLI). */
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated, empty database for one test file: its own schema on the shared test server, so files never see
 * each other's rows. Nothing is mocked; this is the PostgreSQL (embedded or TEST_DATABASE_URL's) the suite runs on.
 */
export async function createTestDb(): Promise<TestDb> {
  const schema = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const boot = new pg.Client({ connectionString: testUrl() });
  await boot.connect();
  await boot.query(`create schema ${schema}`);
  await boot.end();
  const log = testLog();
  const db = new Database(testUrl(), { log, searchPath: schema });
  await migrate(db, log);
  const base = testUrl();
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
  return {
    db,
    schema,
    url,
    async drop() {
      await db.close();
      // Two files' teardowns dropping their schemas at once can deadlock on the catalog; the loser tries again.
      for (let attempt = 1; ; attempt++) {
        const c = new pg.Client({ connectionString: testUrl() });
        await c.connect();
        try {
          await c.query(`drop schema ${schema} cascade`);
          return;
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw err;
        } finally {
          await c.end();
        }
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    },
  };
}
