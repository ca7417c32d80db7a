import type { Queryable } from '../pool.js';

const GET_OR_CREATE = /* SQL */ `-- secrets.getOrCreate
with ins as (
  insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing returning value
)
select value from ins union all select value from app_secrets where name = $1 limit 1`;

const ALL = /* SQL */ `-- secrets.all
select name, value from app_secrets order by name`;
const SET = /* SQL */ `-- secrets.set
update app_secrets set value = $3 where name = $1 and value = $2`;

export function createSecretsStore(db: Queryable) {
  return {
    /** Returns the stored secret, storing `candidate` first if there is none (first start, any replica). */
    async getOrCreate(name: string, candidate: string): Promise<string> {
      return (await db.query<{ value: string }>(GET_OR_CREATE, [name, candidate]))[0]!.value;
    },
    async all(): Promise<{ name: string; value: string }[]> {
      return db.query<{ name: string; value: string }>(ALL);
    },
    /** Replaces a value only if it is still `old`. */
    async set(name: string, old: string, value: string): Promise<boolean> {
      return (await db.execute(SET, [name, old, value])) > 0;
    },
  };
}

export type SecretsStore = ReturnType<typeof createSecretsStore>;
