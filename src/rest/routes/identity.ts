import { z } from 'zod';
import { field, intText } from '../params.js';
import * as shape from '../reshape/identity.js';
import { data, route } from '../route.js';

/** Login, the caller's profile, API tokens and permissions. Endpoint numbers are the API document's. */
export const identityRoutes = [
  route({
    method: 'POST',
    path: '/api/v2/login',
    context: 'login',
    operation: 'Login',
    body: 'json',
    input: { body: z.object({ login_method: z.string().default('secret'), username: z.string(), secret: z.string() }) },
    variables: ({ body: b }) => ({ input: { loginMethod: b.login_method, username: b.username, secret: b.secret } }),
    reshape: ({ login }) => data({ user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired }),
  }),
  route({ method: 'POST', path: '/api/v2/logout', context: 'login', operation: 'Logout', reshape: () => ({ status: 204 }) }),
  route({
    method: 'GET',
    path: '/api/v2/self',
    context: 'self',
    operation: 'GetSelf',
    reshape: ({ self }) => data(shape.user(self)),
  }),
  route({
    method: 'GET',
    path: '/api/v2/bloodhound-users',
    context: 'users',
    operation: 'ListUsers',
    reshape: ({ users }) => data({ users: users.map(shape.user) }),
  }),
  route({
    method: 'GET',
    path: '/api/v2/tokens',
    context: 'tokens',
    operation: 'ListTokens',
    // BloodHound's UI filters with user_id=eq:<uuid>; a bare uuid is accepted as well.
    input: { query: z.object({ user_id: z.string().optional() }) },
    variables: ({ query }) => ({ userId: query.user_id?.replace(/^eq:/, '') ?? null }),
    reshape: ({ tokens }) => data({ tokens: tokens.map(shape.token) }),
  }),
  route({
    method: 'POST',
    path: '/api/v2/tokens',
    context: 'tokens',
    operation: 'CreateToken',
    body: 'json',
    input: { body: z.object({ token_name: field.string(), user_id: field.string() }).optional() },
    variables: ({ body }) => ({ name: body?.token_name ?? null, userId: body?.user_id ?? null }),
    reshape: ({ createToken }) => data(shape.token(createToken)),
  }),
  // 9
  route({
    method: 'DELETE',
    path: '/api/v2/tokens/:token_id',
    context: 'tokens',
    operation: 'DeleteToken',
    input: { params: z.object({ token_id: z.string() }) },
    variables: ({ params }) => ({ id: params.token_id }),
    reshape: () => ({ status: 204 }),
  }),
  // 12
  route({
    method: 'GET',
    path: '/api/v2/permissions/:permission_id',
    context: 'permissions',
    operation: 'GetPermission',
    input: { params: z.object({ permission_id: intText(-2147483648) }) },
    variables: ({ params }) => ({ id: params.permission_id }),
    reshape: ({ permission }) => data(shape.permission(permission)),
  }),
  route({
    method: 'GET',
    path: '/api/v2/permissions',
    context: 'permissions',
    operation: 'ListPermissions',
    reshape: ({ permissions }) => data({ permissions: permissions.map(shape.permission) }),
  }),
];
