import { execFile } from 'node:child_process';
import path from 'node:path';
import { createTestDb, embedded, type TestDb } from '../helpers/db';

const SRC = path.resolve(__dirname, '..', '..', 'src');

/**
 * Statements issued on one transaction without waiting for each other (the ingest queues a batch's statements
 * together) run one after the other in the order issued. They wait in our queue, not pg's: that is deprecated, goes
 * away in pg 9 and warns on the server's stderr.
 */
describe('statements queued on one connection', () => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.query('create table queued (n int not null)');
  });
  afterAll(async () => {
    await t.drop();
  });

  it('runs them in the order issued, each seeing the ones before', async () => {
    const seen = await t.db.tx(async (q) => {
      const pending: Promise<unknown>[] = [];
      for (let n = 1; n <= 40; n++) {
        pending.push(q.execute('insert into queued (n) values ($1)', [n]));
        pending.push(q.query<{ c: number }>('select count(*)::int as c from queued'));
      }
      return Promise.all(pending);
    });
    const counts = seen.filter((r): r is { c: number }[] => Array.isArray(r)).map((r) => r[0]!.c);
    expect(counts).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('keeps a failed statement to itself until the transaction ends, and rolls everything back', async () => {
    const before = (await t.db.query<{ c: number }>('select count(*)::int as c from queued'))[0]!.c;
    const outcomes = await t.db
      .tx(async (q) => {
        const a = q.execute('insert into queued (n) values (1000)');
        const b = q.execute('insert into queued (n) values (null)'); // not null: fails
        const c = q.query('select 1');
        return Promise.allSettled([a, b, c]);
      })
      .catch((err: unknown) => err);
    // The first ran, the second failed, the third ran in an aborted transaction and failed too.
    expect(Array.isArray(outcomes) && outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    // The commit of an aborted transaction is a rollback: the first insert is gone too.
    expect((await t.db.query<{ c: number }>('select count(*)::int as c from queued'))[0]!.c).toBe(before);
  });

  (embedded() ? it.skip : it)('queues a COPY behind the statements before it and ahead of those after it', async () => {
    const counts = await t.db.tx(async (q) => {
      const first = q.query<{ c: number }>('select count(*)::int as c from queued');
      const copied = q.copyFrom!('copy queued (n) from stdin', ['7\n8\n', '9\n']);
      const after = q.query<{ c: number }>('select count(*)::int as c from queued');
      return [(await first)[0]!.c, await copied, (await after)[0]!.c];
    });
    expect(counts[2]! - counts[0]!).toBe(3);
    expect(counts[1]).toBe(3);
  });

  it('leaves nothing on stderr: no driver deprecation warning (a child process, as a server runs)', async () => {
    // Warnings go to the real process, which a test cannot listen to from inside jest's sandbox.
    const script = `
      const { Database } = require(${JSON.stringify(path.join(SRC, 'db', 'pool.ts'))});
      const { createLogger } = require(${JSON.stringify(path.join(SRC, 'logger.ts'))});
      const db = new Database(process.env.URL, { log: createLogger('silent') });
      db.tx((q) => Promise.all([1, 2, 3, 4].map((n) => q.query('select $1::int as n', [n]))))
        .then((r) => console.log(JSON.stringify(r.map((rows) => rows[0].n))))
        .finally(() => db.close());`;
    const out = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, URL: t.url } }, (err, stdout, stderr) =>
        err ? reject(err) : resolve({ stdout, stderr }),
      ),
    );
    expect(out).toEqual({ stdout: '[1,2,3,4]\n', stderr: '' });
  }, 30_000);
});
