import request from 'supertest';
import { ADMIN_PASSWORD, expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { eventually } from '../helpers/eventually';

type Log = Record<string, unknown> & { id: number; action: string; status: string; fields: Record<string, unknown>; commit_id: string };

/** The audit log: every mutation and sign-in, written with its change; BloodHound's GET /api/v2/audit. */
describe('audit log', () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const audit = async (q: string, jwt = t.adminJwt) => {
    const res = await request(t.app).get(`/api/v2/audit${q}`).set(as(jwt));
    expect(res.status).toBe(200);
    return res.body as { count: number; skip: number; limit: number; data: { logs: Log[] } };
  };
  const roleId = async (name: string) =>
    (await request(t.app).get('/api/v2/roles').set(as(t.adminJwt))).body.data.roles.find((r: { name: string }) => r.name === name).id;

  it('a REST mutation is recorded with who, what (no secrets), when, where, the request id and the outcome', async () => {
    const secret = 'audit-secret-value-1234';
    const res = await request(t.app)
      .post('/api/v2/bloodhound-users')
      .set(as(t.adminJwt))
      .send({ principal: 'audited-user', secret, roles: [await roleId('User')] })
      .expect(200);
    const logs = (await audit(`?action=eq:CreateUser&request_id=eq:${res.headers.requestid}`)).data.logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      actor_name: 'admin',
      actor_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      action: 'CreateUser',
      status: 'success',
      request_id: res.headers.requestid,
      source_ip_address: expect.stringMatching(/\d/),
      created_at: expect.stringMatching(/^\d{4}-/),
      commit_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(logs[0]!.fields).toMatchObject({ input: { principalName: 'audited-user', password: '[redacted]' } });
    const [all] = await t.testDb.db.query<{ text: string }>("select string_agg(fields::text, ' ') as text from audit_logs");
    expect(all!.text).not.toContain(secret);
  });

  it('a refused or failed mutation leaves only its failure row; the change is not made', async () => {
    const plain = await userWithRole(t, 'User');
    const body = { principal: 'not-created', secret: 'a-long-enough-secret', roles: [await roleId('User')] };
    const refused = await request(t.app).post('/api/v2/bloodhound-users').set(as(plain.jwt)).send(body);
    expectWrapper(refused, 403);
    // Refused at the route, before the operation ran: BloodHound's UnauthorizedAccessAttempt, written as the response ends.
    const byRequest = async (id: string) => (await audit(`?request_id=eq:${id}`)).data.logs;
    await eventually(async () => (await byRequest(refused.headers.requestid)).length > 0, 'refusal row');
    expect(await byRequest(refused.headers.requestid)).toEqual([
      expect.objectContaining({
        action: 'UnauthorizedAccessAttempt',
        status: 'failure',
        actor_id: plain.id,
        fields: { method: 'POST', path: '/api/v2/bloodhound-users', status: 403 },
      }),
    ]);
    // Refused by the operation's own guard (GraphQL), the row names the mutation.
    const gql = await request(t.app)
      .post('/graphql')
      .set(as(plain.jwt))
      .send({ query: 'mutation { deleteUser(id: "00000000-0000-0000-0000-000000000000") }' });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await byRequest(gql.headers.requestid)).toEqual([
      expect.objectContaining({
        action: 'DeleteUser',
        status: 'failure',
        actor_id: plain.id,
        fields: expect.objectContaining({ code: 'FORBIDDEN' }),
      }),
    ]);
    expect(await t.testDb.db.query("select 1 from users where principal_name = 'not-created'")).toEqual([]);
    const dup = await request(t.app)
      .post('/api/v2/bloodhound-users')
      .set(as(t.adminJwt))
      .send({ ...body, principal: 'admin' });
    expectWrapper(dup, 409);
    expect((await audit(`?request_id=eq:${dup.headers.requestid}`)).data.logs.map((l) => l.status)).toEqual(['failure']);
  });

  it('a change and its row are one transaction: when the row cannot be written, the change is rolled back', async () => {
    await t.testDb.db.execute("alter table audit_logs add constraint audit_test_block check (action <> 'CreateAuthToken')");
    try {
      const before = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from auth_tokens');
      const res = await request(t.app).post('/api/v2/tokens').set(as(t.adminJwt)).send({ token_name: 'never-stored' });
      expect(res.status).toBeGreaterThanOrEqual(500);
      const after = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from auth_tokens');
      expect(after[0]!.n).toBe(before[0]!.n);
    } finally {
      await t.testDb.db.execute('alter table audit_logs drop constraint audit_test_block');
    }
    await request(t.app).post('/api/v2/tokens').set(as(t.adminJwt)).send({ token_name: 'stored' }).expect(200);
    expect((await audit('?action=eq:CreateAuthToken&status=eq:success')).data.logs).toHaveLength(1);
  });

  it('every sign-in is recorded: success with its user, a wrong password and an unknown name as failures', async () => {
    const u = await userWithRole(t, 'User');
    await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: u.name, secret: 'wrong-password!' }).expect(401);
    await request(t.app)
      .post('/api/v2/login')
      .send({ login_method: 'secret', username: 'nobody-here', secret: 'whatever-secret' })
      .expect(401);
    const logs = (await audit('?action=eq:LoginAttempt&sort_by=id')).data.logs;
    expect(logs.find((l) => l.status === 'success' && l.actor_id === u.id)).toBeTruthy();
    expect(logs.find((l) => l.status === 'failure' && l.actor_name === u.name)?.fields).toMatchObject({
      username: u.name,
      code: 'UNAUTHENTICATED',
    });
    expect(logs.find((l) => l.status === 'failure' && (l.fields as { username?: string }).username === 'nobody-here')).toMatchObject({
      actor_id: '',
      actor_name: '',
    });
    expect(JSON.stringify(logs)).not.toContain('wrong-password!');
  });

  it('work that cannot be one transaction gets an intent row, then its outcome, under one commit id', async () => {
    const u = await userWithRole(t, 'User');
    await request(t.app).post(`/api/v2/bloodhound-users/${u.id}/mfa`).set(as(u.jwt)).send({ secret: 'a-long-test-password' }).expect(200);
    const rows = (await audit(`?action=eq:EnrollMFA&actor_id=eq:${u.id}&sort_by=id`)).data.logs;
    expect(rows.map((l) => l.status)).toEqual(['intent', 'success']);
    expect(rows[0]!.commit_id).toBe(rows[1]!.commit_id);
    expect(rows[0]!.fields).toMatchObject({ secret: '[redacted]' });
  });

  it('filters, sort_by, skip/limit and the before/after window as BloodHound; bad ones are 400; audit_log/Read only', async () => {
    const page = await audit('?limit=2&skip=1&sort_by=id');
    expect(page.limit).toBe(2);
    expect(page.skip).toBe(1);
    expect(page.data.logs).toHaveLength(2);
    expect(page.count).toBeGreaterThan(3);
    expect(page.data.logs[0]!.id).toBeLessThan(page.data.logs[1]!.id);
    const desc = (await audit('?sort_by=-id&limit=5')).data.logs.map((l) => l.id);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect((await audit('?status=eq:failure')).data.logs.every((l) => l.status === 'failure')).toBe(true);
    expect((await audit('?action=~eq:login')).data.logs.every((l) => l.action === 'LoginAttempt')).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(
      (await audit(`?after=${encodeURIComponent(future)}&before=${encodeURIComponent(new Date(Date.now() + 7200_000).toISOString())}`))
        .count,
    ).toBe(0);
    expect((await audit(`?created_at=gt:${encodeURIComponent(future)}`)).count).toBe(0);

    for (const q of [
      '?nope=eq:1&id=zz:1',
      '?id=eq:abc',
      '?status=eq:maybe',
      '?actor_id=gt:x',
      '?sort_by=fields',
      '?before=yesterday',
      '?limit=-1',
    ])
      expectWrapper(await request(t.app).get(`/api/v2/audit${q}`).set(as(t.adminJwt)), 400);
    expectWrapper(await request(t.app).get(`/api/v2/audit?after=${future}&before=2020-01-01T00:00:00Z`).set(as(t.adminJwt)), 400);
    const plain = await userWithRole(t, 'User');
    expectWrapper(await request(t.app).get('/api/v2/audit').set(as(plain.jwt)), 403);
    expectWrapper(await request(t.app).get('/api/v2/audit'), 401);
  });

  it('GraphQL reads the same log and sets the retention; rows past it are removed', async () => {
    await t.testDb.db.execute(
      "insert into audit_logs (created_at, action, status) values (now() - interval '400 days', 'Ancient', 'success')",
    );
    const gql = (query: string, variables = {}) => request(t.app).post('/graphql').set(as(t.adminJwt)).send({ query, variables });
    expect((await gql('{ auditRetentionDays }')).body).toEqual({ data: { auditRetentionDays: 365 } });
    expect((await gql('mutation { setAuditRetention(days: 30) }')).body).toEqual({ data: { setAuditRetention: 30 } });
    const [old] = await t.testDb.db.query<{ n: number }>("select count(*)::int as n from audit_logs where action = 'Ancient'");
    expect(old!.n).toBe(0);
    const res = await gql('query($f: [ColumnFilter!]) { auditLogs(filters: $f, limit: 1) { count logs { action status actorName } } }', {
      f: [{ column: 'action', operator: 'eq', value: 'SetAuditRetention' }],
    });
    expect(res.body.data.auditLogs).toEqual({ count: 1, logs: [{ action: 'SetAuditRetention', status: 'success', actorName: 'admin' }] });
    expect((await gql('mutation { setAuditRetention(days: 0) }')).body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(ADMIN_PASSWORD).toBeTruthy();
  });
});
