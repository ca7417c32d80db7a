import { badRequest } from '../../errors.js';
import { bodyObject, int, single } from '../params.js';
import * as shape from '../reshape/identity.js';
import type { RestRoute } from '../route.js';

const str = (context: string, field: string, v: unknown): string => {
  if (typeof v !== 'string') throw badRequest(context, `${field} must be a string.`);
  return v;
};

/** Login, the caller's profile, API tokens and permissions. Endpoint numbers are the API document's. */
export const identityRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/v2/login',
    edition: 'both',
    context: 'login',
    operation: 'Login',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('login', body);
      return {
        input: {
          loginMethod: str('login', 'login_method', b.login_method ?? 'secret'),
          username: str('login', 'username', b.username),
          secret: str('login', 'secret', b.secret),
        },
      };
    },
    reshape: ({ login }) => ({
      body: { data: { user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired } },
    }),
  },
  {
    method: 'POST',
    path: '/api/v2/logout',
    edition: 'both',
    context: 'login',
    operation: 'Logout',
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/self',
    edition: 'both',
    context: 'self',
    operation: 'GetSelf',
    reshape: ({ self }) => ({ body: { data: shape.user(self) } }),
  },
  {
    method: 'GET',
    path: '/api/v2/bloodhound-users',
    edition: 'both',
    context: 'users',
    operation: 'ListUsers',
    reshape: ({ users }) => ({ body: { data: { users: users.map(shape.user) } } }),
  },
  {
    method: 'GET',
    path: '/api/v2/tokens',
    edition: 'both',
    context: 'tokens',
    operation: 'ListTokens',
    // BloodHound's UI filters with user_id=eq:<uuid>; a bare uuid is accepted as well.
    variables: ({ query }) => ({ userId: single('tokens', 'user_id', query.user_id)?.replace(/^eq:/, '') ?? null }),
    reshape: ({ tokens }) => ({ body: { data: { tokens: tokens.map(shape.token) } } }),
  },
  {
    method: 'POST',
    path: '/api/v2/tokens',
    edition: 'both',
    context: 'tokens',
    operation: 'CreateToken',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('tokens', body, true);
      return {
        name: b.token_name === undefined ? null : str('tokens', 'token_name', b.token_name),
        userId: b.user_id === undefined || b.user_id === null ? null : str('tokens', 'user_id', b.user_id),
      };
    },
    reshape: ({ createToken }) => ({ body: { data: shape.token(createToken) } }),
  },
  // 9
  {
    method: 'DELETE',
    path: '/api/v2/tokens/:token_id',
    edition: 'both',
    context: 'tokens',
    operation: 'DeleteToken',
    variables: ({ params }) => ({ id: params.token_id }),
    reshape: () => ({ status: 204 }),
  },
  // 12
  {
    method: 'GET',
    path: '/api/v2/permissions/:permission_id',
    edition: 'both',
    context: 'permissions',
    operation: 'GetPermission',
    variables: ({ params }) => ({ id: int('permissions', 'permission_id', params.permission_id) }),
    reshape: ({ permission }) => ({ body: { data: shape.permission(permission) } }),
  },
  {
    method: 'GET',
    path: '/api/v2/permissions',
    edition: 'both',
    context: 'permissions',
    operation: 'ListPermissions',
    reshape: ({ permissions }) => ({ body: { data: { permissions: permissions.map(shape.permission) } } }),
  },
];
