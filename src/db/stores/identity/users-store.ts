import type { Queryable } from '../../pool.js';
import { groupBy } from '../common/group-by.js';

export interface UserModel {
  id: string;
  principalName: string;
  emailAddress: string | null;
  firstName: string | null;
  lastName: string | null;
  isDisabled: boolean;
  lastLogin: Date | null;
  secretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  eulaAccepted: boolean;
  ssoProviderId: number | null;
  /** BloodHound's AuthSecret: null for users without a password (SSO users). */
  authSecret: { id: number; expiresAt: Date | null; totpActivated: boolean; createdAt: Date; updatedAt: Date } | null;
}

const COLUMNS = /* SQL */ `u.id, u.principal_name as "principalName", u.email_address as "emailAddress",
  u.first_name as "firstName", u.last_name as "lastName", u.is_disabled as "isDisabled",
  u.last_login as "lastLogin", u.secret_expires_at as "secretExpiresAt",
  u.created_at as "createdAt", u.updated_at as "updatedAt", u.eula_accepted as "eulaAccepted",
  u.sso_provider_id as "ssoProviderId",
  case when u.secret_digest is null then null else json_build_object(
    'id', u.auth_secret_id, 'expiresAt', u.secret_expires_at,
    'totpActivated', coalesce((select m.activated from user_mfa m where m.user_id = u.id), false),
    'createdAt', u.created_at, 'updatedAt', u.updated_at) end as "authSecret"`;

const GET = /* SQL */ `-- users.get
select ${COLUMNS} from users u where u.id = $1`;
const GET_BY_NAME = /* SQL */ `-- users.getByName
select ${COLUMNS}, u.secret_digest as "secretDigest" from users u where lower(u.principal_name) = lower($1)`;
const LIST = /* SQL */ `-- users.list
select ${COLUMNS} from users u order by u.principal_name`;
const COUNT = /* SQL */ `-- users.count
select count(*)::int as n from users`;
const CREATE = /* SQL */ `-- users.create
insert into users (principal_name, email_address, first_name, last_name, secret_digest, sso_provider_id)
values ($1, $2, $3, $4, $5, $6) returning id`;
const ADD_ROLE = /* SQL */ `-- users.addRole
insert into users_roles (user_id, role_id) values ($1, $2) on conflict do nothing`;
const ROLES_OF = /* SQL */ `-- users.roles
select ur.user_id as "userId", r.id, r.name, r.description, r.created_at as "createdAt", r.updated_at as "updatedAt"
from users_roles ur join roles r on r.id = ur.role_id where ur.user_id = any($1::uuid[]) order by r.id`;
const PERMISSIONS_OF = /* SQL */ `-- users.permissions
select distinct p.authority || '/' || p.name as permission
from users_roles ur join roles_permissions rp on rp.role_id = ur.role_id join permissions p on p.id = rp.permission_id
where ur.user_id = $1 and p.deleted_at is null`;
const TOUCH_LOGIN = /* SQL */ `-- users.touchLogin
update users set last_login = $2 where id = $1`;
const SET_SECRET = /* SQL */ `-- users.setSecret
update users set secret_digest = $2, secret_expires_at = null, updated_at = now() where id = $1`;

const GET_ACCOUNT = /* SQL */ `-- users.getAccount
select ${COLUMNS}, u.secret_digest as "secretDigest" from users u where u.id = $1`;
const SET_DISABLED = /* SQL */ `-- users.setDisabled
update users set is_disabled = $2, updated_at = now() where id = $1`;
const DELETE = /* SQL */ `-- users.delete
delete from users where id = $1`;
const EXPIRE_SECRET = /* SQL */ `-- users.expireSecret
update users set secret_expires_at = $2, updated_at = now() where id = $1`;
const SET_SSO_PROVIDER = /* SQL */ `-- users.setSsoProvider
update users set sso_provider_id = $2, updated_at = now() where id = $1`;
const UPDATE_PROFILE = /* SQL */ `-- users.updateProfile
update users set principal_name = coalesce($2, principal_name), email_address = coalesce($3, email_address),
  first_name = coalesce($4, first_name), last_name = coalesce($5, last_name), updated_at = now() where id = $1`;
const CLEAR_ROLES = /* SQL */ `-- users.clearRoles
delete from users_roles where user_id = $1`;
const ACCEPT_EULA = /* SQL */ `-- users.acceptEula
update users set eula_accepted = true, eula_accepted_at = coalesce(eula_accepted_at, $2) where id = $1`;
const LIST_MINIMAL = /* SQL */ `-- users.listMinimal
select u.id, u.principal_name as "principalName", u.email_address as "emailAddress", u.first_name as "firstName",
  u.last_name as "lastName" from users u where not u.is_disabled`;
const OF_SSO_PROVIDER = /* SQL */ `-- users.ofSsoProvider
select ${COLUMNS} from users u where u.sso_provider_id = $1 order by u.principal_name`;
const SSO_USER = /* SQL */ `-- users.ssoUser
select u.id, u.is_disabled as "isDisabled" from users u
where u.sso_provider_id = $2 and (lower(u.principal_name) = lower($1) or lower(u.email_address) = lower($1))
order by (lower(u.principal_name) = lower($1)) desc limit 1`;

