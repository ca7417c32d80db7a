import fs from 'node:fs';
import type { UserSession } from '../../auth/session.js';
import type { Queryable } from '../../db/pool.js';
import type {
  SavedQueriesStore,
  SavedQueryFilterColumn,
  SavedQueryModel,
  SavedQueryPermissionModel,
  SavedQuerySortColumn,
} from '../../db/stores/queries/saved-queries-store.js';
import { AppError, badRequest, forbidden, notFound, tooLarge } from '../../errors.js';
import { MSG } from '../../messages.js';
import { paging } from '../common/paging.js';
import { StagedFile, type UploadValue } from '../datapipe/staged-file.js';
import { exportOne, exportZip, type ExportFile } from './export-files.js';
import { IMPORT_LIMITS, readImport } from './import-files.js';
import { parseFilters, scopesOf, type ScopeName } from './list-params.js';
import { sharingVerdict } from './sharing-rules.js';

const CONTEXT = 'saved-queries';
const ADMINISTRATOR = 'Administrator';
// BloodHound's answers, word for word: its clients and UI show them.
const NOT_FOUND = 'query does not exist';
const DUPLICATE = 'duplicate name for saved query: please choose a different name';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a query before it is stored: throws a 400 (an AppError) naming line, column and what was expected, or the
 * construct that is not supported. The Cypher service provides it.
 */
export type CypherCheck = (query: string) => void | Promise<void>;

export interface SavedQueriesDeps {
  store: SavedQueriesStore;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => SavedQueriesStore;
  checkCypher: CypherCheck;
  /** Largest import body in bytes (compressed, as sent); more is 413. */
  importMaxBytes: number;
}

export interface SavedQueryInput {
  name?: string | null;
  query?: string | null;
  description?: string | null;
}

export interface ListSavedQueriesInput {
  scopes?: readonly ScopeName[] | null;
  skip?: number | null;
  limit?: number | null;
  sortBy?: readonly { column: SavedQuerySortColumn; descending?: boolean | null }[] | null;
  filters?: readonly { column: SavedQueryFilterColumn; value: string }[] | null;
}

/** Who a saved query's sharing reaches (BloodHound's SavedQueryPermissionResponse). */
export interface SharingView {
  queryId: number;
  public: boolean;
  sharedToUserIds: string[];
}

const isAdmin = (s: UserSession) => s.roles.includes(ADMINISTRATOR);

/** A text field: checked for type and length; `required` ones must be non-empty. */
function field(v: string | null | undefined, name: string, max: number): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v.length > max) throw badRequest(CONTEXT, `${name} is longer than ${max} characters.`);
  return v;
}

/** A list of user ids: each a UUID (400 naming the bad one), without repeats. */
function userIds(ids: readonly string[] | null | undefined): string[] {
  const out = new Set<string>();
  for (const [i, id] of (ids ?? []).entries()) {
    if (typeof id !== 'string' || !UUID.test(id)) throw badRequest(CONTEXT, `user_ids[${i}] is not a UUID.`);
    out.add(id.toLowerCase());
  }
  if (out.size > 10_000) throw badRequest(CONTEXT, 'user_ids holds more than 10000 ids.');
  return [...out];
}

