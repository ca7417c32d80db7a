import { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { SavedQueryFilterColumn, SavedQueryScope, SavedQuerySortColumn } from '../../generated/operations.js';
import { enumNameOf } from '../../services/common/enums.js';
import { FILTER_COLUMN, isFilterColumn, parseSort, scopeName, SCOPE, SORT_COLUMN } from '../../services/queries/list-params.js';
import { intText, query } from '../params.js';
import * as shape from '../reshape/saved-queries.js';
import { data, noContent, route } from '../route.js';

const CONTEXT = 'saved-queries';
const savedQueryId = z.object({ saved_query_id: intText(1) }).transform((p) => ({ id: p.saved_query_id }));

/** BloodHound's query parameters of the list; every other one names a column filter. */
const LIST_PARAMS = new Set(['skip', 'limit', 'sort_by', 'scope']);

/** `scope=owned,shared` (BloodHound splits the first value on commas) as GraphQL's SavedQueryScope names. */
const scopes = (values: string[]): SavedQueryScope[] =>
  (values[0] ?? '')
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((s) => enumNameOf<SavedQueryScope>(SCOPE, scopeName(s)));

const filters = (q: Record<string, unknown>) =>
  Object.entries(q)
    .filter(([name]) => !LIST_PARAMS.has(name))
    .flatMap(([name, v]) => {
      if (!isFilterColumn(name)) throw badRequest(CONTEXT, `the specified column cannot be filtered: ${name}`);
      const column = enumNameOf<SavedQueryFilterColumn>(FILTER_COLUMN, name);
      return (Array.isArray(v) ? v : [v]).map((value) => ({ column, value: String(value) }));
    });

const sortBy = (values: string[]) =>
  parseSort(values).map((k) => ({ column: enumNameOf<SavedQuerySortColumn>(SORT_COLUMN, k.column), descending: k.descending }));

const userIds = z.array(z.string(), { error: 'must be an array of user ids.' }).nullish();
const fields = { name: z.string().nullish(), query: z.string().nullish(), description: z.string().nullish() };

/** Saved Cypher queries: BloodHound's twelve operations at its paths, with its status codes and messages. */
export const savedQueryRoutes = [
  route('GET', '/api/v2/saved-queries', CONTEXT, 'ListSavedQueries', {
    input: { query: z.looseObject({ skip: query.int(), limit: query.int(), sort_by: query.many(), scope: query.many() }) },
    variables: ({ query: q }) => ({
      scopes: scopes(q.scope),
      skip: q.skip,
      limit: q.limit,
      sortBy: sortBy(q.sort_by),
      filters: filters(q),
    }),
    reshape: ({ savedQueries: l }) => ({
      body: { count: l.totalCount, limit: l.limit, skip: l.skip, data: l.queries.map((x) => shape.savedQuery(x, true)) },
    }),
  }),
  route('POST', '/api/v2/saved-queries', CONTEXT, 'CreateSavedQuery', {
    body: 'json',
    input: { body: z.object(fields) },
    variables: ({ body }) => ({ input: body }),
    reshape: ({ createSavedQuery }) => ({ status: 201, body: { data: shape.savedQuery(createSavedQuery) } }),
  }),
  // Literal paths before /:saved_query_id (the router orders them so whatever the order here).
  route('GET', '/api/v2/saved-queries/export', CONTEXT, 'ExportSavedQueries', {
    input: { query: z.object({ scope: query.string() }) },
    variables: ({ query: q }) => ({ scope: q.scope ? enumNameOf<SavedQueryScope>(SCOPE, scopeName(q.scope)) : null }),
    reshape: ({ exportSavedQueries }) => shape.download(exportSavedQueries),
  }),
  // The body as sent (JSON, YAML, zip or a form of files): the service reads and checks it.
  route('POST', '/api/v2/saved-queries/import', CONTEXT, 'ImportSavedQueries', {
    body: 'upload',
    variables: (_, req) => ({ file: req.upload ?? null }),
    reshape: ({ importSavedQueries }) => ({ status: 201, body: { data: `imported ${importSavedQueries} queries` } }),
  }),
  route('GET', '/api/v2/saved-queries/:saved_query_id', CONTEXT, 'GetSavedQuery', {
    input: { params: savedQueryId },
    reshape: ({ savedQuery }) => data(shape.savedQuery(savedQuery)),
  }),
  route('PUT', '/api/v2/saved-queries/:saved_query_id', CONTEXT, 'UpdateSavedQuery', {
    body: 'json',
    input: { params: savedQueryId, body: z.object(fields) },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    reshape: ({ updateSavedQuery }) => data(shape.savedQuery(updateSavedQuery)),
  }),
  route('DELETE', '/api/v2/saved-queries/:saved_query_id', CONTEXT, 'DeleteSavedQuery', {
    input: { params: savedQueryId },
    reshape: noContent,
  }),
  route('GET', '/api/v2/saved-queries/:saved_query_id/permissions', CONTEXT, 'GetSavedQuerySharing', {
    input: { params: savedQueryId },
    reshape: ({ savedQuerySharing: p }) => data({ query_id: p.queryId, public: p.public, shared_to_user_ids: p.sharedToUserIds }),
  }),
  // 201 with the rows it created; 204 when it created none (made private, or already public).
  route('PUT', '/api/v2/saved-queries/:saved_query_id/permissions', CONTEXT, 'ShareSavedQuery', {
    body: 'json',
    input: { params: savedQueryId, body: z.object({ user_ids: userIds, public: z.boolean().nullish() }) },
    variables: ({ params, body }) => ({ id: params.id, userIds: body.user_ids ?? null, public: body.public ?? null }),
    reshape: ({ shareSavedQuery: rows }) => (rows.length ? { status: 201, body: { data: rows.map(shape.permission) } } : noContent()),
  }),
  route('DELETE', '/api/v2/saved-queries/:saved_query_id/permissions', CONTEXT, 'UnshareSavedQuery', {
    body: 'json',
    input: {
      params: savedQueryId,
      // BloodHound decodes a body here: none at all is a 400, not "unshare everything".
      body: z.object({ user_ids: userIds }, { error: 'must be an object with user_ids.' }),
    },
    variables: ({ params, body }) => ({ id: params.id, userIds: body.user_ids ?? [] }),
    reshape: noContent,
  }),
  route('GET', '/api/v2/saved-queries/:saved_query_id/export', CONTEXT, 'ExportSavedQuery', {
    input: { params: savedQueryId },
    reshape: ({ exportSavedQuery }) => shape.download(exportSavedQuery),
  }),

  // Ours (BloodHound ships its pre-built searches inside its UI): each section in the shape of its CommonSearchType,
  // {subheader, category: the platform, queries}, so a front-end written for that list reads it unchanged.
  route('GET', '/api/v2/prebuilt-queries', 'prebuilt-queries', 'ListPrebuiltQueries', {
    input: { query: z.object({ platform: query.string(), category: query.string() }) },
    variables: ({ query: q }) => ({ platform: q.platform ?? null, category: q.category ?? null }),
    reshape: ({ prebuiltQueryCategories }) => data(prebuiltQueryCategories.map(shape.prebuiltSection)),
  }),
  route('GET', '/api/v2/prebuilt-queries/:prebuilt_query_id', 'prebuilt-queries', 'GetPrebuiltQuery', {
    input: { params: z.object({ prebuilt_query_id: z.string() }) },
    variables: ({ params }) => ({ id: params.prebuilt_query_id }),
    reshape: ({ prebuiltQuery }) => data(shape.prebuiltQuery(prebuiltQuery)),
  }),
];
