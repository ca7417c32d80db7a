import type { Queryable } from '../../pool.js';
import { sealedColumn } from '../common/sealed-column.js';

const GET_OR_CREATE = /* SQL */ `-- secrets.getOrCreate
with ins as (
  insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing returning value
)
select value from ins union all select value from app_secrets where name = $1 limit 1`;

export function createSecretsStore(db: Queryable) {
  return {
    /** Returns the stored secret, storing `candidate` first if there is none (first start, any replica). */
    async getOrCreate(name: string, candidate: string): Promise<string> {
      return (await db.query<{ value: string }>(GET_OR_CREATE, [name, candidate]))[0]!.value;
    },
    /** The sealed values, for sealing and rotation. */
    ...sealedColumn(db, 'secrets', 'app_secrets', 'name', 'value'),
  };
}

export type SecretsStore = ReturnType<typeof createSecretsStore>;
