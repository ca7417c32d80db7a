import { Database } from '../../src/db/pool';
import { createTestDb, testLog, testUrl, type TestDb } from '../helpers/db';

/**
 * A transaction held open for seconds (an ingest's file transaction) must not make other callers of the same
 * Database look like an outage: they take connections of their own and run, even with a short connect timeout.
 */
describe('callers of a Database while one of its transactions is open', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.drop());

  it('wait for it to end, however long past the connect timeout, and then all run', async () => {
    const db = new Database(testUrl(), { log: testLog(), searchPath: t.schema, connectTimeoutMs: 200 });
    try {
      let begun!: () => void;
      const open = new Promise<void>((r) => (begun = r));
      let end!: () => void;
      const ended = new Promise<void>((r) => (end = r));
      const tx = db.tx(async (q) => {
        await q.query('select 1');
        begun();
        await ended;
        return 'committed';
      });
      await open;
      const callers = Promise.allSettled(Array.from({ length: 4 }, (_, i) => db.query<{ n: number }>('select $1::int as n', [i])));
      await new Promise((r) => setTimeout(r, 800)); // four times the connect timeout
      end();
      expect(await tx).toBe('committed');
      const outcomes = (await callers).map((s) => (s.status === 'fulfilled' ? s.value[0]!.n : (s.reason as Error).message));
      expect(outcomes).toEqual([0, 1, 2, 3]);
    } finally {
      await db.close();
    }
  });
});
