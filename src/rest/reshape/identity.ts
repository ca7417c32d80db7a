import { nullString, nullTime, nullUuid } from '../shapes.js';

/** GraphQL results (camelCase) → the API document's JSON (snake_case with nullable wrappers). */

type Json = Record<string, any>;

export const permission = (p: Json) => ({
  id: p.id,
  authority: p.authority,
  name: p.name,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  deleted_at: nullTime(p.deletedAt),
});

export const token = (t: Json) => ({
  id: t.id,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
  deleted_at: nullTime(t.deletedAt),
  user_id: nullUuid(t.userId),
  name: nullString(t.name),
  ...(t.key ? { key: t.key } : {}),
  hmac_method: t.hmacMethod,
  last_access: t.lastAccess ?? t.createdAt,
});

export const role = (r: Json) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  permissions: (r.permissions ?? []).map(permission),
});

export const user = (u: Json) => ({
  id: u.id,
  principal_name: u.principalName,
  email_address: u.emailAddress,
  first_name: u.firstName,
  last_name: u.lastName,
  is_disabled: u.isDisabled,
  last_login: u.lastLogin,
  created_at: u.createdAt,
  updated_at: u.updatedAt,
  roles: (u.roles ?? []).map(role),
});
