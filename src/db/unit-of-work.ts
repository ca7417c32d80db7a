import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Queryable } from './pool.js';

/** One open transaction that every statement of a piece of work joins (a mutation and its audit row). */
interface Unit {
  q: Queryable;
  /** Set once the transaction has ended: work still running after it (not awaited) uses the pool again. */
  closed: boolean;
  savepoints: number;
}

const units = new AsyncLocalStorage<Unit>();

const open = (): Unit | undefined => {
  const u = units.getStore();
  return u && !u.closed ? u : undefined;
};

/**
 * The database as the services see it: outside a unit of work it is the database itself; inside one (`runInUnit`)
 * every query, execute and transaction joins the unit's transaction, a nested transaction becoming a savepoint.
 * Stores need no change: they are bound to this object once, at composition, and find the unit of the work they
 * run for. On an embedded PGlite (one session, one holder at a time) nothing may leave the unit's connection while
 * it is open, which this ensures for everything that goes through the stores.
 */
export function unitAware(db: Database): Database {
  const joined: Partial<Database> = {
    query: ((sql: string, params?: readonly unknown[]) => (open()?.q ?? db).query(sql, params)) as Database['query'],
    execute: (sql: string, params?: readonly unknown[]) => (open()?.q ?? db).execute(sql, params),
    tx: (<T>(fn: (q: Queryable) => Promise<T>): Promise<T> => {
      const u = open();
      return u ? savepoint(u, fn) : db.tx(fn);
    }) as Database['tx'],
  };
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop in joined) return joined[prop as keyof Database];
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function savepoint<T>(u: Unit, fn: (q: Queryable) => Promise<T>): Promise<T> {
  const name = `gas_sp_${++u.savepoints}`;
  await u.q.execute(`savepoint ${name}`);
  try {
    const out = await fn(u.q);
    await u.q.execute(`release savepoint ${name}`);
    return out;
  } catch (err) {
    await u.q.execute(`rollback to savepoint ${name}`);
    throw err;
  }
}

/**
 * Runs `fn` as one unit of work: one transaction that every statement of `fn` joins, then `finish` in the same
 * transaction (the audit row of the change), committed together; any error rolls back both. Inside an open unit
 * it joins that one (a savepoint).
 */
export async function runInUnit<T>(db: Database, fn: () => Promise<T>, finish: (q: Queryable, result: T) => Promise<void>): Promise<T> {
  const outer = open();
  if (outer)
    return savepoint(outer, async (q) => {
      const out = await fn();
      await finish(q, out);
      return out;
    });
  const unit: Unit = { q: undefined as unknown as Queryable, closed: false, savepoints: 0 };
  try {
    return await db.tx(async (q) => {
      unit.q = q;
      // `finish` inside the unit too: on an embedded PGlite anything it ran on the pool would wait for this
      // transaction to end, which waits for it.
      return units.run(unit, async () => {
        const out = await fn();
        await finish(q, out);
        return out;
      });
    });
  } finally {
    unit.closed = true;
  }
}
