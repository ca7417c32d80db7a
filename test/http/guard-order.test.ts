import request from 'supertest';
import { ROUTES } from '../../src/rest/routes/index';
import { groupBySpecificity } from '../../src/http/rest-router';
import { OperationRunner } from '../../src/rest/run';
import { buildSchema } from '../../src/graphql/schema';
import type { Session } from '../../src/auth/session';
import { signed, userWithRole, useTestApp, type ApiToken } from '../helpers/app';

/**
 * Every route of the route table decides who may call it before it looks at what was sent: a caller without
 * credentials gets 401 and a user without the route's permission 403 (a user on a collector-only route 404),
 * however malformed the path parameters, query string, content type or body. Checked for anonymous callers, users
 * by JWT and a user's signed requests (whose caller is known only after the body), with two bad bodies each.
 */
describe('authentication and permission come before input validation, on every route', () => {
  const t = useTestApp();
  const runner = new OperationRunner(buildSchema());
  const routes = groupBySpecificity(ROUTES).map(([, group]) => group[0]!);
  let uploadOnly: { jwt: string; permissions: Set<string> };
  let readOnly: { jwt: string; permissions: Set<string> };
  let uploadToken: ApiToken;

  const permissionsOf = async (jwt: string) => {
    const session = (await t.services.identity.authenticateJwt(jwt)) as Session & { kind: 'user' };
    return new Set(session.permissions);
  };

  beforeAll(async () => {
    const u = await userWithRole(t, 'Upload-Only');
    const r = await userWithRole(t, 'Read-Only');
    uploadOnly = { jwt: u.jwt, permissions: await permissionsOf(u.jwt) };
    readOnly = { jwt: r.jwt, permissions: await permissionsOf(r.jwt) };
    // An Upload-Only user may not create tokens through the API; the service issues one for them directly.
    const created = await t.services.tokens.create(await t.services.identity.authenticateJwt(u.jwt), { name: 'upload-only' });
    uploadToken = { id: created.id, key: created.key };
  });

  /** Path parameters that no schema accepts, and a query string of bad values. */
  const target = (path: string) =>
    `${path.replace(/:(\w+)/g, 'not!a!valid!value')}?skip=-1&limit=abc&sort_by=__nope__&created_at=bogus:x&type=__nope__`;
  const bodies: { name: string; type: string; data: string }[] = [
    { name: 'malformed JSON', type: 'application/json', data: '{"not json' },
    { name: 'a content type no route takes', type: 'text/x-nonsense', data: 'hello' },
  ];

  /** The status the route's guard owes this caller, or undefined when the caller passes it. */
  const owed = (operation: string, permissions: Set<string> | null): number | undefined => {
    for (const g of runner.guardsOf(operation)) {
      if (g.isPublic) continue;
      if (!permissions) return 401;
      if (g.clientOnly) return 404;
      if (g.permissions.some((p) => !permissions.has(p))) return 403;
    }
    return undefined;
  };

  it('covers the whole route table', () => {
    expect(routes.length).toBeGreaterThan(180);
  });

  it.each(bodies)('anonymous, $name: 401 on every route that needs a caller', async ({ type, data }) => {
    const wrong: string[] = [];
    for (const r of routes) {
      const expected = owed(r.operation, null);
      if (expected === undefined) continue;
      const method = r.method.toLowerCase() as 'get';
      let req = request(t.app)[method](target(r.path));
      if (r.method !== 'GET') req = req.set('Content-Type', type).send(data);
      const res = await req;
      if (res.status !== expected) wrong.push(`${r.method} ${r.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(bodies)('users by JWT, $name: 403 (or 404 for collector routes) wherever they lack the permission', async ({ type, data }) => {
    const wrong: string[] = [];
    let checked = 0;
    for (const user of [uploadOnly, readOnly]) {
      for (const r of routes) {
        const expected = owed(r.operation, user.permissions);
        if (expected === undefined) continue;
        checked++;
        const method = r.method.toLowerCase() as 'get';
        let req = request(t.app)[method](target(r.path)).set('Authorization', `Bearer ${user.jwt}`);
        if (r.method !== 'GET') req = req.set('Content-Type', type).send(data);
        const res = await req;
        if (res.status !== expected) wrong.push(`${r.method} ${r.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(wrong).toEqual([]);
  });

  it.each(bodies)('an Upload-Only signed request, $name: 403 wherever the token lacks the permission', async ({ type, data }) => {
    const wrong: string[] = [];
    for (const r of routes) {
      const expected = owed(r.operation, uploadOnly.permissions);
      if (expected === undefined) continue;
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : data;
      const res = await signed(t.app, uploadToken, r.method as 'GET', target(r.path), body, { contentType: type });
      if (res.status !== expected) wrong.push(`${r.method} ${r.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
