import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { createClient, createEvent, DAILY } from '../helpers/collectors';

describe('collection events (endpoints 16 and 17)', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const post = (body: Record<string, unknown>) => request(t.app).post('/api/v2/events').set(admin()).send(body);
  const list = (query: string) => request(t.app).get(`/api/v2/events${query}`).set(admin());
  const ids = (res: request.Response) => res.body.data.map((e: { id: number }) => e.id);

  describe('POST /api/v2/events', () => {
    it('creates an event with the next occurrence scheduled, keeping unknown OUs and domains', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const res = await post({
        client_id: c.id,
        rrule: DAILY,
        session_collection: true,
        ad_structure_collection: true,
        ous: ['2a374493-816a-4193-befd-d2f4132c6dca'],
        domains: ['S-1-5-21-1-2-3'],
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        client_id: c.id,
        rrule: DAILY,
        next_scheduled_at: expect.stringMatching(/T02:00:00/),
        session_collection: true,
        local_group_collection: false,
        ad_structure_collection: true,
        cert_services_collection: false,
        ca_registry_collection: false,
        dc_registry_collection: false,
        all_trusted_domains: false,
        ous: [{ objectid: '2A374493-816A-4193-BEFD-D2F4132C6DCA', name: '', exists: false, distinguishedname: '', type: '' }],
        domains: [{ objectid: 'S-1-5-21-1-2-3', name: '', exists: false, type: '' }],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      });
      const next = new Date(res.body.data.next_scheduled_at).getTime();
      expect(next).toBeGreaterThanOrEqual(Date.now() - 1000);
      expect(next).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      // js-client-library asks for object ids only
      const bare = await request(t.app)
        .post('/api/v2/events?hydrate_ous=false&hydrate_domains=false')
        .set(admin())
        .send({ client_id: c.id, rrule: DAILY, ous: ['ou-1'] });
      expect(bare.body.data).toMatchObject({ ous: ['OU-1'], domains: [] });
    });

    it.each([
      [{ rrule: 'RRULE:FREQ=DAILY' }, /DTSTART is required/],
      [{ rrule: 'DTSTART:20240101T000000Z' }, /one RRULE line/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=BOGUS' }, /invalid rrule specified: Invalid frequency/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=DAILY;FOO=1' }, /Unknown RRULE property 'FOO'/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=25' }, /BYHOUR value "25" is out of range/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=MINUTELY;INTERVAL=5' }, /more often than every 15 minutes/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=900' }, /SECONDLY/],
      [{ rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=DAILY\nEXDATE:20240102T000000Z' }, /only DTSTART and RRULE/],
      [{ rrule: 42 }, /rrule must be a string/],
      [{ rrule: undefined }, /rrule is required/],
      [{ session_collection: 'yes' }, /session_collection must be true or false/],
      [{ ous: 'OU-1' }, /ous must be an array of strings/],
      [{ domains: [1] }, /domains must be an array of strings/],
      [{ client_id: 'nope' }, /client_id is required/],
    ])('400 for %j', async (patch, reason) => {
      const c = await createClient(t.app, t.adminJwt);
      const body: Record<string, unknown> = { client_id: c.id, rrule: DAILY, ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const err = expectWrapper(await post(body), 400);
      expect(err.context).toBe('events');
      expect(err.message).toMatch(reason);
    });

    it('accepts COUNT and UNTIL, and a TZID start; an exhausted rule has no next occurrence', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const ended = await createEvent(t.app, t.adminJwt, { client_id: c.id, rrule: 'DTSTART:20200101T000000Z\nRRULE:FREQ=WEEKLY;COUNT=3' });
      expect(ended.next_scheduled_at).toBe('0001-01-01T00:00:00Z');
      const zoned = await createEvent(t.app, t.adminJwt, {
        client_id: c.id,
        rrule: 'DTSTART;TZID=Europe/Berlin:20240101T030000\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20990101T000000Z',
      });
      expect(new Date(zoned.next_scheduled_at).getUTCDay()).toBe(1);
    });

    it('404 for an unknown client, 403 without clients/Manage, 400 for a body that is not an object', async () => {
      expectWrapper(await post({ client_id: '00000000-0000-4000-8000-000000000000', rrule: DAILY }), 404);
      const user = await userWithRole(t, 'User');
      const c = await createClient(t.app, t.adminJwt);
      expectWrapper(
        await request(t.app).post('/api/v2/events').set('Authorization', `Bearer ${user.jwt}`).send({ client_id: c.id, rrule: DAILY }),
        403,
      );
      expectWrapper(await request(t.app).post('/api/v2/events').set(admin()).send([1, 2]), 400);
      expectWrapper(
        await request(t.app).post('/api/v2/events').set(admin()).set('Content-Type', 'application/json').send('{"rrule":'),
        400,
      );
    });
  });

  describe('GET /api/v2/events', () => {
    let clientA: string;
    let clientB: string;
    let e1: any, e2: any, e3: any;

    beforeAll(async () => {
      // a schema of its own for this block's counts: delete what earlier tests created
      const all = await list('?limit=1000');
      for (const e of all.body.data) await request(t.app).delete(`/api/v2/events/${e.id}`).set(admin());
      clientA = (await createClient(t.app, t.adminJwt)).id;
      clientB = (await createClient(t.app, t.adminJwt)).id;
      e1 = await createEvent(t.app, t.adminJwt, { client_id: clientA, session_collection: true, rrule: DAILY });
      e2 = await createEvent(t.app, t.adminJwt, {
        client_id: clientA,
        local_group_collection: true,
        rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=WEEKLY;BYDAY=SU',
      });
      e3 = await createEvent(t.app, t.adminJwt, {
        client_id: clientB,
        session_collection: true,
        dc_registry_collection: true,
        rrule: 'DTSTART:20240101T000000Z\nRRULE:FREQ=HOURLY;INTERVAL=6',
      });
    });

    it('lists in the pagination envelope with a default limit of 100, sorted by id', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 3, skip: 0, limit: 100 });
      expect(ids(res)).toEqual([e1.id, e2.id, e3.id]);
      const paged = await list('?skip=1&limit=1');
      expect(paged.body).toMatchObject({ count: 3, skip: 1, limit: 1 });
      expect(ids(paged)).toEqual([e2.id]);
      expect((await list('?skip=10')).body).toMatchObject({ count: 3, data: [] });
    });

    it.each([
      ['id', () => `eq:${e2.id}`, () => [e2.id]],
      ['id', () => `${e2.id}`, () => [e2.id]],
      ['id', () => `neq:${e2.id}`, () => [e1.id, e3.id]],
      ['id', () => `gt:${e1.id}`, () => [e2.id, e3.id]],
      ['id', () => `gte:${e2.id}`, () => [e2.id, e3.id]],
      ['id', () => `lt:${e2.id}`, () => [e1.id]],
      ['id', () => `lte:${e2.id}`, () => [e1.id, e2.id]],
      ['rrule', () => 'eq:' + encodeURIComponent('BYDAY=SU'), () => []],
      ['rrule', () => '~eq:' + encodeURIComponent('byday=su'), () => [e2.id]],
      ['rrule', () => 'neq:' + encodeURIComponent('x'), () => [e1.id, e2.id, e3.id]],
      ['client_id', () => `eq:${clientB}`, () => [e3.id]],
      ['client_id', () => `neq:${clientB}`, () => [e1.id, e2.id]],
      ['session_collection', () => 'true', () => [e1.id, e3.id]],
      ['session_collection', () => 'neq:T', () => [e2.id]],
      ['local_group_collection', () => 'eq:t', () => [e2.id]],
      ['ad_structure_collection', () => 'FALSE', () => [e1.id, e2.id, e3.id]],
      ['cert_services_collection', () => 'eq:True', () => []],
      ['ca_registry_collection', () => 'f', () => [e1.id, e2.id, e3.id]],
      ['dc_registry_collection', () => 'eq:true', () => [e3.id]],
      ['created_at', () => 'gt:2000-01-01T00:00:00Z', () => [e1.id, e2.id, e3.id]],
      ['created_at', () => 'lt:2000-01-01T00:00:00.123456789Z', () => []],
      ['updated_at', () => 'gte:2000-01-01T00:00:00-05:00', () => [e1.id, e2.id, e3.id]],
      ['updated_at', () => 'lte:2000-01-01T00:00:00z', () => []],
      ['next_scheduled_at', () => `eq:${e1.next_scheduled_at.replace(/\.\d+/, '')}`, () => [e1.id]],
      ['next_scheduled_at', () => `neq:${e1.next_scheduled_at.replace(/\.\d+/, '')}`, () => [e2.id, e3.id]],
      ['deleted_at', () => 'lt:2000-01-01T00:00:00Z', () => []],
    ])('filters %s=%s', async (column, value, expected) => {
      const res = await list(`?${column}=${value()}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(expected());
      expect(res.body.count).toBe(expected().length);
    });

    it('combines repeated columns and several columns with AND', async () => {
      expect(ids(await list(`?id=gte:${e1.id}&id=lt:${e3.id}`))).toEqual([e1.id, e2.id]);
      expect(ids(await list(`?session_collection=true&client_id=${clientA}`))).toEqual([e1.id]);
    });

    it('shows deleted events only to a deleted_at filter', async () => {
      const extra = await createEvent(t.app, t.adminJwt, { client_id: clientB });
      expect((await request(t.app).delete(`/api/v2/events/${extra.id}`).set(admin())).status).toBe(204);
      expect(ids(await list(''))).not.toContain(extra.id);
      const deleted = await list('?deleted_at=gt:2000-01-01T00:00:00Z');
      expect(ids(deleted)).toContain(extra.id);
      expect(ids(deleted)).not.toContain(e1.id);
      expect(deleted.body.data.every((e: { deleted_at: { valid: boolean } }) => e.deleted_at.valid)).toBe(true);
      expectWrapper(await request(t.app).delete(`/api/v2/events/${extra.id}`).set(admin()), 404);
    });

    it.each([
      ['id=eq:abc', /query parameter id is malformed: expected an integer/],
      ['id=like:3', /query parameter id is malformed/],
      ['id=99999999999', /id is out of range/],
      ['rrule=gt:x', /query parameter rrule is malformed/],
      ['client_id=eq:not-a-uuid', /query parameter client_id is malformed: expected a UUID/],
      ['client_id=gt:00000000-0000-4000-8000-000000000000', /client_id is malformed/],
      ['session_collection=yes', /session_collection is malformed: expected a boolean/],
      ['created_at=2024-01-01', /created_at is malformed: expected an RFC 3339 timestamp/],
      ['created_at=eq:2024-13-45T99:00:00Z', /created_at is not a valid date and time/],
      ['all_trusted_domains=true', /all_trusted_domains is not a filterable column/],
      ['nonsense=1', /nonsense is not a filterable column/],
      ['sort_by=rrule', /sort_by column "rrule" is not sortable/],
      ['limit=1001', /limit must be at most 1000/],
      ['skip=-1', /skip must be >= 0/],
      ['hydrate_ous=maybe', /hydrate_ous is malformed/],
    ])('400 for %s', async (query, reason) => {
      const err = expectWrapper(await list(`?${query}`), 400);
      expect(err.message).toMatch(reason);
    });

    it('sorts on the listed columns, descending with a hyphen', async () => {
      expect(ids(await list('?sort_by=-id'))).toEqual([e3.id, e2.id, e1.id]);
      const byNext = await list('?sort_by=next_scheduled_at');
      const times = byNext.body.data.map((e: { next_scheduled_at: string }) => Date.parse(e.next_scheduled_at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect((await list('?sort_by=created_at&sort_by=-updated_at')).status).toBe(200);
    });

    it('returns object ids only when hydration is off', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const e = await createEvent(t.app, t.adminJwt, { client_id: c.id, ous: ['OU-A'], domains: ['S-1-5-21-9'] });
      const hydrated = await list(`?id=${e.id}`);
      expect(hydrated.body.data[0].domains).toEqual([{ objectid: 'S-1-5-21-9', name: '', exists: false, type: '' }]);
      const bare = await list(`?id=${e.id}&hydrate_ous=false&hydrate_domains=false`);
      expect(bare.body.data[0]).toMatchObject({ ous: ['OU-A'], domains: ['S-1-5-21-9'] });
      const half = await list(`?id=${e.id}&hydrate_ous=false`);
      expect(half.body.data[0].ous).toEqual(['OU-A']);
      expect(half.body.data[0].domains[0]).toMatchObject({ objectid: 'S-1-5-21-9', exists: false });
    });

    it('needs clients/Read', async () => {
      const ro = await userWithRole(t, 'Read-Only');
      expectWrapper(await request(t.app).get('/api/v2/events').set('Authorization', `Bearer ${ro.jwt}`), 403);
      expectWrapper(await request(t.app).get('/api/v2/events'), 401);
    });
  });

  describe('the scheduler', () => {
    const day = 24 * 3600_000;
    const jobCount = async (clientId: string) =>
      (await request(t.app).get(`/api/v2/clients/${clientId}/jobs`).set(admin())).body.count as number;

    it('makes one job per due event and moves next_scheduled_at past now, even with ticks racing', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const e = await createEvent(t.app, t.adminJwt, { client_id: c.id, session_collection: true, ous: ['OU-X'] });
      const due = new Date(e.next_scheduled_at);
      await t.services.scheduler.tick(new Date(due.getTime() - 1000));
      expect(await jobCount(c.id)).toBe(0);
      await Promise.all([t.services.scheduler.tick(due), t.services.scheduler.tick(due), t.services.scheduler.tick(due)]);
      const jobs = await request(t.app).get(`/api/v2/clients/${c.id}/jobs`).set(admin());
      expect(jobs.body.count).toBe(1);
      expect(jobs.body.data[0]).toMatchObject({
        event_id: { int32: e.id, valid: true },
        execution_time: due.toISOString(),
        status: 0,
        session_collection: true,
        ous: ['OU-X'],
        event_title: 'every day',
      });
      const after = await request(t.app).get(`/api/v2/events/${e.id}`).set(admin());
      expect(new Date(after.body.data.next_scheduled_at).getTime()).toBe(due.getTime() + day);
    });

    it('turns missed occurrences into one job and gives an event with a waiting job no second one', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const e = await createEvent(t.app, t.adminJwt, { client_id: c.id });
      const due = new Date(e.next_scheduled_at).getTime();
      // the server was down for three days
      await t.services.scheduler.tick(new Date(due + 3 * day + 60_000));
      expect(await jobCount(c.id)).toBe(1);
      const after = await request(t.app).get(`/api/v2/events/${e.id}`).set(admin());
      expect(new Date(after.body.data.next_scheduled_at).getTime()).toBe(due + 4 * day);
      // the collector has not picked the job up; the next occurrence adds none
      await t.services.scheduler.tick(new Date(due + 4 * day));
      expect(await jobCount(c.id)).toBe(1);
    });

    it('is also run on request through GraphQL', async () => {
      const res = await request(t.app).post('/graphql').set(admin()).send({ query: 'mutation { runScheduler }' });
      expect(res.body).toEqual({ data: { runScheduler: expect.any(Number) } });
    });
  });
  describe('PUT /api/v2/events/{id} (BloodHound client)', () => {
    const put = (id: unknown, body: unknown) =>
      request(t.app)
        .put(`/api/v2/events/${id}`)
        .set(admin())
        .send(body as object);

    it('updates the fields given, keeps the others, and a new rrule moves the next run', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const created = (await post({ client_id: c.id, rrule: DAILY, session_collection: true, ous: ['ou-1'] })).body.data;
      const res = await put(created.id, { ad_structure_collection: true, domains: ['s-1-5-21-9'] });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: created.id,
        client_id: c.id,
        rrule: DAILY,
        next_scheduled_at: created.next_scheduled_at,
        session_collection: true,
        ad_structure_collection: true,
        ous: [expect.objectContaining({ objectid: 'OU-1' })],
        domains: [expect.objectContaining({ objectid: 'S-1-5-21-9' })],
      });
      const weekly = 'DTSTART:20240101T050000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1';
      const moved = await put(created.id, { rrule: weekly, session_collection: false });
      expect(moved.body.data).toMatchObject({
        rrule: weekly,
        session_collection: false,
        next_scheduled_at: expect.stringMatching(/T05:00:00/),
      });
      expect((await request(t.app).get(`/api/v2/events/${created.id}`).set(admin())).body.data.rrule).toBe(weekly);
    });

    it('400 for a bad rrule, flag or id; 404 for an unknown or deleted event; nothing half-written', async () => {
      const c = await createClient(t.app, t.adminJwt);
      const created = (await post({ client_id: c.id, rrule: DAILY })).body.data;
      expectWrapper(await put(created.id, { rrule: 'RRULE:FREQ=SECONDLY', session_collection: true }), 400);
      expectWrapper(await put(created.id, { session_collection: 'yes' }), 400);
      expectWrapper(await put(created.id, { ous: 'not-a-list' }), 400);
      expectWrapper(await put('abc', {}), 400);
      expectWrapper(await put(999999, {}), 404);
      const after = (await request(t.app).get(`/api/v2/events/${created.id}`).set(admin())).body.data;
      expect(after).toMatchObject({ rrule: DAILY, session_collection: false });
      await request(t.app).delete(`/api/v2/events/${created.id}`).set(admin());
      expectWrapper(await put(created.id, {}), 404);
      expectWrapper(await request(t.app).put(`/api/v2/events/${created.id}`).send({}), 401);
    });
  });
});
