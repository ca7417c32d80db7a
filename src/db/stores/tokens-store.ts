import type { Queryable } from '../pool.js';

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
insert into auth_tokens (user_id, client_id, name, key) values ($1, $2, $3, $4) returning ${COLUMNS}`;
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
update auth_tokens set last_access = $2 where id = $1`;

export function createTokensStore(db: Queryable) {
  return {
    async create(t: { userId: string | null; clientId: string | null; name: string | null; key: string }): Promise<TokenModel> {
      return (await db.query<TokenModel>(CREATE, [t.userId, t.clientId, t.name, t.key]))[0]!;
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
    async touch(id: string, at: Date): Promise<void> {
      await db.execute(TOUCH, [id, at]);
    },
  };
}

export type TokensStore = ReturnType<typeof createTokensStore>;
