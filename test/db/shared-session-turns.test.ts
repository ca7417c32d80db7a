import { Database } from '../../src/db/pool';
import { createTestDb, testLog, testUrl, type TestDb } from '../helpers/db';

/**
 * On PGlite every connection shares one session, one connection holds it for a whole transaction, and meanwhile
 * its socket answers no other connection, a new one's handshake included. A caller that needed a new connection
 * waited out the connect timeout and was told the database was away (503) when it was only busy (an ingest's file
 * transaction lasts seconds). Callers now wait for their turn before they take a connection. On a server each
 * connection is its own session and the same calls simply run.
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
