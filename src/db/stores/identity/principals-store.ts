import type { Queryable } from '../../pool.js';

/** A user as the authorisation layer needs it: identity, state and effective permissions, in one row. */
export interface UserPrincipal {
  userId: string;
  principalName: string;
  isDisabled: boolean;
  permissions: string[];
  roles: string[];
}

export interface SessionPrincipal extends UserPrincipal {
  sessionId: number;
  expiresAt: Date;
  endedAt: Date | null;
}

export interface TokenPrincipal {
  tokenId: string;
  /** Sealed (or plain from before sealing); the tokens service opens it. */
  key: string;
  /** The RequestDate offset fixed by the token's first accepted request. */
  requestOffsetMinutes: number | null;
  userId: string | null;
  clientId: string | null;
  principalName: string | null;
  isDisabled: boolean | null;
  permissions: string[];
  roles: string[];
}

const USER_GRANTS = /* SQL */ `
  coalesce((select array_agg(distinct p.authority || '/' || p.name)
            from users_roles ur join roles_permissions rp on rp.role_id = ur.role_id
            join permissions p on p.id = rp.permission_id
            where ur.user_id = u.id and p.deleted_at is null), '{}') as permissions,
  coalesce((select array_agg(r.name order by r.id) from users_roles ur join roles r on r.id = ur.role_id
            where ur.user_id = u.id), '{}') as roles`;

const BY_SESSION = /* SQL */ `-- principals.bySession
select s.id as "sessionId", s.expires_at as "expiresAt", s.ended_at as "endedAt",
       u.id as "userId", u.principal_name as "principalName", u.is_disabled as "isDisabled", ${USER_GRANTS}
from user_sessions s join users u on u.id = s.user_id where s.id = $1`;

const BY_TOKEN = /* SQL */ `-- principals.byToken
select t.id as "tokenId", t.key, t.request_offset_minutes as "requestOffsetMinutes", t.user_id as "userId", t.client_id as "clientId",
       u.principal_name as "principalName", u.is_disabled as "isDisabled", ${USER_GRANTS}
from auth_tokens t left join users u on u.id = t.user_id
where t.id = $1 and t.deleted_at is null`;

const BY_USER_NAME = /* SQL */ `-- principals.byUserName
select u.id as "userId", u.principal_name as "principalName", u.is_disabled as "isDisabled", ${USER_GRANTS}
from users u where lower(u.principal_name) = lower($1)`;

export function createPrincipalsStore(db: Queryable) {
  return {
    async bySession(sessionId: number): Promise<SessionPrincipal | undefined> {
      return (await db.query<SessionPrincipal>(BY_SESSION, [sessionId]))[0];
    },
    async byUserName(name: string): Promise<UserPrincipal | undefined> {
      return (await db.query<UserPrincipal>(BY_USER_NAME, [name]))[0];
    },
    async byToken(tokenId: string): Promise<TokenPrincipal | undefined> {
      return (await db.query<TokenPrincipal>(BY_TOKEN, [tokenId]))[0];
    },
  };
}

export type PrincipalsStore = ReturnType<typeof createPrincipalsStore>;
