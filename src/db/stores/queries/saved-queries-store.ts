import type { Queryable } from '../../pool.js';

/** A saved Cypher query as stored. */
export interface SavedQueryModel {
  id: number;
  userId: string;
  name: string;
  query: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

/** How a listed query reaches the caller: theirs, shared with them, or public. */
export type SavedQueryScope = 'owned' | 'shared' | 'public';

export type ScopedSavedQueryModel = SavedQueryModel & { scope: SavedQueryScope };
/** A query as GraphQL answers it: with its scope when it comes from a list. */
export type SavedQueryView = SavedQueryModel & { scope?: SavedQueryScope };

/** One sharing row: with one user, or (no user) public. */
export interface SavedQueryPermissionModel {
  id: number;
  queryId: number;
  sharedToUserId: string | null;
  public: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Columns the list filters on (BloodHound's names) and their SQL; values are always parameters. */
export const FILTER_COLUMNS = { name: 'sq.name', query: 'sq.query', user_id: 'sq.user_id', description: 'sq.description' } as const;
export type SavedQueryFilterColumn = keyof typeof FILTER_COLUMNS;
export interface SavedQueryFilter {
  column: SavedQueryFilterColumn;
  op: 'eq' | 'neq';
  value: string;
}

/** Columns the list sorts on (BloodHound's names); deleted_at exists for BloodHound's clients and never differs. */
export const SORT_COLUMNS = {
  id: 'sq.id',
  user_id: 'sq.user_id',
  name: 'sq.name',
  query: 'sq.query',
  description: 'sq.description',
  created_at: 'sq.created_at',
  updated_at: 'sq.updated_at',
  deleted_at: 'null::timestamptz',
} as const;
export type SavedQuerySortColumn = keyof typeof SORT_COLUMNS;
export interface SavedQuerySort {
  column: SavedQuerySortColumn;
  descending: boolean;
}

export interface ListInput {
  userId: string;
  scopes: readonly SavedQueryScope[];
  filters: readonly SavedQueryFilter[];
  sort: readonly SavedQuerySort[];
  skip: number;
  limit: number;
}

const COLUMNS = /* SQL */ `sq.id::int as id, sq.user_id as "userId", sq.name, sq.query, sq.description,
  sq.created_at as "createdAt", sq.updated_at as "updatedAt"`;
const PERMISSION = /* SQL */ `p.id::int as id, p.query_id::int as "queryId", p.shared_to_user_id as "sharedToUserId", p.public,
  p.created_at as "createdAt", p.updated_at as "updatedAt"`;

const SHARED_TO = /* SQL */ `exists (select 1 from saved_queries_permissions p where p.query_id = sq.id and p.shared_to_user_id = $1)`;
const PUBLIC = /* SQL */ `exists (select 1 from saved_queries_permissions p where p.query_id = sq.id and p.public)`;
// BloodHound's labels: a public query of someone else is "public" even when it is also shared with the caller.
const SCOPE = /* SQL */ `case when sq.user_id = $1 then 'owned' when ${PUBLIC} then 'public' else 'shared' end`;
const IN_SCOPES = /* SQL */ `(($2 and sq.user_id = $1) or ($3 and ${SHARED_TO}) or ($4 and ${PUBLIC}))`;

const GET = /* SQL */ `-- savedQueries.get
select ${COLUMNS} from saved_queries sq where sq.id = $1`;
const CREATE = /* SQL */ `-- savedQueries.create
insert into saved_queries as sq (user_id, name, query, description) values ($1, $2, $3, $4) returning ${COLUMNS}`;
const UPDATE = /* SQL */ `-- savedQueries.update
update saved_queries sq set name = $2, query = $3, description = $4, updated_at = now() where sq.id = $1 returning ${COLUMNS}`;
const DELETE = /* SQL */ `-- savedQueries.delete
delete from saved_queries where id = $1`;
const ACCESSIBLE = /* SQL */ `-- savedQueries.accessible
select sq.user_id = $1 or ${SHARED_TO} or ${PUBLIC} as ok from saved_queries sq where sq.id = $2`;
const PERMISSIONS = /* SQL */ `-- savedQueries.permissions
select ${PERMISSION} from saved_queries_permissions p where p.query_id = $1 order by p.public desc, p.id`;
const SHARE_PUBLIC = /* SQL */ `-- savedQueries.sharePublic
insert into saved_queries_permissions as p (query_id, shared_to_user_id, public) values ($1, null, true)
on conflict (query_id) where public do update set updated_at = now() returning ${PERMISSION}`;
const SHARE_USERS = /* SQL */ `-- savedQueries.shareUsers
insert into saved_queries_permissions as p (query_id, shared_to_user_id, public)
select $1, u, false from unnest($2::uuid[]) as u
on conflict (query_id, shared_to_user_id) do update set updated_at = now() returning ${PERMISSION}`;
const UNSHARE_ALL = /* SQL */ `-- savedQueries.unshareAll
delete from saved_queries_permissions where query_id = $1`;
const UNSHARE_USERS = /* SQL */ `-- savedQueries.unshareUsers
delete from saved_queries_permissions where query_id = $1 and shared_to_user_id = any($2::uuid[])`;
const KNOWN_USERS = /* SQL */ `-- savedQueries.knownUsers
select id from users where id = any($1::uuid[])`;

/** The WHERE and ORDER BY of a list: filters and sort keys come from the allow-lists above, values are parameters. */
function listClauses(input: ListInput) {
  const params: unknown[] = [
    input.userId,
    input.scopes.includes('owned'),
    input.scopes.includes('shared'),
    input.scopes.includes('public'),
  ];
  const where = [IN_SCOPES];
  for (const f of input.filters) {
    params.push(f.value);
    const column = f.column === 'user_id' ? `${FILTER_COLUMNS[f.column]}::text` : FILTER_COLUMNS[f.column];
    where.push(`${column} ${f.op === 'eq' ? '=' : '<>'} $${params.length}`);
  }
  const order = [...input.sort.map((s) => `${SORT_COLUMNS[s.column]}${s.descending ? ' desc' : ''}`), 'sq.id'];
  return { params, where: where.join(' and '), order: order.join(', ') };
}

/** Saved queries and their sharing rows. */
export function createSavedQueriesStore(db: Queryable) {
  return {
    async list(input: ListInput): Promise<{ total: number; queries: ScopedSavedQueryModel[] }> {
      const { params, where, order } = listClauses(input);
      const n = params.length;
      const [count] = await db.query<{ total: number }>(
        `-- savedQueries.count\nselect count(*)::int as total from saved_queries sq where ${where}`,
        params,
      );
      const queries = await db.query<ScopedSavedQueryModel>(
        `-- savedQueries.list\nselect ${COLUMNS}, ${SCOPE} as scope from saved_queries sq where ${where}
order by ${order} offset $${n + 1} limit $${n + 2}`,
        [...params, input.skip, input.limit],
      );
      return { total: count?.total ?? 0, queries };
    },
    async get(id: number): Promise<SavedQueryModel | undefined> {
      return (await db.query<SavedQueryModel>(GET, [id]))[0];
    },
    async create(q: { userId: string; name: string; query: string; description: string }): Promise<SavedQueryModel> {
      return (await db.query<SavedQueryModel>(CREATE, [q.userId, q.name, q.query, q.description]))[0]!;
    },
    async update(id: number, q: { name: string; query: string; description: string }): Promise<SavedQueryModel | undefined> {
      return (await db.query<SavedQueryModel>(UPDATE, [id, q.name, q.query, q.description]))[0];
    },
    async delete(id: number): Promise<boolean> {
      return (await db.execute(DELETE, [id])) > 0;
    },
    /** Whether the user owns the query, has it shared with them, or it is public; undefined when it does not exist. */
    async accessible(userId: string, id: number): Promise<boolean | undefined> {
      return (await db.query<{ ok: boolean }>(ACCESSIBLE, [userId, id]))[0]?.ok;
    },
    permissions: (id: number) => db.query<SavedQueryPermissionModel>(PERMISSIONS, [id]),
    async sharePublic(id: number): Promise<SavedQueryPermissionModel> {
      return (await db.query<SavedQueryPermissionModel>(SHARE_PUBLIC, [id]))[0]!;
    },
    shareUsers: (id: number, userIds: readonly string[]) => db.query<SavedQueryPermissionModel>(SHARE_USERS, [id, userIds]),
    /** Removes the sharing with these users, or every permission row (public included) when none is named. */
    async unshare(id: number, userIds: readonly string[]): Promise<void> {
      if (userIds.length) await db.execute(UNSHARE_USERS, [id, userIds]);
      else await db.execute(UNSHARE_ALL, [id]);
    },
    async knownUsers(ids: readonly string[]): Promise<Set<string>> {
      return new Set((await db.query<{ id: string }>(KNOWN_USERS, [ids])).map((r) => r.id));
    },
  };
}

export type SavedQueriesStore = ReturnType<typeof createSavedQueriesStore>;
