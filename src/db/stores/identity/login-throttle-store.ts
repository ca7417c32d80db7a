import type { Queryable } from '../../pool.js';

export type ThrottleScope = 'pair' | 'address' | 'account';

/** How one scope counts: failures allowed before a lock, the first lock, the longest, and when failures are forgotten. */
export interface ThrottleRule {
  free: number;
  firstLockSeconds: number;
  maxLockSeconds: number;
  forgetAfterSeconds: number;
}

export interface ThrottleSubjects {
  pair: string;
  address: string;
  account: string;
}

const LOCKED = /* SQL */ `-- loginThrottle.lockedUntil
select max(locked_until) as "until" from login_throttle t
where locked_until > $4::timestamptz and (
  (scope = 'pair' and subject = $1) or (scope = 'address' and subject = $2)
  or (scope = 'account' and subject = $3 and not exists (
    select 1 from login_known_addresses k
    where k.account = $3 and k.address = $2 and k.last_success > $4::timestamptz - make_interval(secs => $5::int))))`;

const KNOWN = /* SQL */ `-- loginThrottle.known
select exists (select 1 from login_known_addresses
  where account = $1 and address = $2 and last_success > $3::timestamptz - make_interval(secs => $4::int)) as known`;

// One statement per failure and scope: failures older than the rule's memory start over; past `free` failures the
// subject is locked for firstLock · 2^(failures − free − 1) seconds, at most maxLock. Concurrent failures on any
// replica add up in the row.
const FAIL = /* SQL */ `-- loginThrottle.fail
insert into login_throttle as t (scope, subject, failures, last_failure, locked_until)
values ($1, $2, 1, $3::timestamptz, case when 1 > $4::int
  then $3::timestamptz + make_interval(secs => least($6::float8, $5::float8 * power(2, 1 - $4::int - 1))) end)
on conflict (scope, subject) do update set
  failures = case when t.last_failure < excluded.last_failure - make_interval(secs => $7::int) then 1 else t.failures + 1 end,
  last_failure = excluded.last_failure,
  locked_until = case
    when (case when t.last_failure < excluded.last_failure - make_interval(secs => $7::int) then 1 else t.failures + 1 end) > $4::int
    then excluded.last_failure + make_interval(secs => least($6::float8, $5::float8 * power(2,
      (case when t.last_failure < excluded.last_failure - make_interval(secs => $7::int) then 1 else t.failures + 1 end) - $4::int - 1)))
    else t.locked_until end
returning failures`;

const SUCCEEDED = /* SQL */ `-- loginThrottle.succeeded
with cleared as (delete from login_throttle where scope = 'pair' and subject = $1)
insert into login_known_addresses (account, address, last_success) values ($2, $3, $4)
on conflict (account, address) do update set last_success = excluded.last_success`;

const PRUNE = /* SQL */ `-- loginThrottle.prune
delete from login_throttle where last_failure < $1 and (locked_until is null or locked_until < $1)`;

export function createLoginThrottleStore(db: Queryable) {
  return {
    /** The latest lock end over the subjects at `now`; the account's only when the address is not known for it. */
    async lockedUntil(s: ThrottleSubjects, now: Date, knownForSeconds: number): Promise<Date | null> {
      return (await db.query<{ until: Date | null }>(LOCKED, [s.pair, s.address, s.account, now, knownForSeconds]))[0]?.until ?? null;
    },
    /** Whether the account signed in from the address within `knownForSeconds`. */
    async isKnown(account: string, address: string, now: Date, knownForSeconds: number): Promise<boolean> {
      return (await db.query<{ known: boolean }>(KNOWN, [account, address, now, knownForSeconds]))[0]!.known;
    },
    /** Counts a failure of one scope; returns the subject's failures so far. */
    async fail(scope: ThrottleScope, subject: string, now: Date, rule: ThrottleRule): Promise<number> {
      const rows = await db.query<{ failures: number }>(FAIL, [
        scope,
        subject,
        now,
        rule.free,
        rule.firstLockSeconds,
        rule.maxLockSeconds,
        rule.forgetAfterSeconds,
      ]);
      return rows[0]!.failures;
    },
    /** A successful sign-in: the pair starts over and the address becomes known for the account. */
    async succeeded(s: ThrottleSubjects, now: Date): Promise<void> {
      await db.execute(SUCCEEDED, [s.pair, s.account, s.address, now]);
    },
    async prune(before: Date): Promise<number> {
      return db.execute(PRUNE, [before]);
    },
  };
}

export type LoginThrottleStore = ReturnType<typeof createLoginThrottleStore>;
