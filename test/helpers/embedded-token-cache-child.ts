import pg from 'pg';
import pino from 'pino';
import request from 'supertest';
import { AUTH_CHANNEL } from '../../src/db/auth-listener';
import { startEmbedded } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';
import { Database } from '../../src/db/pool';
import { createLogger } from '../../src/logger';
import { compose, type Composed } from '../../src/main/compose';
import { ADMIN_PASSWORD, apiToken, login, signed, testConfig, type ApiToken } from './app';

/**
 * The scenarios of test/http/embedded-token-cache.test.ts, in a plain Node process (Jest's sandbox cannot load
 * PGlite) on an in-process embedded database as `gas serve` opens it: prints what each saw as one JSON object.
 */
async function main(): Promise<void> {
  const log = createLogger('silent');
  const embedded = await startEmbedded('memory://', log, { channels: [AUTH_CHANNEL] });
  const db = new Database(embedded.url, { log, inProcess: embedded });
  // Another connection to the socket, as `gas user disable` or psql on a running server's socket would be.
  const other = new pg.Client({ connectionString: embedded.url });
  const apps: Composed[] = [];
  try {
    await migrate(db, log);
    await other.connect();
    const config = testConfig();
    // Moved forward to get past the once-a-second coalescing of last_access writes.
    let skewMs = 0;
    const app = async (notices: boolean, appLog = log) => {
      const c = await compose({
        db,
        config,
        log: appLog,
        clock: () => new Date(Date.now() + skewMs),
        storage: 'embedded',
        ...(notices && { authNotices: (listener: { notice(): void; lost(): void }) => embedded.onNotice(AUTH_CHANNEL, listener) }),
      });
      apps.push(c);
      return c.app;
    };
    // The served app's warnings are kept: a failed last_access write must be logged, not thrown.
    const warnings: string[] = [];
    const served = await app(true, pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }));
    const unserved = await app(false);
    await apps[0]!.services.identity.ensureAdmin(ADMIN_PASSWORD);
    const adminJwt = await login(served);

    const self = async (a: typeof served, token: ApiToken) => (await signed(a, token, 'GET', '/api/v2/self')).status;
    /** Changes rows with the triggers off (no notice): what only a fresh read sees. */
    const silently = async (sql: string, params: unknown[]) => {
      await other.query('begin');
      await other.query('set local session_replication_role = replica');
      await other.query(sql, params);
      await other.query('commit');
    };
    /**
     * A request, then the same once the token is hidden without a notice: 200 twice when the cache answers. A
     * token's first request pins its clock offset, a change that notifies: the principal is kept from the second.
     */
    const hiddenSilently = async (a: typeof served, token: ApiToken) => {
      await self(a, token);
      const before = await self(a, token);
      await silently('update auth_tokens set deleted_at = now() where id = $1', [token.id]);
      const hidden = await self(a, token);
      await silently('update auth_tokens set deleted_at = null where id = $1', [token.id]);
      return { before, hidden };
    };
    const userToken = async (role: string) => {
      const name = `u-${role.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`;
      const user = await apps[0]!.services.identity.createUser({ principalName: name, password: 'a-long-test-password', role });
      return { id: user.id, token: await apiToken(served, await login(served, name, 'a-long-test-password')) };
    };
    const seen: Record<string, unknown> = {};

    const t1 = await apiToken(served, adminJwt);
    seen.cached = await hiddenSilently(served, t1);
    seen.uncached = await hiddenSilently(unserved, t1);

    const t2 = await apiToken(served, adminJwt);
    const t2cached = await hiddenSilently(served, t2);
    const deleted = await request(served).delete(`/api/v2/tokens/${t2.id}`).set('Authorization', `Bearer ${adminJwt}`);
    seen.deletedByApi = { cached: t2cached, delete: deleted.status, next: await self(served, t2) };

    const t3 = await apiToken(served, adminJwt);
    const t3cached = await hiddenSilently(served, t3);
    await other.query('delete from auth_tokens where id = $1', [t3.id]);
    seen.deletedByOtherConnection = { cached: t3cached, next: await self(served, t3) };

    const t4 = await apiToken(served, adminJwt);
    const t4cached = await hiddenSilently(served, t4);
    await other.query('begin');
    await other.query('delete from auth_tokens where id = $1', [t4.id]);
    await other.query('rollback');
    // No notice from a rolled-back change: the cache still answers, and the token is still good.
    seen.deleteRolledBack = { cached: t4cached, after: await hiddenSilently(served, t4) };

    const u = await userToken('User');
    const ucached = await hiddenSilently(served, u.token);
    await other.query('update users set is_disabled = true where id = $1', [u.id]);
    const disabled = await signed(served, u.token, 'GET', '/api/v2/self');
    await other.query('update users set is_disabled = false where id = $1', [u.id]);
    seen.ownerDisabledByOtherConnection = {
      cached: ucached,
      disabled: { status: disabled.status, message: disabled.body?.errors?.[0]?.message },
      enabled: await self(served, u.token),
    };

    const a = await userToken('Administrator');
    const acached = await hiddenSilently(served, a.token);
    const before = (await signed(served, a.token, 'GET', '/api/v2/bloodhound-users')).status;
    await other.query(`update users_roles set role_id = (select id from roles where name = 'User') where user_id = $1`, [a.id]);
    seen.roleChangedByOtherConnection = {
      cached: acached,
      before,
      after: (await signed(served, a.token, 'GET', '/api/v2/bloodhound-users')).status,
    };

    // A transaction held on the shared session (an ingest's file transaction, say): a kept token's answer that
    // needs no other read does not wait for its last_access write, which lands once the transaction ends.
    const t6 = await apiToken(served, adminJwt);
    await self(served, t6);
    await self(served, t6);
    const lastAccess = async () =>
      (
        (await other.query('select last_access from auth_tokens where id = $1', [t6.id])).rows[0] as { last_access: Date }
      ).last_access.getTime();
    const touchedBefore = await lastAccess();
    skewMs += 2000;
    await other.query('begin');
    await other.query('select 1 from auth_tokens where id = $1 for update', [t6.id]);
    const answer = signed(served, t6, 'GET', '/api/version').then((r) => r.status);
    const during = await Promise.race([answer, new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5000))]);
    await other.query('commit');
    await answer;
    let moved = false;
    for (let i = 0; i < 100 && !moved; i++, await new Promise((r) => setTimeout(r, 50))) moved = (await lastAccess()) > touchedBefore;
    seen.touchBehindTransaction = { during, lastAccessMoved: moved };

    // A last_access write that fails (here it would break a constraint) is logged; the answer stands.
    skewMs += 2000;
    await other.query(`alter table auth_tokens add constraint touch_refused check (last_access < '2000-01-01') not valid`);
    const refusedStatus = (await signed(served, t6, 'GET', '/api/version')).status;
    const logged = () => warnings.some((w) => w.includes("could not record an API token's last use"));
    for (let i = 0; i < 100 && !logged(); i++) await new Promise((r) => setTimeout(r, 50));
    await other.query('alter table auth_tokens drop constraint touch_refused');
    seen.touchRefused = { status: refusedStatus, logged: logged() };

    // Last: a statement that ends the session's LISTENs turns the cache off for good (notices could be missed).
    const t5 = await apiToken(served, adminJwt);
    const t5cached = await hiddenSilently(served, t5);
    await other.query('unlisten *');
    seen.unlistened = { cached: t5cached, after: await hiddenSilently(served, t5) };

    process.stdout.write(JSON.stringify(seen));
  } finally {
    for (const c of apps) await c.stop();
    await other.end().catch(() => undefined);
    await db.close();
    await embedded.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
