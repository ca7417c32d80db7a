import type { LoginThrottleStore, ThrottleRule, ThrottleSubjects } from '../../db/stores/identity/login-throttle-store.js';
import { AppError } from '../../errors.js';
import { clientKey } from '../common/client-address.js';

/**
 * How failed logins are counted (all kept in PostgreSQL, so every replica counts together). Each failure counts for
 * its pair (account × client address), for its address across accounts, and, when the address has never signed in
 * to the account, for the account across such addresses. Past a scope's free failures its subject is locked, the
 * lock doubling with every further failure up to a cap; failures are forgotten once none came for that long.
 */
export const LOGIN_THROTTLE: Record<'pair' | 'address' | 'account', ThrottleRule> & { knownForSeconds: number } = {
  /** A wrong password typed a few times from one's own machine costs a second, then two, four, … at most 15 minutes. */
  pair: { free: 3, firstLockSeconds: 1, maxLockSeconds: 15 * 60, forgetAfterSeconds: 15 * 60 },
  /** One address trying many accounts (password spraying). */
  address: { free: 30, firstLockSeconds: 1, maxLockSeconds: 15 * 60, forgetAfterSeconds: 15 * 60 },
  /** Many strangers' addresses trying one account; addresses the account signed in from are not held by it. */
  account: { free: 10, firstLockSeconds: 1, maxLockSeconds: 15 * 60, forgetAfterSeconds: 15 * 60 },
  /** An address is known for an account for this long after a successful sign-in from it. */
  knownForSeconds: 90 * 24 * 3600,
};

const CONTEXT = 'login';

/**
 * Login throttling by (account, client address) with back-off, so that a stranger's failures lock out the stranger:
 * the administrator still signs in from an address they have signed in from before, however many failures others
 * pile up. Checked before any password hashing, so a locked attempt costs the server one query.
 */
export function createLoginThrottle(store: LoginThrottleStore, clock: () => Date) {
  const subjects = (username: string, clientIp: string): ThrottleSubjects => {
    const account = username.toLowerCase();
    const address = clientKey(clientIp);
    return { account, address, pair: `${account}\u0001${address}` };
  };
  return {
    /** A 429 with Retry-After when the attempt may not be made now. */
    async check(username: string, clientIp: string): Promise<void> {
      const now = clock();
      const until = await store.lockedUntil(subjects(username, clientIp), now, LOGIN_THROTTLE.knownForSeconds);
      if (!until) return;
      const retry = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
      throw new AppError(
        'RATE_LIMITED',
        CONTEXT,
        `Too many failed logins for this account from this address, or from this address; try again in ${retry} seconds.`,
        { headers: { 'Retry-After': String(retry) } },
      );
    },

    /** Counts a failed attempt (unknown user name or wrong secret). */
    async failed(username: string, clientIp: string): Promise<void> {
      const now = clock();
      const s = subjects(username, clientIp);
      await store.fail('pair', s.pair, now, LOGIN_THROTTLE.pair);
      await store.fail('address', s.address, now, LOGIN_THROTTLE.address);
      if (!(await store.isKnown(s.account, s.address, now, LOGIN_THROTTLE.knownForSeconds)))
        await store.fail('account', s.account, now, LOGIN_THROTTLE.account);
    },

    /** A correct secret: the pair starts over and the address is known for the account from now on. */
    async succeeded(username: string, clientIp: string): Promise<void> {
      await store.succeeded(subjects(username, clientIp), clock());
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