/** Saved Cypher queries, their sharing, import and export, with BloodHound's rules and answers. */
export function createSavedQueriesService(deps: SavedQueriesDeps) {
  const { store } = deps;

  async function existing(id: number): Promise<SavedQueryModel> {
    const q = await store.get(id);
    if (!q) throw notFound(CONTEXT, NOT_FOUND);
    return q;
  }
  /** The query when the caller may read it (owner, shared with them, public); 404 otherwise, as for a missing one. */
  async function readable(s: UserSession, id: number): Promise<SavedQueryModel> {
    const q = await existing(id);
    if (q.userId !== s.userId && !(await store.accessible(s.userId, id))) throw notFound(CONTEXT, NOT_FOUND);
    return q;
  }
  const isPublic = async (id: number) => (await store.permissions(id)).some((p) => p.public);
  /** A unique-name violation in BloodHound's words (a 400, as its clients expect). */
  const duplicate = (err: unknown): never => {
    if (err instanceof AppError && err.code === 'CONFLICT') throw badRequest(CONTEXT, DUPLICATE);
    throw err;
  };
  /** The parsed query, or a 400 naming where it is wrong (in the saved-queries context). */
  async function checked(query: string, where?: string): Promise<void> {
    try {
      await deps.checkCypher(query);
    } catch (err) {
      if (err instanceof AppError && err.code === 'BAD_REQUEST')
        throw badRequest(CONTEXT, where ? `${where}: ${err.message}` : err.message);
      throw err;
    }
  }

  return {
    async list(s: UserSession, input: ListSavedQueriesInput) {
      // BloodHound's list has no page size cap below its default of 10000.
      const page = paging(CONTEXT, input, { limit: 10_000, max: 10_000 });
      const { total, queries } = await store.list({
        userId: s.userId,
        scopes: scopesOf(input.scopes),
        filters: parseFilters(input.filters ?? []),
        sort: (input.sortBy ?? []).map((k) => ({ column: k.column, descending: k.descending ?? false })),
        ...page,
      });
      return { totalCount: total, skip: page.skip, limit: page.limit, queries };
    },

    get: readable,

    async create(s: UserSession, input: SavedQueryInput): Promise<SavedQueryModel> {
      const name = field(input.name?.trim(), 'name', IMPORT_LIMITS.maxName);
      const query = field(input.query, 'query', IMPORT_LIMITS.maxQuery);
      if (!name || !query?.trim()) throw badRequest(CONTEXT, 'the name and/or query field is empty');
      await checked(query);
      const description = field(input.description, 'description', IMPORT_LIMITS.maxDescription) ?? '';
      return store.create({ userId: s.userId, name, query, description }).catch(duplicate);
    },

    /**
     * BloodHound's update: the owner, or an administrator for a public query; non-empty fields replace, empty ones
     * keep their value. Anyone else learns only that the query does not exist.
     */
    async update(s: UserSession, id: number, input: SavedQueryInput): Promise<SavedQueryModel> {
      const current = await existing(id);
      if (current.userId !== s.userId && !(isAdmin(s) && (await isPublic(id)))) throw notFound(CONTEXT, NOT_FOUND);
      const name = field(input.name?.trim(), 'name', IMPORT_LIMITS.maxName) ?? current.name;
      const query = field(input.query, 'query', IMPORT_LIMITS.maxQuery) ?? current.query;
      const description = field(input.description, 'description', IMPORT_LIMITS.maxDescription) ?? current.description;
      if (query !== current.query) await checked(query);
      const updated = await store.update(id, { name, query, description }).catch(duplicate);
      if (!updated) throw notFound(CONTEXT, NOT_FOUND);
      return updated;
    },

    /** The owner deletes; an administrator deletes public queries too (BloodHound's 403s otherwise). */
    async delete(s: UserSession, id: number): Promise<void> {
      const current = await existing(id);
      if (current.userId !== s.userId && !(isAdmin(s) && (await isPublic(id)))) {
        throw forbidden(CONTEXT, 'User does not have permission to delete this query');
      }
      if (!(await store.delete(id))) throw notFound(CONTEXT, NOT_FOUND);
    },

    /** Who the query is shared with: for its owner, an administrator, or anyone when it is public. */
    async sharing(s: UserSession, id: number): Promise<SharingView> {
      const q = await store.get(id);
      const rows = q ? await store.permissions(id) : [];
      const none = 'no query permissions exist for saved query';
      if (!q || rows.length === 0) throw notFound(CONTEXT, none);
      const pub = rows.some((r) => r.public);
      if (!pub && !isAdmin(s) && q.userId !== s.userId) throw notFound(CONTEXT, none);
      return { queryId: id, public: pub, sharedToUserIds: pub ? [] : rows.flatMap((r) => (r.sharedToUserId ? [r.sharedToUserId] : [])) };
    },

    /**
     * BloodHound's PUT …/permissions: `public` makes the query public (created rows answered; nothing when it
     * already was), user ids share it with them, neither makes it private again (every row removed).
     */
    async share(s: UserSession, id: number, input: { userIds?: readonly string[] | null; public?: boolean | null }) {
      const ids = userIds(input.userIds);
      const makePublic = input.public ?? false;
      if (makePublic && ids.length) throw badRequest(CONTEXT, 'Public cannot be true while user_ids is populated');
      return deps.tx(async (q) => {
        const tx = deps.bind(q);
        const query = await tx.get(id);
        if (!query) throw notFound(CONTEXT, 'Query does not exist');
        const pub = (await tx.permissions(id)).some((p) => p.public);
        const verdict = sharingVerdict(
          { userId: s.userId, isAdmin: isAdmin(s) },
          { ownedByCaller: query.userId === s.userId, isPublic: pub },
          { userIds: ids, public: makePublic },
        );
        if (verdict === 'self-share') throw badRequest(CONTEXT, 'Cannot share query to self');
        if (verdict === 'public-share')
          throw badRequest(CONTEXT, 'Public query cannot be shared to users. You must set your query to private first');
        if (verdict === 'forbidden') throw forbidden(CONTEXT, MSG.forbidden);
        if (makePublic) return pub ? [] : [await tx.sharePublic(id)];
        if (ids.length === 0) {
          await tx.unshare(id, []);
          return [] as SavedQueryPermissionModel[];
        }
        const known = await tx.knownUsers(ids);
        const strangers = ids.filter((u) => !known.has(u));
        if (strangers.length) throw badRequest(CONTEXT, `No such users: ${strangers.join(', ')}.`);
        return tx.shareUsers(id, ids);
      });
    },

    /**
     * BloodHound's DELETE …/permissions: a user may unshare a query shared with them from themselves; otherwise the
     * owner (or an administrator) removes the sharing with the users named, or all of it when none is named.
     */
    async unshare(s: UserSession, id: number, input: { userIds?: readonly string[] | null }): Promise<void> {
      const ids = userIds(input.userIds);
      const query = await existing(id);
      if (ids.includes(s.userId)) {
        const rows = await store.permissions(id);
        if (!rows.some((r) => r.sharedToUserId === s.userId))
          throw badRequest(CONTEXT, 'User cannot unshare a query from themselves that is not shared to them');
      } else if (!isAdmin(s) && query.userId !== s.userId) {
        throw forbidden(CONTEXT, 'Query does not belong to the user');
      }
      await store.unshare(id, ids);
    },

    /** One query the caller may read, as `<name>.json`. */
    async exportOne(s: UserSession, id: number): Promise<ExportFile> {
      return exportOne(await readable(s, id));
    },

    /** The queries of a scope (owned, shared, public, all) as a zip of `<name>.json` files. */
    async exportMany(s: UserSession, scope: ScopeName | null | undefined): Promise<ExportFile> {
      if (!scope) throw badRequest(CONTEXT, 'scope query parameter cannot be empty');
      const { queries } = await store.list({
        userId: s.userId,
        scopes: scopesOf([scope]),
        filters: [],
        sort: [{ column: 'id', descending: false }],
        skip: 0,
        limit: IMPORT_LIMITS.maxQueries * 10,
      });
      return exportZip(queries);
    },

    /**
     * Imports a file (see import-files.ts for the shapes) as the caller's queries, all or none: every query is parsed
     * first, then all are stored in one transaction; a name already taken (or given twice) stores nothing.
     */
    async importFile(s: UserSession, file: UploadValue | null | undefined): Promise<number> {
      if (!file || file.size === 0) throw badRequest(CONTEXT, 'import cypher query request body cannot be empty');
      if (file.size > deps.importMaxBytes) throw tooLarge(CONTEXT, `An import body holds at most ${deps.importMaxBytes} bytes.`);
      const bytes = file instanceof StagedFile ? await fs.promises.readFile(file.path) : Buffer.from(await (file as File).arrayBuffer());
      const type = file instanceof StagedFile ? file.contentType : (file as File).type;
      const queries = await readImport(bytes, type, file.name || 'upload');
      for (const q of queries) await checked(q.query, q.source);
      const names = new Set<string>();
      for (const q of queries) {
        if (names.has(q.name)) throw badRequest(CONTEXT, `${DUPLICATE} (${q.name} appears twice)`);
        names.add(q.name);
      }
      await deps.tx(async (q) => {
        const tx = deps.bind(q);
        for (const item of queries) {
          await tx.create({ userId: s.userId, name: item.name, query: item.query, description: item.description }).catch(duplicate);
        }
      });
      return queries.length;
    },
  };
}

export type SavedQueriesService = ReturnType<typeof createSavedQueriesService>;
