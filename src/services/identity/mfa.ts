import { verifyPassword } from '../../auth/password.js';
import type { Keyring } from '../../auth/secret-box.js';
import { PERMISSIONS, type UserSession } from '../../auth/session.js';
import { newTotpSecret, qrDataUrl, totpStep } from '../../auth/totp.js';
import type { MfaStore } from '../../db/stores/identity/mfa-store.js';
import type { AccountModel, UsersStore } from '../../db/stores/identity/users-store.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { requireUuid } from '../common/validate.js';
import type { LoginThrottle } from './login-throttle.js';

const CONTEXT = 'mfa';
const MAX_SECRET = 1024;
/** BloodHound's messages for these answers. */
export const MFA_MSG = {
  otpInvalid: 'one time password is invalid',
  activated: 'multi-factor authentication already active',
  enrolmentRequired: 'multi-factor authentication enrollment is required before activation',
  badPassword: 'unable to verify current password',
  sso: 'Invalid operation, user is SSO',
  notAdmin: 'must be an admin to disable MFA for another user',
} as const;

/** The issuer authenticator apps show: the host of ROOT_URL, as BloodHound names its host. */
export function mfaIssuer(rootUrl: string): string {
  try {
    return new URL(rootUrl).host || 'GAS';
  } catch {
    return 'GAS';
  }
}

export type MfaStatus = 'activated' | 'pending' | 'deactivated';

/** Associated data of a sealed TOTP secret: it opens only for its own user. */
export const mfaSecretAad = (userId: string) => `user_mfa.secret:${userId}`;

export interface MfaDeps {
  store: MfaStore;
  users: UsersStore;
  keyring: Keyring;
  throttle: LoginThrottle;
  clock: () => Date;
  /** The issuer authenticator apps show (the server's host, as BloodHound names it). */
  issuer: string;
  /** Whether new enrolments are allowed (the mfa_login feature flag); existing ones are always enforced. */
  enrolmentAllowed: () => Promise<boolean>;
  log: Logger;
}

/**
 * Multi-factor authentication of password users (TOTP, RFC 6238) at BloodHound's paths: enrol with the password,
 * activate with a first code, then every password sign-in needs a code. Codes are single use; wrong codes and
 * passwords count against the login throttle of the account and address, so codes cannot be guessed at speed.
 */
export function createMfaService(deps: MfaDeps) {
  const { store, users, keyring } = deps;

  async function target(session: UserSession, id: string): Promise<AccountModel> {
    const userId = requireUuid(CONTEXT, 'user_id', id);
    if (userId !== session.userId && !session.permissions.has(PERMISSIONS.AuthManageUsers))
      throw forbidden(CONTEXT, 'Managing another user’s multi-factor authentication needs the auth/ManageUsers permission.');
    const user = await users.getAccount(userId);
    if (!user) throw notFound(CONTEXT, 'The requested user could not be found.');
    return user;
  }

  /** A password re-check: throttled like a login, counted as a failure when wrong. */
  async function checkPassword(of: { principalName: string; secretDigest: string | null }, secret: unknown, ip: string): Promise<void> {
    await deps.throttle.check(of.principalName, ip);
    const ok =
      typeof secret === 'string' &&
      secret.length > 0 &&
      secret.length <= MAX_SECRET &&
      !!of.secretDigest &&
      (await verifyPassword(secret, of.secretDigest));
    if (!ok) {
      await deps.throttle.failed(of.principalName, ip);
      throw badRequest(CONTEXT, MFA_MSG.badPassword);
    }
  }

  const open = (userId: string, sealed: string) => keyring.open(sealed, mfaSecretAad(userId));

  /** Whether `code` is valid now and unused; records it as used. */
  async function consume(userId: string, sealed: string, code: unknown): Promise<boolean> {
    if (typeof code !== 'string') return false;
    const step = totpStep(open(userId, sealed), code.trim(), deps.clock());
    return step !== null && (await store.consume(userId, step));
  }

  return {
    /** POST /api/v2/bloodhound-users/{id}/mfa: a new secret, as text and as a QR code; needs the user's password. */
    async enrol(session: UserSession, id: string, secret: unknown, ip: string): Promise<{ qrCode: string; totpSecret: string }> {
      const user = await target(session, id);
      if (user.ssoProviderId !== null && !user.secretDigest) throw badRequest(CONTEXT, MFA_MSG.sso);
      if ((await store.get(user.id))?.activated) throw badRequest(CONTEXT, MFA_MSG.activated);
      if (!(await deps.enrolmentAllowed()))
        throw forbidden(
          CONTEXT,
          'Multi-factor authentication is switched off (feature flag mfa_login); an administrator can switch it on.',
        );
      await checkPassword(user, secret, ip);
      const fresh = newTotpSecret(deps.issuer, user.principalName);
      if (!(await store.enrol(user.id, keyring.seal(fresh.secret, mfaSecretAad(user.id))))) throw badRequest(CONTEXT, MFA_MSG.activated);
      deps.log.info({ userId: user.id, by: session.userId }, 'mfa enrolment started');
      return { qrCode: await qrDataUrl(fresh.uri), totpSecret: fresh.secret };
    },

    /** POST …/mfa-activation: the first code from the app turns the enrolment on. */
    async activate(session: UserSession, id: string, otp: unknown, ip: string): Promise<MfaStatus> {
      const user = await target(session, id);
      const row = await store.get(user.id);
      if (!row) throw badRequest(CONTEXT, MFA_MSG.enrolmentRequired);
      if (row.activated) return 'activated';
      await deps.throttle.check(user.principalName, ip);
      if (!(await consume(user.id, row.secret, otp))) {
        await deps.throttle.failed(user.principalName, ip);
        throw badRequest(CONTEXT, MFA_MSG.otpInvalid);
      }
      await store.activate(user.id);
      deps.log.info({ userId: user.id, by: session.userId }, 'mfa activated');
      return 'activated';
    },

    /** GET …/mfa-activation. */
    async status(session: UserSession, id: string): Promise<MfaStatus> {
      const row = await store.get((await target(session, id)).id);
      return !row ? 'deactivated' : row.activated ? 'activated' : 'pending';
    },

    /**
     * DELETE …/mfa: with your password for yourself; an administrator gives their own password for another user
     * (as in BloodHound; an SSO administrator gives none).
     */
    async disenrol(session: UserSession, id: string, secret: unknown, ip: string): Promise<MfaStatus> {
      const user = await target(session, id);
      if (user.id === session.userId) await checkPassword(user, secret, ip);
      else {
        const me = await users.getAccount(session.userId);
        if (!me) throw forbidden(CONTEXT, MFA_MSG.notAdmin);
        if (me.secretDigest) await checkPassword(me, secret, ip);
      }
      await store.remove(user.id);
      deps.log.info({ userId: user.id, by: session.userId }, 'mfa removed');
      return 'deactivated';
    },

    /**
     * The second factor of a password sign-in (the password was right): nothing for users without activated MFA;
     * otherwise a valid unused code, or BloodHound's 400 "one time password is invalid". A missing code is the
     * first step of the two-step login and is not counted; a wrong one counts against the throttle.
     */
    async checkLogin(userId: string, principalName: string, otp: string | null | undefined, ip: string): Promise<void> {
      const row = await store.get(userId);
      if (!row?.activated) return;
      if (!otp) throw badRequest('login', MFA_MSG.otpInvalid);
      if (!(await consume(userId, row.secret, otp))) {
        await deps.throttle.failed(principalName, ip);
        throw badRequest('login', MFA_MSG.otpInvalid);
      }
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
