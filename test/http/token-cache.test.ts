import pg from 'pg';
import request from 'supertest';
import { apiToken, createTestApp, expectWrapper, login, signed, userWithRole, type ApiToken, type TestApp } from '../helpers/app';
import { FEED_NAME } from '../../src/db/auth-listener';
import { testLog, testUrl } from '../helpers/db';
import { Database } from '../../src/db/pool';
import { compose } from '../../src/main/compose-app';
import { eventually } from '../helpers/eventually';

/**
 * Token principals are cached between signed requests on PostgreSQL (dropped on every LISTEN/NOTIFY notice from
 * migration 0020's triggers), on the embedded cluster as on a server. Revocation must still take effect on the
 * very next request.
 */
describe('signed requests right after revocation', () => {
  let t: TestApp;
  let adminJwt: string;
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  beforeAll(async () => {
    t = await createTestApp();
    adminJwt = await login(t.app);
  });
  afterAll(() => t.close());

  const sql = (text: string, params: unknown[] = []) => t.testDb.db.query(text, params);
  /** Changes rows without firing triggers (no notice): what a cache that misses a notice would not see. */
  const silently = (text: string, params: unknown[]) =>
    t.testDb.db.tx(async (q) => {
      await q.query('set local session_replication_role = replica');
      await q.query(text, params);
    });

  /**
   * On PostgreSQL, waits until the cache answers for `token` (a request succeeds while its row is hidden without a
   * notice), so the revocation that follows is tested against a cached principal, not a fresh read.
   */
  async function cached(token: ApiToken): Promise<void> {
    for (const started = Date.now(); Date.now() - started < 10_000;) {
      expect((await signed(t.app, token, 'GET', '/api/v2/self')).status).toBe(200);
      await silently('update auth_tokens set deleted_at = now() where id = $1', [token.id]);
      const served = (await signed(t.app, token, 'GET', '/api/v2/self')).status === 200;
      await silently('update auth_tokens set deleted_at = null where id = $1', [token.id]);
      if (served) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the token principal cache never answered (is the auth change feed listening?)');
  }

  it('a token deleted through the API is refused on the next request', async () => {
    const token = await apiToken(t.app, adminJwt);
    await cached(token);
    await request(t.app).delete(`/api/v2/tokens/${token.id}`).set(as(adminJwt)).expect(204);
    expect(expectWrapper(await signed(t.app, token, 'GET', '/api/v2/self'), 401).message).toMatch(/unknown API token/);
  });

  it('a token deleted by plain SQL (no service involved: only the trigger notices) is refused next', async () => {
    const token = await apiToken(t.app, adminJwt);
    await cached(token);
    await sql('delete from auth_tokens where id = $1', [token.id]);
    expectWrapper(await signed(t.app, token, 'GET', '/api/v2/self'), 401);
  });

  it('a change made by another process reaches this server as a notice', async () => {
    const token = await apiToken(t.app, adminJwt);
    await cached(token);
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      await other.query(`set search_path to ${pg.escapeIdentifier(t.testDb.schema)}`);
      await other.query('delete from auth_tokens where id = $1', [token.id]);
    } finally {
      await other.end();
    }
    // Without the notice the cache would accept the token for good; with it, a later request is refused.
    await eventually(async () => (await signed(t.app, token, 'GET', '/api/v2/self')).status === 401, 'the deleted token refused');
  });

  it('serves nothing from the cache while the listening connection is gone, and caches again once it is back', async () => {
    const token = await apiToken(t.app, adminJwt);
    await cached(token);
    await sql(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [FEED_NAME]);
    // Hidden without a notice: only a fresh read sees it; the cache must be off by the time the loss is seen.
    await silently('update auth_tokens set deleted_at = now() where id = $1', [token.id]);
    await eventually(async () => (await signed(t.app, token, 'GET', '/api/v2/self')).status === 401, 'the hidden token refused');
    await silently('update auth_tokens set deleted_at = null where id = $1', [token.id]);
    await cached(token); // reconnected: served from the cache again
  });

  it('a disabled owner is refused on the next request, and accepted again once enabled', async () => {
    const u = await userWithRole(t, 'User');
    const token = await apiToken(t.app, u.jwt);
    await cached(token);
    await request(t.app).patch(`/api/v2/bloodhound-users/${u.id}`).set(as(adminJwt)).send({ is_disabled: true }).expect(200);
    expect(expectWrapper(await signed(t.app, token, 'GET', '/api/v2/self'), 401).message).toMatch(/owner is disabled/);
    await request(t.app).patch(`/api/v2/bloodhound-users/${u.id}`).set(as(adminJwt)).send({ is_disabled: false }).expect(200);
    expect((await signed(t.app, token, 'GET', '/api/v2/self')).status).toBe(200);
  });

  it('a changed role takes effect on the next request, both ways', async () => {
    const roleId = async (name: string) => (await sql('select id from roles where name = $1', [name]))[0]!.id as number;
    const u = await userWithRole(t, 'Administrator');
    const token = await apiToken(t.app, u.jwt);
    await cached(token);
    expect((await signed(t.app, token, 'GET', '/api/v2/bloodhound-users')).status).toBe(200);
    await request(t.app)
      .patch(`/api/v2/bloodhound-users/${u.id}`)
      .set(as(adminJwt))
      .send({ roles: [await roleId('User')] })
      .expect(200);
    expectWrapper(await signed(t.app, token, 'GET', '/api/v2/bloodhound-users'), 403);
    await sql('insert into users_roles (user_id, role_id) values ($1, $2)', [u.id, await roleId('Administrator')]);
    expect((await signed(t.app, token, 'GET', '/api/v2/bloodhound-users')).status).toBe(200);
  });

  it('a signed request still arriving after the services stopped opens no change feed', async () => {
    const db = new Database(testUrl(), { log: testLog(), searchPath: t.testDb.schema });
    try {
      const other = await compose({ db, config: t.config, log: testLog(), clock: t.clock.now, storage: 'postgres' });
      const token = await apiToken(t.app, adminJwt);
      await other.stop();
      expect((await signed(other.app, token, 'GET', '/api/v2/self')).status).toBe(200);
      // An open feed makes every pooled connection listen (an 'acquire' hook) and keeps a connection of its own.
      expect(db.pool.listenerCount('acquire')).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("a last_access write held up by a lock on the token's row neither holds the answer nor piles up", async () => {
    const token = await apiToken(t.app, adminJwt);
    await cached(token);
    const lastAccess = async () =>
      ((await sql('select last_access from auth_tokens where id = $1', [token.id]))[0] as { last_access: Date }).last_access;
    const before = await lastAccess();
    let blockedMost = 0;
    await t.testDb.db.tx(async (q) => {
      const [{ pid }] = await q.query<{ pid: number }>('select pg_backend_pid() as pid from auth_tokens where id = $1 for update', [
        token.id,
      ]);
      for (let i = 0; i < 4; i++) {
        t.clock.advance(2000); // past the once-a-second coalescing: each request would write
        expect((await signed(t.app, token, 'GET', '/api/version')).status).toBe(200);
      }
      // The writes this lock holds up: one for the token, however many requests came meanwhile. Read on another
      // connection (a transaction sees pg_stat_activity as of its first read); waiters queue behind the first
      // waiter's tuple lock, so those blocked by this lock or, transitively, by one that is.
      for (let i = 0; i < 20; i++, await new Promise((r) => setTimeout(r, 50))) {
        const rows = await sql(
          `with recursive blocked(pid) as (
             select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))
             union select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid)))
           select count(*)::int as n from pg_stat_activity join blocked using (pid) where query like '-- tokens.touch%'`,
          [pid],
        );
        blockedMost = Math.max(blockedMost, (rows[0] as { n: number }).n);
      }
    });
    expect(blockedMost).toBe(1);
    await eventually(async () => (await lastAccess()).getTime() > before.getTime(), 'last_access moved');
  });

  it('a permission taken from a role by plain SQL takes effect on the next request', async () => {
    const u = await userWithRole(t, 'Administrator');
    const token = await apiToken(t.app, u.jwt);
    await cached(token);
    await sql(
      `delete from roles_permissions rp using roles r, permissions p
       where rp.role_id = r.id and rp.permission_id = p.id and r.name = 'Administrator' and p.authority = 'auth' and p.name = 'ManageUsers'`,
    );
    expectWrapper(await signed(t.app, token, 'GET', '/api/v2/bloodhound-users'), 403);
  });
});
