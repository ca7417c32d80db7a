import { hashPassword, verifyPassword } from '../../auth/password.js';
import { PERMISSIONS, type UserSession } from '../../auth/session.js';
import { createPermissionsStore } from '../../db/stores/identity/permissions-store.js';
import type { SsoStore } from '../../db/stores/identity/sso-store.js';
import { createUsersStore, type AccountModel, type UserModel } from '../../db/stores/identity/users-store.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { UserServiceDeps } from './identity.js';
import { requireText, requireUuid } from '../common/validate.js';
import { createMinimalUsers } from './minimal-users.js';

export interface AccountsDeps extends UserServiceDeps {
  sso: SsoStore;
}

export const MIN_PASSWORD = 12;
const MAX_PASSWORD = 1024;
const CONTEXT = 'users';

/** PATCH /api/v2/bloodhound-users/{id}: every field optional; roles replace the user's roles. */
export interface UpdateUserInput {
  principalName?: string | null;
  emailAddress?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  roleIds?: number[] | null;
  isDisabled?: boolean | null;
}

const isManager = (s: UserSession) => s.permissions.has(PERMISSIONS.AuthManageUsers);

/**
 * Account management: change a password, expire it, disable, enable and delete users, end their
 * sessions, link a local user to an SSO provider. Disabling, deleting and password changes end the user's sessions
 * at once (a JWT names its session row, so it stops working on its next request).
 */
