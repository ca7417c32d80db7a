import { badRequest } from '../../errors.js';
import { bodyObject } from '../params.js';
import * as shape from '../reshape/identity.js';
import type { RestRoute } from '../route.js';

const C = 'users';

const optString = (field: string, v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw badRequest(C, `${field} must be a string.`);
  return v;
};

const optBool = (field: string, v: unknown): boolean | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw badRequest(C, `${field} must be true or false.`);
  return v;
};

/** BloodHound's `roles` is a list of role ids. */
const roleIds = (v: unknown): number[] | null => {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length > 16 || !v.every((x) => Number.isInteger(x) && x > 0 && x < 2 ** 31)) {
    throw badRequest(C, 'roles must be a list of at most 16 role ids.');
  }
  return v as number[];
};

/**
 * Account management at BloodHound's paths: read, update (disable), delete a user, set or expire their password.
 * As in BloodHound the writes answer 200 with an empty body. Ending a user's sessions is ours (BloodHound ends
 * them only when a user is disabled).
 */
export const accountRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/v2/bloodhound-users/:user_id',
    edition: 'both',
    context: C,
    operation: 'GetUser',
    variables: ({ params }) => ({ id: params.user_id }),
    reshape: ({ user }) => ({ body: { data: shape.user(user) } }),
  },
  {
    method: 'PATCH',
    path: '/api/v2/bloodhound-users/:user_id',
    edition: 'both',
    context: C,
    operation: 'UpdateUser',
    body: 'json',
    variables: ({ params, body }) => {
      const b = bodyObject(C, body);
      return {
        id: params.user_id,
        input: {
          principalName: optString('principal', b.principal),
          emailAddress: optString('email_address', b.email_address),
          firstName: optString('first_name', b.first_name),
          lastName: optString('last_name', b.last_name),
          roleIds: roleIds(b.roles),
          isDisabled: optBool('is_disabled', b.is_disabled),
        },
      };
    },
    reshape: () => ({ status: 200 }),
  },
  {
    method: 'DELETE',
    path: '/api/v2/bloodhound-users/:user_id',
    edition: 'both',
    context: C,
    operation: 'DeleteUser',
    variables: ({ params }) => ({ id: params.user_id }),
    reshape: () => ({ status: 200 }),
  },
  {
    method: 'PUT',
    path: '/api/v2/bloodhound-users/:user_id/secret',
    edition: 'both',
    context: C,
    operation: 'SetUserSecret',
    body: 'json',
    variables: ({ params, body }) => {
      const b = bodyObject(C, body);
      const secret = optString('secret', b.secret);
      if (!secret) throw badRequest(C, 'secret is required.');
      return {
        id: params.user_id,
        input: {
          secret,
          currentSecret: optString('current_secret', b.current_secret),
          needsPasswordReset: optBool('needs_password_reset', b.needs_password_reset),
        },
      };
    },
    reshape: () => ({ status: 200 }),
  },
  {
    method: 'DELETE',
    path: '/api/v2/bloodhound-users/:user_id/secret',
    edition: 'both',
    context: C,
    operation: 'ExpireUserSecret',
    variables: ({ params }) => ({ id: params.user_id }),
    reshape: () => ({ status: 200 }),
  },
  {
    method: 'DELETE',
    path: '/api/v2/bloodhound-users/:user_id/sessions',
    edition: 'both',
    context: C,
    operation: 'EndUserSessions',
    variables: ({ params }) => ({ id: params.user_id }),
    reshape: ({ endUserSessions }) => ({ body: { data: { ended: endUserSessions } } }),
  },
];
