import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';

/**
 * Saved queries through REST as BloodHound answers them: create, read, update, delete; the list with scopes,
 * sorting, filters and pagination; sharing (users, public, private) with BloodHound's rules for owners,
 * recipients and administrators.
 */
describe('saved queries', () => {
  const t = useTestApp();
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const admin = () => as(t.adminJwt);
  let alice: { id: string; jwt: string };
  let bob: { id: string; jwt: string };
  let reader: { id: string; jwt: string };

  const create = (jwt: string, body: object) => request(t.app).post('/api/v2/saved-queries').set(as(jwt)).send(body);

  beforeAll(async () => {
    alice = await userWithRole(t, 'User', 'alice');
    bob = await userWithRole(t, 'User', 'bob');
    reader = await userWithRole(t, 'Read-Only', 'reader');
  });

  it('creates a query: 201 with BloodHound’s SavedQuery; name and query are required; names are unique per user', async () => {
    const res = await create(alice.jwt, {
      name: 'kerberoastable',
      query: 'MATCH (u:User) WHERE u.hasspn = true RETURN u',
      description: 'roast',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      user_id: alice.id,
      name: 'kerberoastable',
      query: 'MATCH (u:User) WHERE u.hasspn = true RETURN u',
      description: 'roast',
      id: expect.any(Number),
      created_at: expect.stringMatching(/^\d{4}-/),
      updated_at: expect.stringMatching(/^\d{4}-/),
      deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
    });
    expect(expectWrapper(await create(alice.jwt, { name: 'kerberoastable', query: 'MATCH (n) RETURN n' }), 400).message).toBe(
      'duplicate name for saved query: please choose a different name',
    );
    // another user may use the same name
    expect((await create(bob.jwt, { name: 'kerberoastable', query: 'MATCH (n) RETURN n' })).status).toBe(201);
    for (const body of [{ name: 'x' }, { query: 'MATCH (n) RETURN n' }, { name: '  ', query: 'MATCH (n) RETURN n' }, {}]) {
      expect(expectWrapper(await create(alice.jwt, body), 400).message).toBe('the name and/or query field is empty');
    }
    expectWrapper(await create(alice.jwt, { name: 7, query: 'MATCH (n) RETURN n' }), 400);
    expectWrapper(await create(alice.jwt, { name: 'long', query: 'x'.repeat(100_001) }), 400);
    // a query is parsed before it is stored: a 400 naming where it is wrong; a writing query is refused too
    const bad = expectWrapper(await create(alice.jwt, { name: 'broken', query: 'MATCH (n:User\nRETURN n' }), 400).message;
    expect(bad).toMatch(/line 2/i);
    expect(bad).toMatch(/column/i);
    expect(expectWrapper(await create(alice.jwt, { name: 'writer', query: 'MATCH (n) DETACH DELETE n' }), 400).message).toMatch(
      /read-only/i,
    );
    // a Read-Only user may read saved queries but not write them
    expectWrapper(await create(reader.jwt, { name: 'ro', query: 'MATCH (n) RETURN n' }), 403);
  });

  it('lists the caller’s own queries by default, with sort_by, filters and pagination as BloodHound takes them', async () => {
    for (const name of ['b-second', 'a-first', 'c-third']) {
      expect((await create(alice.jwt, { name, query: `MATCH (n) RETURN n // ${name}` })).status).toBe(201);
    }
    const list = await request(t.app).get('/api/v2/saved-queries?sort_by=name').set(as(alice.jwt));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ count: 4, limit: 10000, skip: 0, data: expect.any(Array) });
    expect(list.body.data.map((q: { name: string }) => q.name)).toEqual(['a-first', 'b-second', 'c-third', 'kerberoastable']);
    expect(list.body.data.every((q: { scope: string }) => q.scope === 'owned')).toBe(true);

    const desc = await request(t.app).get('/api/v2/saved-queries?sort_by=-name&skip=1&limit=2').set(as(alice.jwt));
    expect(desc.body).toMatchObject({ count: 4, skip: 1, limit: 2 });
    expect(desc.body.data.map((q: { name: string }) => q.name)).toEqual(['c-third', 'b-second']);

    const eq = await request(t.app).get('/api/v2/saved-queries?name=eq:a-first').set(as(alice.jwt));
    expect(eq.body.data.map((q: { name: string }) => q.name)).toEqual(['a-first']);
    const neq = await request(t.app).get('/api/v2/saved-queries?name=neq:a-first&sort_by=name').set(as(alice.jwt));
    expect(neq.body.count).toBe(3);
    const byUser = await request(t.app).get(`/api/v2/saved-queries?user_id=${bob.id}`).set(as(alice.jwt));
    expect(byUser.body.count).toBe(0);

    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries?sort_by=nope').set(as(alice.jwt)), 400).message).toBe(
      'column format does not support sorting',
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries?color=eq:red').set(as(alice.jwt)), 400).message).toBe(
      'the specified column cannot be filtered: color',
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries?name=gt:a').set(as(alice.jwt)), 400).message).toBe(
      'the specified filter predicate is not supported for this column: name gt',
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries?scope=mine').set(as(alice.jwt)), 400).message).toBe(
      'invalid scope param: mine',
    );
    expectWrapper(await request(t.app).get('/api/v2/saved-queries?limit=-1').set(as(alice.jwt)), 400);
    expectWrapper(await request(t.app).get('/api/v2/saved-queries?user_id=not-a-uuid').set(as(alice.jwt)), 400);
  });

  it('reads, updates and deletes: the owner may, anyone else learns the query does not exist', async () => {
    const id = (await create(alice.jwt, { name: 'to-edit', query: 'MATCH (n) RETURN n', description: 'first' })).body.data.id;
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}`).set(as(alice.jwt))).body.data.name).toBe('to-edit');
    expect(expectWrapper(await request(t.app).get(`/api/v2/saved-queries/${id}`).set(as(bob.jwt)), 404).message).toBe(
      'query does not exist',
    );

    // non-empty fields replace, empty ones keep their value
    const put = await request(t.app)
      .put(`/api/v2/saved-queries/${id}`)
      .set(as(alice.jwt))
      .send({ id, name: 'edited', query: '', description: '' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ id, name: 'edited', query: 'MATCH (n) RETURN n', description: 'first' });
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/${id}`).set(as(bob.jwt)).send({ name: 'stolen' }), 404);
    // an administrator edits only public queries of others
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/${id}`).set(admin()).send({ name: 'admin' }), 404);
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/999999`).set(as(alice.jwt)).send({ name: 'x' }), 404);
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/abc`).set(as(alice.jwt)).send({ name: 'x' }), 400);
    // an update with a bad query changes nothing
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/${id}`).set(as(alice.jwt)).send({ query: 'RETURN (' }), 400);
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}`).set(as(alice.jwt))).body.data.query).toBe('MATCH (n) RETURN n');
    // renaming onto a taken name
    expect(
      expectWrapper(await request(t.app).put(`/api/v2/saved-queries/${id}`).set(as(alice.jwt)).send({ name: 'a-first' }), 400).message,
    ).toBe('duplicate name for saved query: please choose a different name');

    expect(expectWrapper(await request(t.app).delete(`/api/v2/saved-queries/${id}`).set(as(bob.jwt)), 403).message).toBe(
      'User does not have permission to delete this query',
    );
    expectWrapper(await request(t.app).delete(`/api/v2/saved-queries/${id}`).set(admin()), 403);
    expect((await request(t.app).delete(`/api/v2/saved-queries/${id}`).set(as(alice.jwt))).status).toBe(204);
    expect(expectWrapper(await request(t.app).delete(`/api/v2/saved-queries/${id}`).set(as(alice.jwt)), 404).message).toBe(
      'query does not exist',
    );
  });

  it('shares with users, makes public and private again, with BloodHound’s answers and scopes', async () => {
    const id = (await create(alice.jwt, { name: 'shared one', query: 'MATCH (n:Group) RETURN n' })).body.data.id;
    const perms = (jwt: string, body: object) => request(t.app).put(`/api/v2/saved-queries/${id}/permissions`).set(as(jwt)).send(body);

    expect(expectWrapper(await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(alice.jwt)), 404).message).toBe(
      'no query permissions exist for saved query',
    );
    const share = await perms(alice.jwt, { user_ids: [bob.id], public: false });
    expect(share.status).toBe(201);
    expect(share.body.data).toEqual([
      {
        shared_to_user_id: bob.id,
        query_id: id,
        public: false,
        id: expect.any(Number),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
      },
    ]);
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(alice.jwt))).body.data).toEqual({
      query_id: id,
      public: false,
      shared_to_user_ids: [bob.id],
    });
    // bob sees it as shared; he may read it but not change its sharing
    const bobs = await request(t.app).get('/api/v2/saved-queries?scope=shared').set(as(bob.jwt));
    expect(bobs.body.data.map((q: { name: string; scope: string }) => [q.name, q.scope])).toEqual([['shared one', 'shared']]);
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}`).set(as(bob.jwt))).status).toBe(200);
    expectWrapper(await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(bob.jwt)), 404);
    expectWrapper(await perms(bob.jwt, { user_ids: [reader.id] }), 403);

    expect(expectWrapper(await perms(alice.jwt, { user_ids: [alice.id] }), 400).message).toBe('Cannot share query to self');
    expect(expectWrapper(await perms(alice.jwt, { user_ids: [bob.id], public: true }), 400).message).toBe(
      'Public cannot be true while user_ids is populated',
    );
    expectWrapper(await perms(alice.jwt, { user_ids: ['not-a-uuid'] }), 400);
    expectWrapper(await perms(alice.jwt, { user_ids: ['00000000-0000-4000-8000-000000000000'] }), 400);
    expectWrapper(await request(t.app).put(`/api/v2/saved-queries/999999/permissions`).set(as(alice.jwt)).send({ public: true }), 404);

    // public: 201 with the public row; again: 204; every user's list with scope=public now has it
    const pub = await perms(alice.jwt, { public: true });
    expect(pub.status).toBe(201);
    expect(pub.body.data).toEqual([expect.objectContaining({ shared_to_user_id: null, query_id: id, public: true })]);
    // BloodHound's rule: once public, only an administrator changes its sharing (the owner included gets 403)
    expectWrapper(await perms(alice.jwt, { public: true }), 403);
    const readers = await request(t.app).get('/api/v2/saved-queries?scope=public').set(as(reader.jwt));
    expect(readers.body.data.map((q: { name: string; scope: string }) => [q.name, q.scope])).toEqual([['shared one', 'public']]);
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(reader.jwt))).body.data).toEqual({
      query_id: id,
      public: true,
      shared_to_user_ids: [],
    });
    expect(expectWrapper(await perms(alice.jwt, { user_ids: [reader.id] }), 403).message).toMatch(/permission/);
    // an administrator may edit a public query of someone else, and make it private
    expect((await request(t.app).put(`/api/v2/saved-queries/${id}`).set(admin()).send({ description: 'reviewed' })).status).toBe(200);
    expect(
      expectWrapper(
        await request(t.app)
          .put(`/api/v2/saved-queries/${id}/permissions`)
          .set(admin())
          .send({ user_ids: [bob.id] }),
        400,
      ).message,
    ).toBe('Public query cannot be shared to users. You must set your query to private first');
    expect(
      (await request(t.app).put(`/api/v2/saved-queries/${id}/permissions`).set(admin()).send({ public: false, user_ids: [] })).status,
    ).toBe(204);
    // an administrator's own query: public twice is 201 then 204 (nothing created)
    const own = (await create(t.adminJwt, { name: 'admin public', query: 'MATCH (n) RETURN n' })).body.data.id;
    const adminPerms = (body: object) => request(t.app).put(`/api/v2/saved-queries/${own}/permissions`).set(admin()).send(body);
    expect((await adminPerms({ public: true })).status).toBe(201);
    expect((await adminPerms({ public: true })).status).toBe(204);
    expect((await adminPerms({ public: false })).status).toBe(204);
    expectWrapper(await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(alice.jwt)), 404);
    expect((await request(t.app).get('/api/v2/saved-queries?scope=public').set(as(reader.jwt))).body.count).toBe(0);

    // scope=all is owned + shared + public, each labelled
    await perms(alice.jwt, { user_ids: [bob.id] });
    const all = await request(t.app).get('/api/v2/saved-queries?scope=all&sort_by=name').set(as(bob.jwt));
    expect(all.body.data.map((q: { name: string; scope: string }) => [q.name, q.scope])).toEqual([
      ['kerberoastable', 'owned'],
      ['shared one', 'shared'],
    ]);
    const split = await request(t.app).get('/api/v2/saved-queries?scope=owned,shared').set(as(bob.jwt));
    expect(split.body.count).toBe(2);
  });

  it('unshares: the owner from anyone, a recipient from themselves only, an administrator from anyone', async () => {
    const id = (await create(alice.jwt, { name: 'to unshare', query: 'MATCH (n) RETURN n' })).body.data.id;
    await request(t.app)
      .put(`/api/v2/saved-queries/${id}/permissions`)
      .set(as(alice.jwt))
      .send({ user_ids: [bob.id, reader.id] });
    const unshare = (jwt: string, body?: object) => {
      const r = request(t.app).delete(`/api/v2/saved-queries/${id}/permissions`).set(as(jwt));
      return body ? r.send(body) : r;
    };
    expectWrapper(await unshare(alice.jwt), 400);
    expect(expectWrapper(await unshare(bob.jwt, { user_ids: [reader.id] }), 403).message).toBe('Query does not belong to the user');
    expect((await unshare(bob.jwt, { user_ids: [bob.id] })).status).toBe(204);
    expect(expectWrapper(await unshare(bob.jwt, { user_ids: [bob.id] }), 400).message).toBe(
      'User cannot unshare a query from themselves that is not shared to them',
    );
    expect((await request(t.app).get(`/api/v2/saved-queries/${id}/permissions`).set(as(alice.jwt))).body.data.shared_to_user_ids).toEqual([
      reader.id,
    ]);
    expect((await unshare(t.adminJwt, { user_ids: [reader.id] })).status).toBe(204);
    expectWrapper(await request(t.app).get(`/api/v2/saved-queries/${id}`).set(as(reader.jwt)), 404);
  });
});

