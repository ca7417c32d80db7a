import crypto from 'node:crypto';
import { signSessionToken, verifySessionToken } from '../../auth/jwt.js';
import { hashPassword, randomPassword, verifyPassword } from '../../auth/password.js';
import { Keyring } from '../../auth/secret-box.js';
import { PERMISSIONS, type Session, type UserSession } from '../../auth/session.js';
import type { Queryable } from '../../db/pool.js';
import { createPermissionsStore } from '../../db/stores/identity/permissions-store.js';
import type { PrincipalsStore, UserPrincipal } from '../../db/stores/identity/principals-store.js';
import type { SecretsStore } from '../../db/stores/identity/secrets-store.js';
import type { SessionsStore } from '../../db/stores/identity/sessions-store.js';
import { createUsersStore, type RoleRef, type UserModel, type UsersStore } from '../../db/stores/identity/users-store.js';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { requireText, requireUuid } from '../common/validate.js';
import type { LoginThrottle } from './login-throttle.js';
import type { AuditService } from '../audit/audit.js';
import { currentScope } from '../../scope.js';

/** What the services over user accounts (this one and accounts.ts) need. */
export interface UserServiceDeps {
  users: UsersStore;
  sessions: SessionsStore;
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  clock: () => Date;
  log: Logger;
}

export interface IdentityDeps extends UserServiceDeps {
  principals: PrincipalsStore;
  secrets: SecretsStore;
  keyring: Keyring;
  sessionTtlHours: number;
  throttle: LoginThrottle;
  /** The second factor of a password sign-in (mfa.ts `checkLogin`): throws when a needed code is missing or wrong. */
  /** The audit log: every sign-in attempt is recorded. */
  audit?: Pick<AuditService, 'change' | 'record'>;
  secondFactor?: (userId: string, principalName: string, otp: string | null | undefined, clientIp: string) => Promise<void>;
}

export interface LoginResult {
  userId: string;
  sessionToken: string;
  authExpired: boolean;
}

const CONTEXT = 'login';
const INVALID_LOGIN = 'Authentication is invalid: unknown user name or wrong secret.';

