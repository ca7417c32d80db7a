import type { Queryable } from '../../db/pool.js';

/**
 * At most one graph write in flight behind the caller. A failed write surfaces on the next call, or when the
 * transaction ends (which then rolls back); any other statement first waits for the write in flight.
 */
export class WriteQueue {
  private inFlight: Promise<void> | undefined;

  /** Waits for the previous write (throwing its error), then starts `job` without waiting for it. */
  async behind(job: () => Promise<void>): Promise<void> {
    await this.drain();
    const running = job();
    running.catch(() => undefined); // observed by drain()
    this.inFlight = running;
  }

  async drain(): Promise<void> {
    const running = this.inFlight;
    this.inFlight = undefined;
    if (running) await running;
  }

  /** Waits for the write in flight, ignoring its outcome (the transaction is failing anyway). */
  async settle(): Promise<void> {
    await this.drain().catch(() => undefined);
  }

  /** The transaction, but every statement waits for the write in flight. */
  guard(q: Queryable): Queryable {
    return {
      query: async (sql, params) => {
        await this.drain();
        return q.query(sql, params);
      },
      execute: async (sql, params) => {
        await this.drain();
        return q.execute(sql, params);
      },
      copyFrom: q.copyFrom && (async (sql, chunks) => (await this.drain(), q.copyFrom!(sql, chunks))),
    };
  }
}