describe('saved queries in GraphQL', () => {
  const t = useTestApp();
  const gql = (query: string, variables: object = {}) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${t.adminJwt}`).send({ query, variables });

  it('creates, lists, shares publicly, exports and deletes through the mutation path', async () => {
    const created = await gql('mutation($i: SavedQueryInput!) { createSavedQuery(input: $i) { id name query scope } }', {
      i: { name: 'gql one', query: 'MATCH (g:Group) RETURN g' },
    });
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createSavedQuery.id;
    const bad = await gql('mutation($i: SavedQueryInput!) { createSavedQuery(input: $i) { id } }', {
      i: { name: 'bad', query: 'MATCH (' },
    });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST' });
    const shared = await gql('mutation($id: Int!) { shareSavedQuery(id: $id, public: true) { public sharedToUserId } }', { id });
    expect(shared.body.data.shareSavedQuery).toEqual([{ public: true, sharedToUserId: null }]);
    const list = await gql(
      '{ savedQueries(scopes: [ALL], sortBy: [{column: NAME}], filters: [{column: NAME, value: "eq:gql one"}]) { totalCount queries { name scope } } }',
    );
    expect(list.body.data.savedQueries).toEqual({ totalCount: 1, queries: [{ name: 'gql one', scope: 'OWNED' }] });
    const file = await gql('query($id: Int!) { exportSavedQuery(id: $id) { fileName contentType base64 } }', { id });
    expect(file.body.data.exportSavedQuery.fileName).toBe('gql one.json');
    expect(JSON.parse(Buffer.from(file.body.data.exportSavedQuery.base64, 'base64').toString())).toEqual({
      query: 'MATCH (g:Group) RETURN g',
      name: 'gql one',
      description: '',
    });
    expect((await gql('mutation($id: Int!) { deleteSavedQuery(id: $id) }', { id })).body.data.deleteSavedQuery).toBe(true);
  });

  it('tells the owner who a query is shared with (nobody, some users, public), and nobody else', async () => {
    const other = await userWithRole(t, 'User', 'gql-other');
    const created = await gql('mutation($i: SavedQueryInput!) { createSavedQuery(input: $i) { id sharedToUserIds } }', {
      i: { name: 'gql shared', query: 'MATCH (d:Domain) RETURN d' },
    });
    const id = created.body.data.createSavedQuery.id;
    // Never shared: BloodHound's permissions look-up is a 404, the field an empty list.
    expect(created.body.data.createSavedQuery.sharedToUserIds).toEqual([]);
    const sharing = await gql('query($id: Int!) { savedQuerySharing(id: $id) { queryId } }', { id });
    expect(sharing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    await gql('mutation($id: Int!, $u: [String!]) { shareSavedQuery(id: $id, userIds: $u) { sharedToUserId } }', { id, u: [other.id] });
    const read = () => gql('query($id: Int!) { savedQuery(id: $id) { sharedToUserIds } }', { id });
    expect((await read()).body.data.savedQuery.sharedToUserIds).toEqual([other.id]);
    const theirs = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${other.jwt}`)
      .send({ query: '{ savedQueries(scopes: [SHARED]) { queries { name sharedToUserIds } } }' });
    expect(theirs.body.data.savedQueries.queries).toEqual([{ name: 'gql shared', sharedToUserIds: null }]);
    await gql('mutation($id: Int!) { shareSavedQuery(id: $id, public: true) { public } }', { id });
    expect((await read()).body.data.savedQuery.sharedToUserIds).toEqual([]);
  });
});
