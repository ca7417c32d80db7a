import { nullString, nullTime, nullUuid } from '../shapes.js';
import type { GetSelfQuery, PermissionFieldsFragment, TokenFieldsFragment, UserFieldsFragment } from '../../generated/operations.js';

/** GraphQL results (camelCase) → the API document's JSON (snake_case with nullable wrappers). */

export const permission = (p: PermissionFieldsFragment) => ({
  id: p.id,
  authority: p.authority,
  name: p.name,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  deleted_at: nullTime(p.deletedAt),
});

export const token = (t: TokenFieldsFragment) => ({
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

/** A role as GetSelf selects it (ListUsers leaves its permissions out). */
type RoleResult = Omit<GetSelfQuery['self']['roles'][number], 'permissions'> & { permissions?: PermissionFieldsFragment[] };

export const role = (r: RoleResult) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  permissions: (r.permissions ?? []).map(permission),
});

export const user = (u: UserFieldsFragment & { roles?: RoleResult[] }) => ({
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
  eula_accepted: u.eulaAccepted,
  sso_provider_id: u.ssoProviderId ?? null,
  // BloodHound's deprecated name for the SAML binding; our bindings are all sso_provider_id.
  saml_provider_id: null,
  AuthSecret: u.authSecret
    ? {
        id: u.authSecret.id,
        digest_method: u.authSecret.digestMethod,
        expires_at: u.authSecret.expiresAt,
        totp_activated: u.authSecret.totpActivated,
        created_at: u.authSecret.createdAt,
        updated_at: u.authSecret.updatedAt,
      }
    : null,
});
