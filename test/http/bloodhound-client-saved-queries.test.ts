import { login, useListening, useTestApp, userWithRole } from '../helpers/app';

/**
 * Walks the saved-query methods of BloodHound's JS client (packages/javascript/js-client-library/src/client.ts) over
 * real HTTP: each call below is the request that method sends (method, path, query parameters, headers, body
 * encoding), read from the client, and each answer is read the way the client's types and BloodHound's UI read it.
 *   getUserSavedQueries(scope)        GET    /api/v2/saved-queries?sort_by=name&scope=…
 *   createUserQuery(payload)          POST   /api/v2/saved-queries                        JSON
 *   updateUserQuery(payload)          PUT    /api/v2/saved-queries/{payload.id}           JSON (Content-Type set)
 *   deleteUserQuery(id)               DELETE /api/v2/saved-queries/{id}
 *   getExportCypherQueries()          GET    /api/v2/saved-queries/export?scope=all      blob
 *   getExportCypherQuery(id)          GET    /api/v2/saved-queries/{id}/export           blob
 *   importUserQuery(FormData|Blob|{}) POST   /api/v2/saved-queries/import                multipart | blob type | JSON
 *   getUserQueryPermissions(id)       GET    /api/v2/saved-queries/{id}/permissions
 *   updateUserQueryPermissions(id, p) PUT    /api/v2/saved-queries/{id}/permissions      JSON
 *   deleteUserQueryPermissions(id, p) DELETE /api/v2/saved-queries/{id}/permissions      JSON body (axios `data`)
 */
describe("BloodHound's JS client: saved-query methods", () => {
  const t = useTestApp();
  const server = useListening(t);
  let jwt: string;
  let other: { id: string; jwt: string };

  beforeAll(async () => {
    jwt = await login(t.app);
    other = await userWithRole(t, 'User', 'colleague');
  });

  const base = () => `http://127.0.0.1:${server.port}`;
  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(base() + path, { ...init, headers: { Authorization: `Bearer ${init.token ?? jwt}`, ...(init.headers ?? {}) } });
  const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

  it('creates, lists by scope, updates, shares, exports, imports and deletes as the client does', async () => {
    // createUserQuery: BasicResponse<SavedQuery>
    const created = await call('/api/v2/saved-queries', {
      method: 'POST',
      ...json({ name: 'DCSync', query: 'MATCH p=(:Base)-[:DCSync]->(:Domain) RETURN p', description: '' }),
    });
    expect(created.status).toBe(201);
    const saved = ((await created.json()) as { data: { id: number; name: string; query: string; user_id: string } }).data;
    expect(saved).toMatchObject({ name: 'DCSync', id: expect.any(Number), user_id: expect.any(String) });

    // getUserSavedQueries(QueryScope.ALL | OWNED | SHARED | PUBLIC): PaginatedResponse<SavedQuery[]>
    for (const scope of ['all', 'owned', 'shared', 'public']) {
      const res = await call(`/api/v2/saved-queries?sort_by=name&scope=${scope}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { count: number; skip: number; limit: number; data: { name: string; scope: string }[] };
      expect(page).toEqual({ count: expect.any(Number), skip: 0, limit: expect.any(Number), data: expect.any(Array) });
      expect(page.data.map((q) => q.name)).toEqual(scope === 'all' || scope === 'owned' ? ['DCSync'] : []);
    }

    // updateUserQuery({id, name, description, query})
    const updated = await call(`/api/v2/saved-queries/${saved.id}`, {
      method: 'PUT',
      ...json({ id: saved.id, name: 'DCSync principals', description: 'who can DCSync', query: saved.query }),
    });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { data: { name: string; description: string } }).data).toMatchObject({
      name: 'DCSync principals',
      description: 'who can DCSync',
    });

    // updateUserQueryPermissions / getUserQueryPermissions: BasicResponse<SavedQueryPermissionsResponse>
    const shared = await call(`/api/v2/saved-queries/${saved.id}/permissions`, {
      method: 'PUT',
      ...json({ user_ids: [other.id], public: false }),
    });
    expect(shared.status).toBe(201);
    const perms = await call(`/api/v2/saved-queries/${saved.id}/permissions`);
    expect(((await perms.json()) as { data: unknown }).data).toEqual({ query_id: saved.id, public: false, shared_to_user_ids: [other.id] });
    const colleague = await call('/api/v2/saved-queries?sort_by=name&scope=shared', { token: other.jwt });
    expect(((await colleague.json()) as { data: { name: string }[] }).data.map((q) => q.name)).toEqual(['DCSync principals']);

    // deleteUserQueryPermissions(id, {user_ids}): DELETE with a JSON body
    const unshared = await call(`/api/v2/saved-queries/${saved.id}/permissions`, { method: 'DELETE', ...json({ user_ids: [other.id] }) });
    expect(unshared.status).toBe(204);

    // getExportCypherQuery(id) and getExportCypherQueries(): blobs
    const one = await call(`/api/v2/saved-queries/${saved.id}/export`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-disposition')).toBe('attachment; filename="DCSync principals.json"');
    const file = Buffer.from(await one.arrayBuffer());
    expect(JSON.parse(file.toString())).toEqual({ query: saved.query, name: 'DCSync principals', description: 'who can DCSync' });
    const all = await call('/api/v2/saved-queries/export?scope=all');
    expect(all.status).toBe(200);
    const zip = Buffer.from(await all.arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');

    // importUserQuery: as FormData (the browser sets the boundary), as a Blob (its type), as a plain object (JSON)
    const form = new FormData();
    form.append(
      'file',
      new Blob([JSON.stringify({ name: 'from form', query: 'MATCH (n:User) RETURN n' })], { type: 'application/json' }),
      'from form.json',
    );
    const viaForm = await call('/api/v2/saved-queries/import', { method: 'POST', body: form, token: other.jwt });
    expect(viaForm.status).toBe(201);
    expect(await viaForm.json()).toEqual({ data: 'imported 1 queries' });
    const viaBlob = await call('/api/v2/saved-queries/import', {
      method: 'POST',
      body: new Blob([new Uint8Array(zip)], { type: 'application/zip' }),
      headers: { 'Content-Type': 'application/zip' },
      token: other.jwt,
    });
    expect(viaBlob.status).toBe(201);
    const viaObject = await call('/api/v2/saved-queries/import', {
      method: 'POST',
      ...json({ name: 'from object', query: 'MATCH (g:Group) RETURN g' }),
      token: other.jwt,
    });
    expect(viaObject.status).toBe(201);
    const theirs = await call('/api/v2/saved-queries?sort_by=name&scope=owned', { token: other.jwt });
    expect(((await theirs.json()) as { data: { name: string }[] }).data.map((q) => q.name)).toEqual([
      'DCSync principals',
      'from form',
      'from object',
    ]);

    // deleteUserQuery(id)
    expect((await call(`/api/v2/saved-queries/${saved.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await call('/api/v2/saved-queries?sort_by=name&scope=all');
    expect(((await after.json()) as { count: number }).count).toBe(0);
  });
});
