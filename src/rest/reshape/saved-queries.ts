import { create as contentDisposition } from 'content-disposition';
import type { ListPrebuiltQueriesQuery, ListSavedQueriesQuery, ShareSavedQueryMutation } from '../../generated/operations.js';
import type { RestResponse } from '../route.js';
import { nullTime } from '../shapes.js';

type Query = ListSavedQueriesQuery['savedQueries']['queries'][number];

/** BloodHound's SavedQuery: its fields, the BigSerial timestamps, and the scope when it comes from a list. */
export const savedQuery = (q: Query, withScope = false) => ({
  user_id: q.userId,
  name: q.name,
  query: q.query,
  description: q.description,
  id: q.id,
  created_at: q.createdAt,
  updated_at: q.updatedAt,
  deleted_at: nullTime(null),
  ...(withScope && q.scope ? { scope: q.scope.toLowerCase() } : {}),
});

/** BloodHound's SavedQueriesPermissions row. */
export const permission = (p: ShareSavedQueryMutation['shareSavedQuery'][number]) => ({
  shared_to_user_id: p.sharedToUserId,
  query_id: p.queryId,
  public: p.public,
  id: p.id,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  deleted_at: nullTime(null),
});

/** BloodHound's `attachment; filename="…"`; a name outside printable ASCII gets RFC 6266's filename* as well. */
const attachment = (name: string) =>
  /^[\x20-\x7e]*$/.test(name) ? `attachment; filename="${name.replace(/[\\"]/g, '\\$&')}"` : contentDisposition(name);

/** A download as BloodHound writes it (WriteBinaryResponse): octet-stream, with the file name as an attachment. */
export const download = (f: { fileName: string; base64: string }): RestResponse => ({
  raw: { data: Buffer.from(f.base64, 'base64'), contentType: 'application/octet-stream' },
  headers: { 'Content-Disposition': attachment(f.fileName) },
});

type Section = ListPrebuiltQueriesQuery['prebuiltQueryCategories'][number];

/** A pre-built query: id, name, its section (category) and platform, description and Cypher. */
export const prebuiltQuery = (q: Section['queries'][number]) => ({
  id: q.id,
  name: q.name,
  category: q.category,
  platform: q.platform,
  description: q.description,
  query: q.query,
});

/** A section as BloodHound's UI types its pre-built searches (CommonSearchType: subheader, category = platform). */
export const prebuiltSection = (s: Section) => ({
  subheader: s.name,
  category: s.platform,
  queries: s.queries.map(prebuiltQuery),
});
