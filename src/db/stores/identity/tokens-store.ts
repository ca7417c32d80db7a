import type { Queryable } from '../../pool.js';

export interface TokenModel {
  id: string;
  userId: string | null;
  clientId: string | null;
  name: string | null;
  hmacMethod: string;
  lastAccess: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

const COLUMNS = /* SQL */ `id, user_id as "userId", client_id as "clientId", name, hmac_method as "hmacMethod",
  last_access as "lastAccess", created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletedAt"`;

const CREATE = /* SQL */ `-- tokens.create
insert into auth_tokens (id, user_id, client_id, name, key) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`;
const GET = /* SQL */ `-- tokens.get
select ${COLUMNS} from auth_tokens where id = $1 and deleted_at is null`;
const GET_WITH_KEY = /* SQL */ `-- tokens.getWithKey
select ${COLUMNS}, key from auth_tokens where id = $1 and deleted_at is null`;
const LIST_FOR_USER = /* SQL */ `-- tokens.listForUser
select ${COLUMNS} from auth_tokens where user_id = $1 and deleted_at is null order by created_at, id`;
const FOR_CLIENT = /* SQL */ `-- tokens.forClient
select ${COLUMNS} from auth_tokens where client_id = $1 and deleted_at is null order by created_at desc, id limit 1`;
const DELETE = /* SQL */ `-- tokens.delete
delete from auth_tokens where id = $1`;
const DELETE_FOR_CLIENT = /* SQL */ `-- tokens.deleteForClient
delete from auth_tokens where client_id = $1`;
const TOUCH = /* SQL */ `-- tokens.touch
update auth_tokens set last_access = $2, request_offset_minutes = coalesce(request_offset_minutes, $3) where id = $1`;
const ALL_KEYS = /* SQL */ `-- tokens.allKeys
select id, key from auth_tokens order by id`;
const SET_KEY = /* SQL */ `-- tokens.setKey
update auth_tokens set key = $3 where id = $1 and key = $2`;

export function createTokensStore(db: Queryable) {
  return {
    /** `sealedKey` is the key sealed for this `id` (the id is the seal's associated data, so it is chosen here). */
    async create(t: {
      id: string;
      userId: string | null;
      clientId: string | null;
      name: string | null;
      sealedKey: string;
    }): Promise<TokenModel> {
      return (await db.query<TokenModel>(CREATE, [t.id, t.userId, t.clientId, t.name, t.sealedKey]))[0]!;
    },
    async get(id: string): Promise<TokenModel | undefined> {
      return (await db.query<TokenModel>(GET, [id]))[0];
    },
    /** The only read that returns the secret key; used to verify signatures. */
    async getWithKey(id: string): Promise<(TokenModel & { key: string }) | undefined> {
      return (await db.query<TokenModel & { key: string }>(GET_WITH_KEY, [id]))[0];
    },
    async listForUser(userId: string): Promise<TokenModel[]> {
      return db.query<TokenModel>(LIST_FOR_USER, [userId]);
    },
    /** A client's current token (it has exactly one; regeneration replaces it). */
    async forClient(clientId: string): Promise<TokenModel | undefined> {
      return (await db.query<TokenModel>(FOR_CLIENT, [clientId]))[0];
    },
    async delete(id: string): Promise<boolean> {
      return (await db.execute(DELETE, [id])) > 0;
    },
    async deleteForClient(clientId: string): Promise<number> {
      return db.execute(DELETE_FOR_CLIENT, [clientId]);
    },
    /** Records a use; the first use also fixes the token's RequestDate offset. */
    async touch(id: string, at: Date, offsetMinutes: number | null = null): Promise<void> {
      await db.execute(TOUCH, [id, at, offsetMinutes]);
    },
    /** Every stored key as stored (sealed, or plain from before sealing), for sealing and rotation. */
    async allKeys(): Promise<{ id: string; key: string }[]> {
      return db.query<{ id: string; key: string }>(ALL_KEYS);
    },
    /** Replaces a stored key only if it is still `old` (a concurrent rotation wins cleanly). */
    async setKey(id: string, old: string, sealed: string): Promise<boolean> {
      return (await db.execute(SET_KEY, [id, old, sealed])) > 0;
    },
  };
}

export type TokensStore = ReturnType<typeof createTokensStore>;
