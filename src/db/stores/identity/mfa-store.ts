import type { Queryable } from '../../pool.js';
import { sealedColumn } from '../common/sealed-column.js';

export interface MfaRow {
  userId: string;
  /** Sealed with the server key. */
  secret: string;
  activated: boolean;
  lastStep: number | null;
}

const GET = /* SQL */ `-- mfa.get
select user_id as "userId", secret, activated, last_step::float8 as "lastStep" from user_mfa where user_id = $1`;
// A new enrolment replaces an unfinished one, never an activated one (the caller checks first; the where is the guard).
const ENROL = /* SQL */ `-- mfa.enrol
insert into user_mfa (user_id, secret) values ($1, $2)
on conflict (user_id) do update set secret = excluded.secret, last_step = null, updated_at = now() where not user_mfa.activated
returning user_id`;
const ACTIVATE = /* SQL */ `-- mfa.activate
update user_mfa set activated = true, updated_at = now() where user_id = $1`;
// A code is accepted once: its time step must be later than the last accepted one, checked and recorded at once.
const CONSUME = /* SQL */ `-- mfa.consume
update user_mfa set last_step = $2, updated_at = now() where user_id = $1 and (last_step is null or last_step < $2)`;
const REMOVE = /* SQL */ `-- mfa.remove
delete from user_mfa where user_id = $1`;

export function createMfaStore(db: Queryable) {
  return {
    async get(userId: string): Promise<MfaRow | undefined> {
      return (await db.query<MfaRow>(GET, [userId]))[0];
    },
    /** False when the user already has an activated enrolment. */
    async enrol(userId: string, sealedSecret: string): Promise<boolean> {
      return (await db.query(ENROL, [userId, sealedSecret])).length > 0;
    },
    async activate(userId: string): Promise<void> {
      await db.execute(ACTIVATE, [userId]);
    },
    /** Records `step` as used; false when it (or a later one) was used already. */
    async consume(userId: string, step: number): Promise<boolean> {
      return (await db.execute(CONSUME, [userId, step])) > 0;
    },
    async remove(userId: string): Promise<boolean> {
      return (await db.execute(REMOVE, [userId])) > 0;
    },
    /** The sealed secrets, for sealing and rotation. */
    ...sealedColumn(db, 'mfa', 'user_mfa', 'user_id', 'secret'),
  };
}

export type MfaStore = ReturnType<typeof createMfaStore>;