/** Users, login sessions (JWT) and the first administrator. */
export async function createIdentityService(deps: IdentityDeps) {
  const { users, sessions, principals, clock } = deps;
  // Sealed at rest under the server key; a plain value is from before migration 0008 (sealed at start).
  const aad = 'app_secrets.value:jwt_signing_key';
  // Opened on first use (the server checks it at start: services `checkSecrets`), so commands that need no
  // secret (`gas ingest`) run without the server key; a wrong key fails here, naming the key id it lacks.
  let jwtKeyOnce: Promise<crypto.KeyObject> | undefined;
  const jwtKey = (): Promise<crypto.KeyObject> =>
    (jwtKeyOnce ??= (async () => {
      const stored = await deps.secrets.getOrCreate('jwt_signing_key', deps.keyring.seal(crypto.randomBytes(32).toString('base64'), aad));
      return crypto.createSecretKey(Buffer.from(Keyring.isSealed(stored) ? deps.keyring.open(stored, aad) : stored, 'base64'));
    })().catch((err) => {
      jwtKeyOnce = undefined;
      throw err;
    }));

  function toUserSession(p: UserPrincipal, extra: Pick<UserSession, 'method' | 'sessionId' | 'tokenId'>): UserSession {
    return {
      kind: 'user',
      userId: p.userId,
      principalName: p.principalName,
      permissions: new Set(p.permissions),
      roles: p.roles,
      ...extra,
    };
  }

  async function startSession(userId: string, provider: string): Promise<LoginResult> {
    const now = clock();
    const expires = new Date(now.getTime() + deps.sessionTtlHours * 3600_000);
    const session = await sessions.create(userId, provider, now, expires);
    await users.touchLogin(userId, now);
    const sessionToken = signSessionToken(
      { sub: userId, jti: String(session.id), iat: Math.floor(now.getTime() / 1000), exp: Math.floor(expires.getTime() / 1000) },
      await jwtKey(),
    );
    return { userId, sessionToken, authExpired: false };
  }

  /** Creates a user with a password and one role; used by `gas user create` and the users mutation. */
  async function createUser(input: {
    principalName: string;
    password: string;
    /** The role by name (`gas user create`) or by id (BloodHound's `roles`); one of the two. */
    role?: string | null;
    roleId?: number | null;
    emailAddress?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  }): Promise<UserModel> {
    if ((input.role == null) === (input.roleId == null)) throw badRequest('users', 'Give the role: its name or its id (one of the two).');
    const principalName = requireText('users', 'principal_name', input.principalName, 256);
    if (!input.password || input.password.length < 12) throw badRequest('users', 'password must be at least 12 characters.');
    const digest = await hashPassword(input.password);
    return deps.tx(async (q) => {
      const txUsers = createUsersStore(q);
      const roles = createPermissionsStore(q);
      const role = input.role != null ? await roles.roleByName(input.role) : await roles.roleById(input.roleId!);
      if (!role) throw badRequest('users', `Unknown role ${input.role != null ? `"${input.role}"` : input.roleId}.`);
      if (await txUsers.getByName(principalName)) throw conflict('users', `A user named "${principalName}" already exists.`);
      const id = await txUsers.create({
        principalName,
        emailAddress: input.emailAddress,
        firstName: input.firstName,
        lastName: input.lastName,
        secretDigest: digest,
      });
      await txUsers.addRole(id, role.id);
      return (await txUsers.get(id))!;
    });
  }

  /** The checks of a password sign-in, in BloodHound's order; `seen` learns the user once the name is known. */
  async function checkLogin(
    input: { loginMethod: string; username: string; secret: string; otp?: string | null },
    clientIp: string,
    seen: (u: UserModel) => void,
  ): Promise<{ user: UserModel; authExpired: boolean }> {
    if (input.loginMethod.toLowerCase() !== 'secret') {
      throw badRequest(CONTEXT, `Login method ${input.loginMethod.slice(0, 64)} is not supported; use "secret".`);
    }
    const username = requireText(CONTEXT, 'username', input.username, 256);
    if (!input.secret) throw badRequest(CONTEXT, 'secret is required.');
    if (input.secret.length > 1024) throw badRequest(CONTEXT, 'secret is longer than 1024 characters.');
    // Checked before any hashing: a locked attempt costs the server one query (login-throttle.ts).
    await deps.throttle.check(username, clientIp);
    const user = await users.getByName(username);
    if (user) seen(user);
    // Hash even for unknown users so response time does not reveal which user names exist.
    const ok = user?.secretDigest
      ? await verifyPassword(input.secret, user.secretDigest)
      : (await verifyPassword(input.secret, DUMMY_DIGEST), false);
    if (!user || !ok) {
      await deps.throttle.failed(username, clientIp);
      throw unauthorized(CONTEXT, INVALID_LOGIN);
    }
    // The password was right; with MFA the sign-in succeeds only with a code (BloodHound's two-step login).
    await deps.secondFactor?.(user.id, user.principalName, input.otp, clientIp);
    await deps.throttle.succeeded(username, clientIp);
    if (user.isDisabled) throw unauthorized(CONTEXT, 'This user is disabled.');
    return { user, authExpired: !!user.secretExpiresAt && user.secretExpiresAt.getTime() < clock().getTime() };
  }

  return {
    /** POST /api/v2/login: only the `secret` method exists. */
    async login(
      input: { loginMethod: string; username: string; secret: string; otp?: string | null },
      clientIp = 'unknown',
    ): Promise<LoginResult> {
      // Every attempt is audited (BloodHound's LoginAttempt): a success in the session's own transaction.
      const origin = { session: null, requestId: currentScope()?.requestId ?? '', clientIp };
      const what = (actor?: { id: string; name: string; email?: string | null }) => ({
        action: 'LoginAttempt',
        fields: { username: String(input.username ?? '').slice(0, 256), login_method: String(input.loginMethod ?? '').slice(0, 64) },
        actor,
      });
      let found: UserModel | undefined;
      try {
        const { user, authExpired } = await checkLogin(input, clientIp, (u) => (found = u));
        const actor = { id: user.id, name: user.principalName, email: user.emailAddress };
        const start = () => startSession(user.id, 'secret');
        const session = deps.audit ? await deps.audit.change(origin, what(actor), start) : await start();
        return { ...session, authExpired };
      } catch (err) {
        await deps.audit?.record(
          origin,
          what(found && { id: found.id, name: found.principalName, email: found.emailAddress }),
          'failure',
          undefined,
          err,
        );
        throw err;
      }
    },

    /** A session for a user someone else authenticated (the SAML callback, after validating the assertion). */
    startSession,

    /**
     * The user an SSO principal maps to: only users bound to this provider (created by it, or linked to it by an
     * administrator with `gas user link-sso`) are candidates, by name, else email. A local password user such as
     * the built-in admin is never reached by an assertion naming it. Unknown principals are created with `roleId`
     * when the provider auto-provisions (`roleId` set), else refused; disabled users are refused.
     */
    async ssoUser(principal: string, provider: { id: number; roleId: number | null }): Promise<string> {
      const found = await users.ssoUser(principal, provider.id);
      if (found?.isDisabled) throw forbidden('sso', 'This user is disabled.');
      if (found) return found.id;
      const shown = principal.slice(0, 200);
      if (provider.roleId === null)
        throw forbidden('sso', `No user of this provider matches "${shown}" and this provider does not create users.`);
      if (await users.getByName(principal)) {
        throw forbidden(
          'sso',
          `A user named "${shown}" exists but is not linked to this provider; an administrator must link it (gas user link-sso).`,
        );
      }
      return deps.tx(async (q) => {
        const txUsers = createUsersStore(q);
        const role = await createPermissionsStore(q).roleById(provider.roleId!);
        if (!role) throw forbidden('sso', 'The provider is configured with a role that no longer exists.');
        const id = await txUsers.create({
          principalName: principal,
          emailAddress: principal.includes('@') ? principal : null,
          secretDigest: null,
          ssoProviderId: provider.id,
        });
        await txUsers.addRole(id, role.id);
        return id;
      });
    },

    /** Ends the JWT's session so the token stops working at once. A signed request has no session to end. */
    async logout(session: Session): Promise<boolean> {
      if (session.kind !== 'user' || session.sessionId === undefined) return false;
      return sessions.end(session.sessionId, clock());
    },

    /** Resolves a bearer JWT to its user, checking signature, expiry and that the session was not ended. */
    async authenticateJwt(token: string): Promise<UserSession> {
      const check = verifySessionToken(token, await jwtKey(), clock().getTime());
      if (!check.ok) {
        throw unauthorized(
          'auth',
          check.reason === 'expired' ? 'The session token has expired; log in again.' : 'The session token is invalid.',
        );
      }
      const p = await principals.bySession(Number(check.claims.jti));
      if (!p || p.userId !== check.claims.sub) throw unauthorized('auth', 'The session token is invalid.');
      if (p.endedAt) throw unauthorized('auth', 'The session has ended (logged out); log in again.');
      if (p.expiresAt.getTime() <= clock().getTime()) throw unauthorized('auth', 'The session token has expired; log in again.');
      if (p.isDisabled) throw unauthorized('auth', 'This user is disabled.');
      return toUserSession(p, { method: 'jwt', sessionId: p.sessionId });
    },

    toUserSession,

    /** Proves this process holds the server key that sealed the stored secrets (throws, naming the key, if not). */
    async checkSecrets(): Promise<void> {
      await jwtKey();
    },

    /** Acts as a named user (command-line administration). */
    async principalByName(name: string): Promise<UserSession> {
      const p = await principals.byUserName(name);
      if (!p) throw notFound('users', `No user named "${name}".`);
      return toUserSession(p, { method: 'signature' });
    },

    async self(session: Session): Promise<UserModel> {
      if (session.kind !== 'user') throw notFound('self', 'Collector clients have no user profile.');
      const user = await users.get(session.userId);
      if (!user) throw unauthorized('self', 'The user of this session no longer exists.');
      return user;
    },

    async getUser(session: UserSession, id: string): Promise<UserModel> {
      const userId = requireUuid('users', 'user_id', id);
      if (
        userId !== session.userId &&
        !session.permissions.has(PERMISSIONS.AuthManageUsers) &&
        !session.permissions.has(PERMISSIONS.AuthReadUsers)
      ) {
        throw forbidden('users', 'You do not have permission to read other users.');
      }
      const user = await users.get(userId);
      if (!user) throw notFound('users', 'The requested user could not be found.');
      return user;
    },

    listUsers: () => users.list(),

    rolesOf: (userIds: readonly string[]): Promise<Map<string, RoleRef[]>> => users.rolesOf(userIds),

    createUser,

    /**
     * First start: when there is no user yet, creates `admin` (Administrator) with `password` or a random one.
     * Returns the generated password so the caller can print it once.
     */
    /**
     * The first administrator when there is no user yet. `undo` removes it again, for a start that fails before
     * the password could be used (the next start then makes and prints another).
     */
    async ensureAdmin(password?: string): Promise<{ created: boolean; password?: string; undo?: () => Promise<void> }> {
      if ((await users.count()) > 0) return { created: false };
      const secret = password ?? randomPassword();
      let admin: UserModel;
      try {
        admin = await createUser({ principalName: 'admin', password: secret, role: 'Administrator' });
      } catch (err) {
        // Another replica won the race; that is fine.
        if ((err as { code?: string }).code === 'CONFLICT') return { created: false };
        throw err;
      }
      return { created: true, password: password ? undefined : secret, undo: async () => void (await users.delete(admin.id)) };
    },
  };
}

// A digest of a random password, compared against for unknown users to keep timing uniform.
const DUMMY_DIGEST = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export type IdentityService = Awaited<ReturnType<typeof createIdentityService>>;
