import pg from 'pg';
import { Database } from '../../src/db/pool';
import { createTestDb, embedded, testLog, testUrl, type TestDb } from '../helpers/db';

/**
 * On PGlite every connection shares one session, so a statement one connection prepared is there for all of a
 * Database's connections (and a name another process prepared must never collide with ours). Prepared once per
 * session per Database, run by whichever connection, gone with the Database. On a server each connection prepares
 * its own, as before: the checks of the session's statements only hold on PGlite.
 */
describe('prepared statements on a shared session', () => {
  let t: TestDb;
  const other = () => new Database(testUrl(), { log: testLog(), searchPath: t.schema });
  /** The session's prepared statements (PGlite: every connection's; a server: the asking connection's own). */
  const prepared = async (db: Database, text: string) =>
    (await db.query<{ name: string }>(`select name from pg_prepared_statements where statement = '${text.replace(/'/g, "''")}'`)).map(
      (r) => r.name,
    );
  const SQL = 'select count(*)::int as n from users where principal_name <> $1';

  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.drop());

  it('prepares a statement once for every connection of a Database, which all run it', async () => {
    // A fresh Database's first callers each open a connection (the session is not yet known to be shared), then take
    // the session in turns; once it is known, callers wait for their turn before they take a connection.
    const db = other();
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => db.query<{ n: number }>(SQL, [`nobody-${i}`])));
      expect(results.map((r) => r[0]!.n)).toEqual(Array(12).fill(results[0]![0]!.n));
      if (!embedded()) return;
      expect(db.pool.totalCount).toBeGreaterThan(1);
      expect(await prepared(db, SQL)).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it("keeps two Databases' names apart on the one session, and each Database's go with it", async () => {
    const second = other();
    try {
      expect((await second.query<{ n: number }>(SQL, ['x']))[0]!.n).toBeGreaterThanOrEqual(0);
      expect((await t.db.query<{ n: number }>(SQL, ['x']))[0]!.n).toBeGreaterThanOrEqual(0);
      if (embedded()) expect(new Set(await prepared(t.db, SQL)).size).toBe(2);
    } finally {
      await second.close();
    }
    if (embedded()) expect(await prepared(t.db, SQL)).toHaveLength(1);
  });

  it('prepares at most a thousand statement texts, and runs the rest unnamed', async () => {
    if (!embedded()) return;
    const db = other();
    try {
      // Texts that differ as a request's filters make them differ.
      for (let i = 0; i < 1_050; i++) await db.query(`select $1::int + ${i} as n`, [1]);
      const names = await db.query<{ n: number }>(
        `select count(*)::int as n from pg_prepared_statements where statement like 'select $1::int + %'`,
      );
      expect(names[0]!.n).toBe(1_000);
      expect((await db.query<{ n: number }>('select $1::int + 1049 as n', [1]))[0]!.n).toBe(1_050);
    } finally {
      await db.close();
    }
  });

  it('prepares again a statement the session lost (DEALLOCATE from elsewhere), after one failed run', async () => {
    if (!embedded()) return;
    const [name] = await prepared(t.db, SQL);
    const c = new pg.Client({ connectionString: testUrl() });
    await c.connect();
    await c.query(`deallocate ${name}`);
    await c.end();
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push(
        await t.db.query<{ n: number }>(SQL, ['y']).then(
          () => 'ok',
          (e: Error) => e.constructor.name,
        ),
      );
    expect(runs.slice(-2)).toEqual(['ok', 'ok']);
    expect(await prepared(t.db, SQL)).toHaveLength(1);
  });
});