export interface MinimalUser {
  id: string;
  principalName: string;
  emailAddress: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** What account management needs besides the public model: how the user signs in. */
export type AccountModel = UserModel & { secretDigest: string | null; ssoProviderId: number | null };

export interface RoleRef {
  id: number;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

type AuthSecretRow = { id: number; expiresAt: string | null; totpActivated: boolean; createdAt: string; updatedAt: string } | null;

/** json_build_object gives the AuthSecret's times as text; the model has dates like every other time. */
function hydrate<U extends { authSecret: unknown }>(row: U | undefined): U | undefined {
  if (!row || !row.authSecret) return row;
  const a = row.authSecret as NonNullable<AuthSecretRow>;
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return { ...row, authSecret: { ...a, expiresAt: date(a.expiresAt), createdAt: date(a.createdAt)!, updatedAt: date(a.updatedAt)! } };
}

export function createUsersStore(db: Queryable) {
  return {
    async get(id: string): Promise<UserModel | undefined> {
      return hydrate((await db.query<UserModel>(GET, [id]))[0]);
    },
    async getByName(name: string): Promise<(UserModel & { secretDigest: string | null }) | undefined> {
      return hydrate((await db.query<UserModel & { secretDigest: string | null }>(GET_BY_NAME, [name]))[0]);
    },
    async list(): Promise<UserModel[]> {
      return (await db.query<UserModel>(LIST)).map((u) => hydrate(u)!);
    },
    async count(): Promise<number> {
      return (await db.query<{ n: number }>(COUNT))[0]!.n;
    },
    async create(u: {
      principalName: string;
      emailAddress?: string | null;
      firstName?: string | null;
      lastName?: string | null;
      secretDigest: string | null;
      ssoProviderId?: number | null;
    }): Promise<string> {
      const rows = await db.query<{ id: string }>(CREATE, [
        u.principalName,
        u.emailAddress ?? null,
        u.firstName ?? null,
        u.lastName ?? null,
        u.secretDigest,
        u.ssoProviderId ?? null,
      ]);
      return rows[0]!.id;
    },
    async addRole(userId: string, roleId: number): Promise<void> {
      await db.execute(ADD_ROLE, [userId, roleId]);
    },
    async rolesOf(userIds: readonly string[]): Promise<Map<string, RoleRef[]>> {
      return groupBy<string, RoleRef & { userId: string }, 'userId'>(
        await db.query<RoleRef & { userId: string }>(ROLES_OF, [userIds]),
        'userId',
      );
    },
    async permissionsOf(userId: string): Promise<Set<string>> {
      return new Set((await db.query<{ permission: string }>(PERMISSIONS_OF, [userId])).map((r) => r.permission));
    },
    async touchLogin(userId: string, at: Date): Promise<void> {
      await db.execute(TOUCH_LOGIN, [userId, at]);
    },
    async setSecret(userId: string, digest: string): Promise<void> {
      await db.execute(SET_SECRET, [userId, digest]);
    },
    async getAccount(id: string): Promise<AccountModel | undefined> {
      return hydrate((await db.query<AccountModel>(GET_ACCOUNT, [id]))[0]);
    },
    async setDisabled(id: string, disabled: boolean): Promise<void> {
      await db.execute(SET_DISABLED, [id, disabled]);
    },
    async delete(id: string): Promise<boolean> {
      return (await db.execute(DELETE, [id])) > 0;
    },
    /** Marks the password expired: the next login says auth_expired until it is changed. */
    async expireSecret(id: string, at: Date): Promise<void> {
      await db.execute(EXPIRE_SECRET, [id, at]);
    },
    async setSsoProvider(id: string, providerId: number | null): Promise<void> {
      await db.execute(SET_SSO_PROVIDER, [id, providerId]);
    },
    async updateProfile(
      id: string,
      p: { principalName?: string | null; emailAddress?: string | null; firstName?: string | null; lastName?: string | null },
    ): Promise<void> {
      await db.execute(UPDATE_PROFILE, [id, p.principalName ?? null, p.emailAddress ?? null, p.firstName ?? null, p.lastName ?? null]);
    },
    async setRoles(id: string, roleIds: readonly number[]): Promise<void> {
      await db.execute(CLEAR_ROLES, [id]);
      for (const r of roleIds) await db.execute(ADD_ROLE, [id, r]);
    },
    /** The users bound to an SSO provider. */
    async ofSsoProvider(providerId: number): Promise<UserModel[]> {
      return (await db.query<UserModel>(OF_SSO_PROVIDER, [providerId])).map((u) => hydrate(u)!);
    },
    /** Records that the user accepted the EULA (the first acceptance's time is kept). */
    async acceptEula(id: string, at: Date): Promise<void> {
      await db.execute(ACCEPT_EULA, [id, at]);
    },
    /**
     * Enabled users without anything sensitive, filtered and sorted: `where` and `order` are built by the caller
     * from fixed column names only (minimal-users.ts); values travel as parameters.
     */
    async listMinimal(where: string, order: string, params: unknown[]): Promise<MinimalUser[]> {
      return db.query<MinimalUser>(`${LIST_MINIMAL}${where ? ` and ${where}` : ''} order by ${order}`, params);
    },
    /** The user an SSO provider's principal names, among that provider's users only (name, else email). */
    async ssoUser(principal: string, providerId: number): Promise<{ id: string; isDisabled: boolean } | undefined> {
      return (await db.query<{ id: string; isDisabled: boolean }>(SSO_USER, [principal, providerId]))[0];
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
