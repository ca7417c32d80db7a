import type { Queryable } from '../../pool.js';

export type ThrottleKind = 'ip' | 'user';

const LOCKED = /* SQL */ `-- loginThrottle.lockedUntil
select max(locked_until) as "until" from login_failures
where ((kind = 'ip' and subject = $1) or (kind = 'user' and subject = $2)) and locked_until > $3::timestamptz`;

// One statement per failure: a fresh window when the old one ended, else one more failure; the lock is set when
// the count reaches the limit. Concurrent failures on any replica add up in the row.
const FAIL = /* SQL */ `-- loginThrottle.fail
insert into login_failures as f (kind, subject, failures, window_start, locked_until)
values ($1, $2, 1, $3::timestamptz, case when 1 >= $4::int then $3::timestamptz + make_interval(secs => $5::int) end)
on conflict (kind, subject) do update set
  failures = case when f.window_start <= excluded.window_start - make_interval(secs => $5::int) then 1 else f.failures + 1 end,
  window_start = case when f.window_start <= excluded.window_start - make_interval(secs => $5::int)
    then excluded.window_start else f.window_start end,
  locked_until = case
    when (case when f.window_start <= excluded.window_start - make_interval(secs => $5::int) then 1 else f.failures + 1 end) >= $4::int
    then excluded.window_start + make_interval(secs => $5::int) else f.locked_until end`;

const CLEAR = /* SQL */ `-- loginThrottle.clear
delete from login_failures where kind = $1 and subject = $2`;

const PRUNE = /* SQL */ `-- loginThrottle.prune
delete from login_failures where window_start < $1 and (locked_until is null or locked_until < $1)`;

export function createLoginThrottleStore(db: Queryable) {
  return {
    /** The latest lock end over the IP and the user name, if either is locked at `now`. */
    async lockedUntil(ip: string, user: string, now: Date): Promise<Date | null> {
      return (await db.query<{ until: Date | null }>(LOCKED, [ip, user, now]))[0]?.until ?? null;
    },
    async fail(kind: ThrottleKind, subject: string, now: Date, limit: number, windowSeconds: number): Promise<void> {
      await db.execute(FAIL, [kind, subject, now, limit, windowSeconds]);
    },
    async clear(kind: ThrottleKind, subject: string): Promise<void> {
      await db.execute(CLEAR, [kind, subject]);
    },
    async prune(before: Date): Promise<number> {
      return db.execute(PRUNE, [before]);
    },
  };
}

export type LoginThrottleStore = ReturnType<typeof createLoginThrottleStore>;
