import { appliedMigrationCount } from '../../db/migrate.js';
import type { Database } from '../../db/pool.js';
import { unavailable } from '../../errors.js';
import type { EditionValue } from './edition.js';

export interface Health {
  status: 'ok';
  edition: EditionValue;
  storage: string;
}

/** The health rule: the service answers only once migrations ran and the store answers. */
export function createHealth(d: { db: Database; edition: EditionValue; storage: string }): () => Promise<Health> {
  return async () => {
    if ((await appliedMigrationCount(d.db)) === 0) throw unavailable('health', 'The database has not been migrated yet.');
    return { status: 'ok', edition: d.edition, storage: d.storage };
  };
}
