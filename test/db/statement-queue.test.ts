import { execFile } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { createTestDb, type TestDb } from '../helpers/db';

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

  it('queues a COPY behind the statements before it and ahead of those after it', async () => {
    const counts = await t.db.tx(async (q) => {
      const first = q.query<{ c: number }>('select count(*)::int as c from queued');
      const copied = q.copyFrom!('copy queued (n) from stdin', ['7\n8\n', '9\n']);
      const after = q.query<{ c: number }>('select count(*)::int as c from queued');
      return [(await first)[0]!.c, await copied, (await after)[0]!.c];
    });
    expect(counts[2]! - counts[0]!).toBe(3);
    expect(counts[1]).toBe(3);
  });

  // Rows given as buffers are written behind the statement without waiting for the server to ask (copy-in.ts).
  it('runs a COPY sent with its rows, and statements around it in one string', async () => {
    const rows = await t.db.tx(async (q) => {
      const copied = await q.copyFrom!('savepoint around; copy queued (n) from stdin; release savepoint around', [
        Buffer.from('5011\n5012\n'),
        Buffer.alloc(0),
        Buffer.from('5013\n'),
      ]);
      const seen = await q.query<{ n: number }>('select n from queued where n between 5011 and 5013 order by n');
      return { copied, seen: seen.map((r) => r.n) };
    });
    expect(rows).toEqual({ copied: 3, seen: [5011, 5012, 5013] });
  });

  it('sends rows given as text by their bytes, whatever the characters', async () => {
    await t.db.query('create table if not exists copied_text (s text not null)');
    const names = ['Ådministratör', 'José', '管理者', 'plain'];
    const copied = await t.db.tx((q) =>
      q.copyFrom!('copy copied_text (s) from stdin', [names.slice(0, 2).join('\n') + '\n', names.slice(2).join('\n') + '\n']),
    );
    expect(copied).toBe(4);
    expect((await t.db.query<{ s: string }>('select s from copied_text')).map((r) => r.s).sort()).toEqual([...names].sort());
  });

  it('recovers from a COPY that fails part-way through rows already sent', async () => {
    await t.db.query('create table if not exists copied_once (n int primary key)');
    const many = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${1000 + i}\n`).join('')); // ~1.4 MB after the duplicate
    const outcome = await t.db.tx(async (q) => {
      await q.copyFrom!('copy copied_once (n) from stdin', [Buffer.from('1\n2\n')]);
      const failed = await q.copyFrom!('savepoint s; copy copied_once (n) from stdin; release savepoint s', [
        Buffer.from('3\n1\n'),
        many,
      ]).then(
        () => 'written',
        (err: { code?: string }) => err.code,
      );
      // The server skipped the rest of the rows; the connection is in step, and the savepoint undoes the COPY.
      await q.query('rollback to savepoint s');
      const kept = (await q.query<{ n: number }>('select n from copied_once order by n')).map((r) => r.n);
      const badValue = await q.copyFrom!('copy copied_once (n) from stdin', [Buffer.from('x\n'), many]).then(
        () => 'written',
        (err: { code?: string }) => err.code,
      );
      return { failed, kept, badValue };
    });
    expect(outcome).toEqual({ failed: 'CONFLICT', kept: [1, 2], badValue: 'BAD_REQUEST' });
    // The transaction ended in an error (the bad value), so it rolled back as a whole; the connection is reusable.
    expect((await t.db.query<{ c: number }>('select count(*)::int as c from copied_once'))[0]!.c).toBe(0);
    await t.db.tx(async (q) => q.copyFrom!('copy copied_once (n) from stdin', [Buffer.from('5\n')]));
    expect((await t.db.query<{ n: number }>('select n from copied_once')).map((r) => r.n)).toEqual([5]);
  });

  it('rejects a COPY whose connection is lost with its rows in flight, rather than hang', async () => {
    await t.db.query('create table if not exists copy_locked (n int)');
    // One session holds the table, so the COPY waits on the lock with its rows sent; another watches and ends it.
    const [holder, watcher] = [new pg.Client({ connectionString: t.url }), new pg.Client({ connectionString: t.url })];
    await Promise.all([holder.connect(), watcher.connect()]);
    try {
      await holder.query('begin');
      await holder.query(`lock table ${t.schema}.copy_locked in access exclusive mode`);
      const copying = t.db
        .tx(async (q) => q.copyFrom!('copy copy_locked (n) from stdin', [Buffer.from('1\n2\n')]))
        .then(
          () => 'written',
          (err: { code?: string }) => err.code,
        );
      // Each statement of the watcher is its own transaction, so it sees pg_stat_activity afresh.
      let pid: number | undefined;
      while (pid === undefined) {
        const { rows } = await watcher.query<{ pid: number }>(
          `select pid from pg_stat_activity where wait_event_type = 'Lock' and query like 'copy copy_locked%'`,
        );
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      await watcher.query('select pg_terminate_backend($1)', [pid]);
      expect(await copying).toBe('UNAVAILABLE');
    } finally {
      await holder.query('rollback');
      await Promise.all([holder.end(), watcher.end()]);
    }
    // The pool replaces the lost connection.
    expect((await t.db.query<{ n: number }>('select 1 as n'))[0]!.n).toBe(1);
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
