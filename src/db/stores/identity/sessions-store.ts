import type { Queryable } from '../../pool.js';

export interface SessionRow {
  id: number;
  userId: string;
  expiresAt: Date;
  endedAt: Date | null;
  createdAt: Date;
}

const CREATE = /* SQL */ `-- sessions.create
insert into user_sessions (user_id, auth_provider, created_at, expires_at) values ($1, $2, $3, $4)
returning id, user_id as "userId", expires_at as "expiresAt", ended_at as "endedAt", created_at as "createdAt"`;
const GET = /* SQL */ `-- sessions.get
select id, user_id as "userId", expires_at as "expiresAt", ended_at as "endedAt", created_at as "createdAt"
from user_sessions where id = $1`;
const END = /* SQL */ `-- sessions.end
update user_sessions set ended_at = $2 where id = $1 and ended_at is null`;

const END_ALL = /* SQL */ `-- sessions.endAllForUser
update user_sessions set ended_at = $2 where user_id = $1 and ended_at is null and expires_at > $2 and id <> coalesce($3, -1)`;

export function createSessionsStore(db: Queryable) {
  return {
    async create(userId: string, provider: string, createdAt: Date, expiresAt: Date): Promise<SessionRow> {
      return (await db.query<SessionRow>(CREATE, [userId, provider, createdAt, expiresAt]))[0]!;
    },
    async get(id: number): Promise<SessionRow | undefined> {
      return (await db.query<SessionRow>(GET, [id]))[0];
    },
    async end(id: number, at: Date): Promise<boolean> {
      return (await db.execute(END, [id, at])) > 0;
    },
    /** Ends every live session of a user (but `exceptId`, the caller's own); returns how many. */
    async endAllForUser(userId: string, at: Date, exceptId?: number): Promise<number> {
      return db.execute(END_ALL, [userId, at, exceptId ?? null]);
    },
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
