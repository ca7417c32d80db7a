import { z } from 'zod';
import { field, intText } from '../params.js';
import { filtersFromQuery } from '../../services/identity/column-filters.js';
import { MINIMAL_FILTERS } from '../../services/identity/minimal-users.js';
import * as shape from '../reshape/identity.js';
import { data, route, type RestResponse } from '../route.js';

const C = 'users';
// The user's id under the operations' name for it, so most routes need no `variables`.
const userParam = z.object({ user_id: z.string() });
const userId = { params: z.object({ user_id: z.string() }).transform((p) => ({ id: p.user_id })) };
/** As in BloodHound, the writes answer 200 with an empty body. */
const done = (): RestResponse => ({ status: 200 });

/** BloodHound's `roles` is a list of role ids. */
const roleIds = z
  .array(z.number().int().min(1).max(2147483647), { error: 'must be a list of at most 16 role ids.' })
  .max(16, 'must be a list of at most 16 role ids.')
  .nullish()
  .transform((v) => v ?? null);

/**
 * Account management at BloodHound's paths: read, update (disable), delete a user, set or expire their password.
 * As in BloodHound the writes answer 200 with an empty body. Ending a user's sessions is ours (BloodHound ends
 * them only when a user is disabled).
 */
export const accountRoutes = [
  // BloodHound's ListActiveUsersMinimal: filters `col=op:value` (repeatable) and sort_by, as its other lists.
  route('GET', '/api/v2/bloodhound-users-minimal', C, 'ListUsersMinimal', {
    input: { query: z.record(z.string(), z.union([z.string(), z.array(z.string())])) },
    variables: ({ query }) => ({
      filters: filtersFromQuery(query, MINIMAL_FILTERS),
      sortBy: query.sort_by === undefined ? null : ([] as string[]).concat(query.sort_by),
    }),
    reshape: ({ usersMinimal }) =>
      data({
        users: usersMinimal.map((u) => ({
          id: u.id,
          principal_name: u.principalName,
          email_address: u.emailAddress,
          first_name: u.firstName,
          last_name: u.lastName,
        })),
      }),
  }),
  route('PUT', '/api/v2/accept-eula', 'eula', 'AcceptEula', { reshape: done }),
  route('PUT', '/api/v2/features/:feature_id/toggle', 'features', 'ToggleFeatureFlag', {
    input: { params: z.object({ feature_id: intText(-2147483648) }) },
    variables: ({ params }) => ({ id: params.feature_id }),
    reshape: ({ toggleFeatureFlag }) => data({ enabled: toggleFeatureFlag.enabled }),
  }),
  // BloodHound's user creation: one role (its id, as BloodHound's single-role users have), a password (`secret`)
  // with the rules of `gas user create`. SSO users are created at first login (auto-provisioning).
  route('POST', '/api/v2/bloodhound-users', C, 'CreateUser', {
    body: 'json',
    input: {
      body: z.object({
        principal: z.string({ error: 'is required.' }),
        secret: z.string({ error: 'is required: a password of at least 12 characters.' }),
        email_address: field.string(),
        first_name: field.string(),
        last_name: field.string(),
        roles: z
          .array(z.number().int().min(1).max(2147483647), { error: 'must be a list of one role id.' })
          .length(1, 'must be a list of one role id.'),
      }),
    },
    variables: ({ body: b }) => ({
      input: {
        principalName: b.principal,
        password: b.secret,
        roleId: b.roles[0],
        emailAddress: b.email_address,
        firstName: b.first_name,
        lastName: b.last_name,
      },
    }),
    reshape: ({ createUser }) => data(shape.user(createUser)),
  }),
  // Multi-factor authentication (TOTP) as BloodHound's: enrol with the password, activate with a first code.
  route('POST', '/api/v2/bloodhound-users/:user_id/mfa', 'mfa', 'EnrollMfa', {
    body: 'json',
    input: { params: userParam, body: z.object({ secret: field.string() }) },
    variables: ({ params, body }) => ({ userId: params.user_id, secret: body.secret }),
    reshape: ({ enrollMfa }) => data({ qr_code: enrollMfa.qrCode, totp_secret: enrollMfa.totpSecret }),
  }),
  route('DELETE', '/api/v2/bloodhound-users/:user_id/mfa', 'mfa', 'DisenrollMfa', {
    body: 'json',
    input: { params: userParam, body: z.object({ secret: field.string() }).optional() },
    variables: ({ params, body }) => ({ userId: params.user_id, secret: body?.secret ?? null }),
    reshape: ({ disenrollMfa }) => data({ status: disenrollMfa }),
  }),
  route('GET', '/api/v2/bloodhound-users/:user_id/mfa-activation', 'mfa', 'MfaStatus', {
    input: { params: userParam },
    variables: ({ params }) => ({ userId: params.user_id }),
    reshape: ({ mfaStatus }) => data({ status: mfaStatus }),
  }),
  route('POST', '/api/v2/bloodhound-users/:user_id/mfa-activation', 'mfa', 'ActivateMfa', {
    body: 'json',
    input: { params: userParam, body: z.object({ otp: field.string() }) },
    variables: ({ params, body }) => ({ userId: params.user_id, otp: body.otp }),
    reshape: ({ activateMfa }) => data({ status: activateMfa }),
  }),
  route('GET', '/api/v2/bloodhound-users/:user_id', C, 'GetUser', {
    input: userId,
    reshape: ({ user }) => data(shape.user(user)),
  }),
  route('PATCH', '/api/v2/bloodhound-users/:user_id', C, 'UpdateUser', {
    body: 'json',
    input: {
      ...userId,
      body: z.object({
        principal: field.string(),
        email_address: field.string(),
        first_name: field.string(),
        last_name: field.string(),
        roles: roleIds,
        is_disabled: field.bool(),
      }),
    },
    variables: ({ params, body: b }) => ({
      id: params.id,
      input: {
        principalName: b.principal,
        emailAddress: b.email_address,
        firstName: b.first_name,
        lastName: b.last_name,
        roleIds: b.roles,
        isDisabled: b.is_disabled,
      },
    }),
    reshape: done,
  }),
  route('DELETE', '/api/v2/bloodhound-users/:user_id', C, 'DeleteUser', {
    input: userId,
    reshape: done,
  }),
  route('PUT', '/api/v2/bloodhound-users/:user_id/secret', C, 'SetUserSecret', {
    body: 'json',
    input: {
      ...userId,
      body: z.object({ secret: z.string(), current_secret: field.string(), needs_password_reset: field.bool() }),
    },
    variables: ({ params, body: b }) => ({
      id: params.id,
      input: { secret: b.secret, currentSecret: b.current_secret, needsPasswordReset: b.needs_password_reset },
    }),
    reshape: done,
  }),
  route('DELETE', '/api/v2/bloodhound-users/:user_id/secret', C, 'ExpireUserSecret', {
    input: userId,
    reshape: done,
  }),
  route('DELETE', '/api/v2/bloodhound-users/:user_id/sessions', C, 'EndUserSessions', {
    input: userId,
    reshape: ({ endUserSessions }) => data({ ended: endUserSessions }),
  }),
];
