import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';
import type { Database } from './pool.js';

/** Resolves to `<repo>/src/db/migrations` both from `src/db` (tests) and from `dist/db` (built service). */
export const MIGRATIONS_DIR = path.resolve(__dirname, '..', '..', 'src', 'db', 'migrations');

// Any constant works; it only has to be the same for every replica so they apply migrations one at a time.
const MIGRATION_LOCK = 7_240_001;

/**
 * Applies every `NNNN_name.sql` file not yet recorded in `schema_migrations`, in order, in one transaction under
 * an advisory lock. Running it again is a no-op. Returns the versions it applied.
 */
export async function migrate(db: Database, log: Logger): Promise<string[]> {
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  return db.tx(async (q) => {
    await q.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.query('create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())');
    const done = new Set((await q.query<{ version: string }>('select version from schema_migrations')).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      await q.query(fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await q.query('insert into schema_migrations (version) values ($1)', [version]);
      applied.push(version);
    }
    if (applied.length) log.info({ applied }, 'database migrations applied');
    return applied;
  });
}

/** How many migrations are recorded; throws when the database is unreachable or was never migrated. */
export async function appliedMigrationCount(db: Pick<Database, 'query'>): Promise<number> {
  const rows = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
  return rows[0]!.n;
}
