import { z } from 'zod';
import { field, intText } from '../params.js';
import * as adminShape from '../reshape/admin.js';
import * as shape from '../reshape/identity.js';
import { data, noContent, route } from '../route.js';

/** Login, the caller's profile, API tokens and permissions. Endpoint numbers are the API document's. */
export const identityRoutes = [
  route('POST', '/api/v2/login', 'login', 'Login', {
    body: 'json',
    input: {
      body: z.object({ login_method: z.string().default('secret'), username: z.string(), secret: z.string(), otp: field.string() }),
    },
    variables: ({ body: b }) => ({ input: { loginMethod: b.login_method, username: b.username, secret: b.secret, otp: b.otp } }),
    reshape: ({ login }) => data({ user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired }),
  }),
  route('POST', '/api/v2/logout', 'login', 'Logout', { reshape: noContent }),
  route('GET', '/api/v2/self', 'self', 'GetSelf', { reshape: ({ self }) => data(shape.user(self)) }),
  route('GET', '/api/v2/bloodhound-users', 'users', 'ListUsers', { reshape: ({ users }) => data({ users: users.map(shape.user) }) }),
  route('GET', '/api/v2/tokens', 'tokens', 'ListTokens', {
    // BloodHound's UI filters with user_id=eq:<uuid>; a bare uuid is accepted as well.
    input: { query: z.object({ user_id: z.string().optional() }) },
    variables: ({ query }) => ({ userId: query.user_id?.replace(/^eq:/, '') ?? null }),
    reshape: ({ tokens }) => data({ tokens: tokens.map(shape.token) }),
  }),
  route('POST', '/api/v2/tokens', 'tokens', 'CreateToken', {
    body: 'json',
    input: { body: z.object({ token_name: field.string(), user_id: field.string() }).optional() },
    variables: ({ body }) => ({ name: body?.token_name ?? null, userId: body?.user_id ?? null }),
    reshape: ({ createToken }) => data(shape.token(createToken)),
  }),
  // 9
  route('DELETE', '/api/v2/tokens/:token_id', 'tokens', 'DeleteToken', {
    input: { params: z.object({ token_id: z.string() }) },
    variables: ({ params }) => ({ id: params.token_id }),
    reshape: noContent,
  }),
  // 12
  route('GET', '/api/v2/permissions/:permission_id', 'permissions', 'GetPermission', {
    input: { params: z.object({ permission_id: intText(-2147483648) }) },
    variables: ({ params }) => ({ id: params.permission_id }),
    reshape: ({ permission }) => data(shape.permission(permission)),
  }),
  route('GET', '/api/v2/permissions', 'permissions', 'ListPermissions', {
    reshape: ({ permissions }) => data({ permissions: permissions.map(shape.permission) }),
  }),
  // BloodHound's SAML routes deprecated since its v6.4.0, answered as it still answers them.
  route('GET', '/api/v2/saml', 'saml', 'ListSamlProviders', {
    deprecatedBy: '/api/v2/sso-providers',
    reshape: ({ samlProviders }) => data({ saml_providers: samlProviders.map(adminShape.samlProvider) }),
  }),
  route('GET', '/api/v2/saml/sso', 'saml', 'ListSamlSignOnEndpoints', {
    deprecatedBy: '/api/v2/sso-providers',
    reshape: ({ samlSignOnEndpoints }) =>
      data({ endpoints: samlSignOnEndpoints.map((e) => ({ name: e.name, initiation_url: e.initiationUrl })) }),
  }),
  route('DELETE', '/api/v2/saml/providers/:saml_provider_id', 'saml', 'DeleteSamlProvider', {
    deprecatedBy: '/api/v2/sso-providers/{sso_provider_id}',
    input: { params: z.object({ saml_provider_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.saml_provider_id }),
    reshape: ({ deleteSamlProvider }) => data({ affected_users: deleteSamlProvider.map(shape.user) }),
  }),
];
