import { z } from 'zod';
import { field } from '../params.js';
import * as shape from '../reshape/identity.js';
import { data, route, type RestResponse } from '../route.js';

const C = 'users';
// The user's id under the operations' name for it, so most routes need no `variables`.
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
