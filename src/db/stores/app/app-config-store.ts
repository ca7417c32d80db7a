import type { Queryable } from '../../pool.js';

/** A parameter as stored: its key, its value (shape checked by the service), and who changed it last. */
export interface StoredParameter {
  key: string;
  value: unknown;
  updatedAt: Date;
  updatedBy: string;
}

const COLUMNS = /* SQL */ `key, value, updated_at as "updatedAt", updated_by as "updatedBy"`;

const LIST = /* SQL */ `-- appConfig.list
select ${COLUMNS} from app_parameters`;
const SET = /* SQL */ `-- appConfig.set
insert into app_parameters (key, value, updated_by) values ($1, $2, $3)
on conflict (key) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()
returning ${COLUMNS}`;

export function createAppConfigStore(db: Queryable) {
  return {
    list: () => db.query<StoredParameter>(LIST),
    async set(key: string, value: unknown, by: string): Promise<StoredParameter> {
      return (await db.query<StoredParameter>(SET, [key, JSON.stringify(value), by]))[0]!;
    },
  };
}

export type AppConfigStore = ReturnType<typeof createAppConfigStore>;
