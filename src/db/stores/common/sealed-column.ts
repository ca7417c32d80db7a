import type { Queryable } from '../../pool.js';

/**
 * A column of sealed secrets that the secrets service seals and re-seals (at start, after a key rotation): every
 * row's key and value as stored, and a compare-and-set that replaces a value only if it is still the one read, so
 * replicas doing the same at once do no harm. `table`, `key` and `column` are the calling store's constants, never
 * input; `name` names the queries (`-- <name>.all`, `-- <name>.set`).
 */
export function sealedColumn<K extends string, V extends string>(db: Queryable, name: string, table: string, key: K, column: V) {
  const ALL = /* SQL */ `-- ${name}.all
select ${key}, ${column} from ${table} order by ${key}`;
  const SET = /* SQL */ `-- ${name}.set
update ${table} set ${column} = $3 where ${key} = $1 and ${column} = $2`;
  return {
    async all(): Promise<Record<K | V, string>[]> {
      return db.query<Record<K | V, string>>(ALL);
    },
    /** Replaces a value only if it is still `old`. */
    async set(id: string, old: string, value: string): Promise<boolean> {
      return (await db.execute(SET, [id, old, value])) > 0;
    },
  };
}
