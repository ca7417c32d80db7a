import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { apiToken, createTestApp, expectWrapper, signed, useTestApp, type TestApp } from '../helpers/app';
import { createClient, createEvent } from '../helpers/collectors';
import { TESTLAB } from '../helpers/fixtures';

const DOMAIN_SID = 'S-1-5-21-3130019616-2776909439-2417379446';
const TESTOU = '2A374493-816A-4193-BEFD-D2F4132C6DCA';

describe('a whole collector run', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('schedules, checks in, takes the job, ingests TESTLAB, reports an error and ends; the admin sees all of it', async () => {
    // The admin registers a collector and schedules a daily collection of TESTLAB.
    const client = await createClient(t.app, t.adminJwt, { name: 'testlab-sharphound', domain_controller: 'dc01.testlab.local' });
    const event = await createEvent(t.app, t.adminJwt, {
      client_id: client.id,
      session_collection: true,
      local_group_collection: true,
      ad_structure_collection: true,
      ous: [TESTOU, 'OU-NOT-COLLECTED-YET'],
      domains: [DOMAIN_SID],
    });

    // The scheduler makes the job at the occurrence.
    await t.services.scheduler.tick(new Date(event.next_scheduled_at));

    // The collector checks in and takes its job.
    const checkin = await signed(t.app, client.token, 'PUT', '/api/v2/clients/update', {
      address: '10.0.0.5',
      hostname: 'COLLECTOR01',
      username: 'TESTLAB\\svc_collect',
      version: '2.5.0',
      usersid: 'S-1-5-21-3130019616-2776909439-2417379446-1105',
    });
    expect(checkin.status).toBe(200);
    expect(checkin.body.data).toMatchObject({
      id: client.id,
      ip_address: '10.0.0.5',
      hostname: 'COLLECTOR01',
      configured_user: 'TESTLAB\\svc_collect',
      version: '2.5.0',
      user_sid: { string: 'S-1-5-21-3130019616-2776909439-2417379446-1105', valid: true },
      current_job_id: { valid: false },
    });
    const available = await signed(t.app, client.token, 'GET', '/api/v2/jobs/available');
    expect(available.status).toBe(200);
    expect(available.body.data).toHaveLength(1);
    const job = available.body.data[0];
    expect(job).toMatchObject({
      client_id: client.id,
      client_name: 'testlab-sharphound',
      event_id: { int32: event.id, valid: true },
      status: 0,
      session_collection: true,
      local_group_collection: true,
      domains: [{ objectid: DOMAIN_SID, exists: false }],
    });
    expectWrapper(await signed(t.app, client.token, 'GET', '/api/v2/jobs/current'), 404);
    const started = await signed(t.app, client.token, 'POST', '/api/v2/jobs/start', { id: job.id });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ id: job.id, status: 1, start_time: expect.not.stringMatching(/^0001/) });
    expect((await signed(t.app, client.token, 'GET', '/api/v2/jobs/current')).body.data).toMatchObject({ id: job.id, status: 1 });

    // It streams its collection (AzureHound-style gzip batches for some files) and reports a failed host.
    for (const file of fs.readdirSync(TESTLAB).filter((f) => f.endsWith('.json'))) {
      const raw = fs.readFileSync(path.join(TESTLAB, file));
      const gzip = file.startsWith('g') || file.startsWith('u');
      const body = gzip ? zlib.gzipSync(raw) : raw;
      const req = signed(t.app, client.token, 'POST', '/api/v2/ingest', body);
      if (gzip) req.set('Content-Encoding', 'gzip');
      const res = await req;
      expect({ file, status: res.status }).toEqual({ file, status: 202 });
    }
    const error = await signed(t.app, client.token, 'POST', '/api/v2/clients/error', {
      task_error: 'DC02.TESTLAB.LOCAL did not answer on 445',
      additional: { host: 'DC02.TESTLAB.LOCAL', phase: 'local groups' },
    });
    expect(error.status).toBe(204);
    expect(error.text).toBe('');
    await t.services.datapipe.drain(); // batches are ingested as they arrive

    // While it runs, the admin sees the job on the client (endpoint 7).
    const running = await request(t.app).get(`/api/v2/clients/${client.id}`).set(admin());
    expect(running.body.data).toMatchObject({
      current_job_id: { int64: job.id, valid: true },
      current_task_id: { valid: false },
      current_job: { id: job.id, status: 1, status_message: expect.stringContaining('DC02.TESTLAB.LOCAL did not answer') },
      events: [{ id: event.id, ous: [{ objectid: TESTOU, exists: true, name: 'TESTOU@TESTLAB.LOCAL' }, { exists: false }] }],
    });

    // Endpoint 10: no body means complete. The data is ingested already; analysis follows.
    const ended = await signed(t.app, client.token, 'POST', '/api/v2/jobs/end');
    expect(ended.status).toBe(200);
    const result = ended.body.data;
    expect(Object.keys(result).sort()).toEqual(
      [
        'id',
        'created_at',
        'updated_at',
        'deleted_at',
        'client_id',
        'client_name',
        'event_id',
        'status',
        'statusMessage',
        'execution_time',
        'start_time',
        'end_time',
        'log_path',
        'session_collection',
        'local_group_collection',
        'ad_structure_collection',
        'cert_services_collection',
        'ca_registry_collection',
        'dc_registry_collection',
        'all_trusted_domains',
        'domain_controller',
        'event_title',
        'last_ingest',
        'ous',
        'domains',
        'domain_results',
      ].sort(),
    );
    expect(result).toMatchObject({
      id: job.id,
      client_id: client.id,
      client_name: 'testlab-sharphound',
      event_id: { int32: event.id, valid: true },
      status: 6,
      deleted_at: { valid: false },
      log_path: { string: '', valid: false },
      event_title: 'every day',
      ous: [TESTOU, 'OU-NOT-COLLECTED-YET'],
      domains: [DOMAIN_SID],
      last_ingest: expect.not.stringMatching(/^0001/),
      end_time: expect.not.stringMatching(/^0001/),
    });
    expect(result.domain_results).toEqual([
      expect.objectContaining({
        job_id: job.id,
        domain_name: 'TESTLAB.LOCAL',
        success: true,
        user_count: 17,
        group_count: 30,
        computer_count: 4,
        gpo_count: 7,
        ou_count: 2,
        container_count: 23,
        deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      }),
    ]);
    expectWrapper(await signed(t.app, client.token, 'POST', '/api/v2/jobs/end'), 404);

    // Once analysis ran the job is final: partially complete, because the client reported an error.
    await t.services.datapipe.drain();
    const final = await request(t.app).get(`/api/v2/jobs/${job.id}`).set(admin());
    expect(final.body.data).toMatchObject({ status: 8, statusMessage: expect.stringMatching(/ingested and analyzed/) });
    const after = await request(t.app).get(`/api/v2/clients/${client.id}`).set(admin());
    expect(after.body.data).toMatchObject({ completed_job_count: 1, current_job_id: { valid: false }, current_job: { status: -1 } });

    // The graph has the data: the domain and a user answer, and the event's domain now exists.
    expect((await request(t.app).get(`/api/v2/users/${DOMAIN_SID}-500`).set(admin())).status).toBe(200);
    const events = await request(t.app).get(`/api/v2/events?id=eq:${event.id}`).set(admin());
    expect(events.body.data[0].domains).toEqual([{ objectid: DOMAIN_SID, name: 'TESTLAB.LOCAL', exists: true, type: 'Domain' }]);
    expect(new Date(events.body.data[0].next_scheduled_at).getTime()).toBeGreaterThan(new Date(event.next_scheduled_at).getTime());

    // And through GraphQL.
    const gql = await request(t.app)
      .post('/graphql')
      .set(admin())
      .send({
        query: `query ($id: String!) { client(id: $id) { name hostname completedJobCount currentJob { id }
          jobs { totalCount jobs { status eventId errors { taskError additional } domainResults { domainName userCount } } }
          events { rrule domains { name exists } } } }`,
        variables: { id: client.id },
      });
    expect(gql.body).toEqual({
      data: {
        client: {
          name: 'testlab-sharphound',
          hostname: 'COLLECTOR01',
          completedJobCount: 1,
          currentJob: null,
          jobs: {
            totalCount: 1,
            jobs: [
              {
                status: 'PARTIALLY_COMPLETE',
                eventId: event.id,
                errors: [
                  {
                    taskError: 'DC02.TESTLAB.LOCAL did not answer on 445',
                    additional: { host: 'DC02.TESTLAB.LOCAL', phase: 'local groups' },
                  },
                ],
                domainResults: [{ domainName: 'TESTLAB.LOCAL', userCount: 17 }],
              },
            ],
          },
          events: [{ rrule: event.rrule, domains: [{ name: 'TESTLAB.LOCAL', exists: true }] }],
        },
      },
    });
  });

  it('ends a job with the status the collector reports (AzureHound sends FAILED for orphaned jobs)', async () => {
    const c = await createClient(t.app, t.adminJwt, { type: 'collector_azure' });
    const task = await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({});
    await signed(t.app, c.token, 'POST', '/api/v2/jobs/start', { id: task.body.data.id });
    const ended = await signed(t.app, c.token, 'POST', '/api/v2/jobs/end', {
      status: 'FAILED',
      message: 'This job has been orphaned. Re-run collection for complete data.',
    });
    expect(ended.status).toBe(200);
    expect(ended.body.data).toMatchObject({ status: 5, statusMessage: 'This job has been orphaned. Re-run collection for complete data.' });
  });

  it('answers every collector mistake with a clear 4xx', async () => {
    const c = await createClient(t.app, t.adminJwt);
    const call = (method: 'GET' | 'POST' | 'PUT', target: string, body?: unknown) => signed(t.app, c.token, method, target, body);
    expect(expectWrapper(await call('POST', '/api/v2/jobs/end'), 404)).toEqual({
      context: 'jobs',
      message: 'No job is running for this client.',
    });
    expectWrapper(await call('POST', '/api/v2/ingest', '{"meta":{"type":"users"},"data":[]}'), 404);
    expectWrapper(await call('POST', '/api/v2/jobs/start', { id: 999999 }), 404);
    expect(expectWrapper(await call('POST', '/api/v2/jobs/start', { id: 'one' }), 400).message).toMatch(/id must be a job id/);
    expectWrapper(await call('POST', '/api/v2/jobs/start', {}), 400);
    expect(expectWrapper(await call('POST', '/api/v2/clients/error', { additional: {} }), 400).message).toMatch(/task_error/);
    expect(expectWrapper(await call('POST', '/api/v2/clients/error', { task_error: 'x', additional: [1] }), 400).message).toMatch(
      /additional must be an object/,
    );
    expectWrapper(await call('PUT', '/api/v2/clients/update', { usersid: 'not a sid' }), 400);
    expectWrapper(await call('PUT', '/api/v2/clients/update', { hostname: 12 }), 400);

    const a = await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({});
    const b = await request(t.app).post(`/api/v2/clients/${c.id}/tasks`).set(admin()).send({});
    expect((await call('POST', '/api/v2/jobs/start', { id: a.body.data.id })).status).toBe(200);
    expectWrapper(await call('POST', '/api/v2/jobs/start', { id: b.body.data.id }), 409);
    expectWrapper(await call('POST', '/api/v2/jobs/start', { id: a.body.data.id }), 409);
    expect(expectWrapper(await call('POST', '/api/v2/jobs/end', { status: 'RUNNING' }), 400).message).toMatch(/invalid status/);
    expectWrapper(await call('POST', '/api/v2/jobs/end', { status: true }), 400);
    expectWrapper(await call('POST', '/api/v2/ingest', 'not json at all').set('Content-Type', 'image/png'), 415);
    // an error logged with no job running is kept too
    expect((await call('POST', '/api/v2/jobs/end', { status: 'canceled' })).body.data.status).toBe(3);
    expect((await call('POST', '/api/v2/clients/error', { task_error: 'idle failure' })).status).toBe(204);
    // another client cannot start this client's job
    const other = await createClient(t.app, t.adminJwt);
    expectWrapper(await signed(t.app, other.token, 'POST', '/api/v2/jobs/start', { id: b.body.data.id }), 404);
  });

  it('answers users on client-only routes with 404, and clients on admin routes with 403', async () => {
    const userToken = await apiToken(t.app, t.adminJwt);
    for (const [method, target, body] of [
      ['PUT', '/api/v2/clients/update', {}],
      ['GET', '/api/v2/jobs/available', undefined],
      ['GET', '/api/v2/jobs/current', undefined],
      ['POST', '/api/v2/jobs/start', { id: 1 }],
      ['POST', '/api/v2/jobs/end', undefined],
      ['POST', '/api/v2/clients/error', { task_error: 'x' }],
      // POST /api/v2/ingest takes a user's body too (test/http/client-calls.test.ts).
    ] as const) {
      const res = await signed(t.app, userToken, method, target, body);
      expect({ target, status: res.status }).toEqual({ target, status: 404 });
    }
    const c = await createClient(t.app, t.adminJwt);
    expectWrapper(await signed(t.app, c.token, 'GET', '/api/v2/clients'), 403);
    expectWrapper(await signed(t.app, c.token, 'GET', `/api/v2/clients/${c.id}`), 403);
    expectWrapper(await signed(t.app, c.token, 'POST', '/api/v2/events', { client_id: c.id, rrule: 'x' }), 403);
  });
});

describe('collector management in the community edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ edition: 'community' });
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/v2/clients/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/v2/jobs/end'],
    ['POST', '/api/v2/clients/error'],
    ['GET', '/api/v2/events'],
    ['POST', '/api/v2/events'],
    ['PUT', '/api/v2/clients/update'],
    ['GET', '/api/v2/jobs/available'],
  ] as const)('%s %s answers 404 in the wrapper', async (method, target) => {
    const jwt = (
      await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: 'admin', secret: 'admin-password-for-tests' })
    ).body.data.session_token;
    const res = await request(t.app)[method.toLowerCase() as 'get'](target).set('Authorization', `Bearer ${jwt}`);
    expectWrapper(res, 404);
  });

  it('still lists collector releases (both editions)', async () => {
    const jwt = (
      await request(t.app).post('/api/v2/login').send({ login_method: 'secret', username: 'admin', secret: 'admin-password-for-tests' })
    ).body.data.session_token;
    const res = await request(t.app).get('/api/v2/collectors/collector_ad').set('Authorization', `Bearer ${jwt}`);
    expect(res.body).toEqual({ data: { latest: '', versions: [] } });
  });
});