export function createAccountsService(deps: AccountsDeps) {
  const { users, sessions, clock } = deps;

  async function account(id: string): Promise<AccountModel> {
    const user = await users.getAccount(requireUuid(CONTEXT, 'user_id', id));
    if (!user) throw notFound(CONTEXT, 'The requested user could not be found.');
    return user;
  }

  function requireManager(session: UserSession): void {
    if (!isManager(session)) throw forbidden(CONTEXT, 'Managing users needs the auth/ManageUsers permission.');
  }

  function checkPassword(secret: unknown): string {
    if (typeof secret !== 'string' || secret.length < MIN_PASSWORD)
      throw badRequest(CONTEXT, `secret must be at least ${MIN_PASSWORD} characters.`);
    if (secret.length > MAX_PASSWORD) throw badRequest(CONTEXT, `secret is longer than ${MAX_PASSWORD} characters.`);
    return secret;
  }

  return {
    /**
     * PUT /api/v2/bloodhound-users/{id}/secret. Your own password needs the current one (403 when wrong); someone
     * else's needs auth/ManageUsers. SSO users have no password (400). Ends the user's other sessions.
     */
    async setSecret(
      session: UserSession,
      id: string,
      input: { secret: unknown; currentSecret?: unknown; needsPasswordReset?: boolean | null },
    ): Promise<void> {
      const target = await account(id);
      const self = target.id === session.userId;
      if (!self) requireManager(session);
      const secret = checkPassword(input.secret);
      if (target.ssoProviderId !== null && !target.secretDigest) throw badRequest(CONTEXT, 'Invalid operation, user is SSO.');
      if (self) {
        const current = typeof input.currentSecret === 'string' ? input.currentSecret : '';
        if (!target.secretDigest || !current || !(await verifyPassword(current.slice(0, MAX_PASSWORD), target.secretDigest))) {
          throw forbidden(CONTEXT, 'Invalid current password.');
        }
      }
      await users.setSecret(target.id, await hashPassword(secret));
      if (input.needsPasswordReset) await users.expireSecret(target.id, clock());
      const ended = await sessions.endAllForUser(target.id, clock(), self ? session.sessionId : undefined);
      deps.log.info({ userId: target.id, by: session.userId, sessionsEnded: ended }, 'password changed');
    },

    /** DELETE /api/v2/bloodhound-users/{id}/secret: the next login reports auth_expired until the password changes. */
    async expireSecret(session: UserSession, id: string): Promise<void> {
      requireManager(session);
      const target = await account(id);
      if (target.ssoProviderId !== null && !target.secretDigest) throw conflict(CONTEXT, 'user has SSO auth enabled');
      await users.expireSecret(target.id, clock());
    },

    /** PATCH /api/v2/bloodhound-users/{id}. You cannot change your own roles nor disable yourself. */
    async update(session: UserSession, id: string, input: UpdateUserInput): Promise<UserModel> {
      requireManager(session);
      const target = await account(id);
      const self = target.id === session.userId;
      if (self && input.isDisabled) throw badRequest(CONTEXT, 'You cannot disable yourself.');
      if (self && input.roleIds) throw badRequest(CONTEXT, 'You cannot change your own roles.');
      const principalName = input.principalName == null ? null : requireText(CONTEXT, 'principal', input.principalName, 256);
      if (input.roleIds && input.roleIds.length > 16) throw badRequest(CONTEXT, 'roles lists at most 16 role ids.');
      await deps
        .tx(async (q) => {
          const txUsers = createUsersStore(q);
          await txUsers.updateProfile(target.id, {
            principalName,
            emailAddress: input.emailAddress == null ? null : requireText(CONTEXT, 'email_address', input.emailAddress, 256),
            firstName: input.firstName == null ? null : requireText(CONTEXT, 'first_name', input.firstName, 256),
            lastName: input.lastName == null ? null : requireText(CONTEXT, 'last_name', input.lastName, 256),
          });
          if (input.roleIds) {
            const perms = createPermissionsStore(q);
            for (const r of input.roleIds) if (!(await perms.roleById(r))) throw badRequest(CONTEXT, `Unknown role id ${r}.`);
            await txUsers.setRoles(target.id, input.roleIds);
          }
          if (input.isDisabled != null) await txUsers.setDisabled(target.id, input.isDisabled);
        })
        .catch((err) => {
          if (err instanceof AppError && err.code === 'CONFLICT')
            throw conflict(CONTEXT, 'A user with that principal name already exists.');
          throw err;
        });
      if (input.isDisabled) await sessions.endAllForUser(target.id, clock());
      return (await users.get(target.id))!;
    },

    /** Disables (and ends every session of) or enables a user. */
    async setDisabled(session: UserSession, id: string, disabled: boolean): Promise<UserModel> {
      return this.update(session, id, { isDisabled: disabled });
    },

    /** DELETE /api/v2/bloodhound-users/{id}: the user, their sessions and tokens. Not yourself. */
    async delete(session: UserSession, id: string): Promise<void> {
      requireManager(session);
      const target = await account(id);
      if (target.id === session.userId) throw badRequest(CONTEXT, 'User cannot delete themselves.');
      await users.delete(target.id);
      deps.log.info({ userId: target.id, by: session.userId }, 'user deleted');
    },

    /** Ends every session of a user (yourself, or anyone with auth/ManageUsers); returns how many were live. */
    async endSessions(session: UserSession, id: string): Promise<number> {
      const target = await account(id);
      if (target.id !== session.userId) requireManager(session);
      return sessions.endAllForUser(target.id, clock());
    },

    /**
     * `gas user link-sso`: binds a user to an SSO provider (by slug or id) so its assertions reach them, or unbinds
     * with provider null. This is the only way a local password user becomes reachable through an IdP.
     */
    async linkSso(session: UserSession, id: string, provider: string | null): Promise<{ providerId: number | null }> {
      requireManager(session);
      const target = await account(id);
      let providerId: number | null = null;
      if (provider !== null) {
        const found = /^\d+$/.test(provider)
          ? (await deps.sso.listSso()).find((p) => p.id === Number(provider))
          : await deps.sso.ssoBySlug(provider);
        if (!found) throw notFound('sso', `No SSO provider "${provider.slice(0, 200)}".`);
        providerId = found.id;
      }
      await users.setSsoProvider(target.id, providerId);
      return { providerId };
    },

    /** GET /api/v2/bloodhound-users-minimal: enabled users' names and ids, filtered and sorted as BloodHound's. */
    listMinimal: createMinimalUsers(users),

    /** PUT /api/v2/accept-eula: the caller accepts the EULA; BloodHound's `eula_accepted` reads true from then on. */
    async acceptEula(session: UserSession): Promise<UserModel> {
      await users.acceptEula(session.userId, clock());
      return (await users.get(session.userId))!;
    },

    /** The account row for administration (includes whether it signs in by password or SSO). */
    get: account,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
