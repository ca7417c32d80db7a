import {
  FILTER_COLUMNS,
  SORT_COLUMNS,
  type SavedQueryFilter,
  type SavedQueryFilterColumn,
  type SavedQueryScope,
  type SavedQuerySort,
  type SavedQuerySortColumn,
} from '../../db/stores/queries/saved-queries-store.js';
import { badRequest } from '../../errors.js';

const CONTEXT = 'saved-queries';

/** The scopes a list or an export names (BloodHound's words); `all` is the three together. */
export const SCOPE = { owned: 'owned', shared: 'shared', public: 'public', all: 'all' } as const;
export type ScopeName = (typeof SCOPE)[keyof typeof SCOPE];

/** GraphQL's SavedQuerySortColumn and SavedQueryFilterColumn: each name is its BloodHound column. */
export const SORT_COLUMN = Object.fromEntries(Object.keys(SORT_COLUMNS).map((c) => [c.replace(/_(.)/g, (_, x) => x.toUpperCase()), c])) as {
  [k: string]: SavedQuerySortColumn;
};
export const FILTER_COLUMN = Object.fromEntries(
  Object.keys(FILTER_COLUMNS).map((c) => [c.replace(/_(.)/g, (_, x) => x.toUpperCase()), c]),
) as { [k: string]: SavedQueryFilterColumn };

/** The stored scopes behind the named ones (a list defaults to the caller's own queries, as BloodHound's does). */
export function scopesOf(names: readonly ScopeName[] | null | undefined): SavedQueryScope[] {
  if (!names?.length) return ['owned'];
  const out = new Set<SavedQueryScope>();
  for (const n of names) {
    if (n === 'all') ['owned', 'shared', 'public'].forEach((s) => out.add(s as SavedQueryScope));
    else out.add(n);
  }
  return [...out];
}

/** A scope as REST spells it (case does not matter); a 400 in BloodHound's words otherwise. */
export function scopeName(text: string): ScopeName {
  const s = text.trim().toLowerCase();
  if (!Object.hasOwn(SCOPE, s)) throw badRequest(CONTEXT, `invalid scope param: ${text}`);
  return s as ScopeName;
}

/** Whether a column of BloodHound's list filters (name, query, user_id; description is ours). */
export const isFilterColumn = (name: string): name is SavedQueryFilterColumn => Object.hasOwn(FILTER_COLUMNS, name);
export const isSortColumn = (name: string): name is SavedQuerySortColumn => Object.hasOwn(SORT_COLUMNS, name);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `predicate:value` filters (the predicate defaults to eq). BloodHound's saved-query columns take eq and neq only;
 * another predicate is a 400 naming the column and the predicate, as its list answers.
 */
export function parseFilters(raw: readonly { column: SavedQueryFilterColumn; value: string }[]): SavedQueryFilter[] {
  return raw.map(({ column, value }) => {
    const m = /^(~eq|eq|neq|gt|gte|lt|lte):/.exec(value);
    const op = m?.[1] ?? 'eq';
    if (op !== 'eq' && op !== 'neq') {
      throw badRequest(CONTEXT, `the specified filter predicate is not supported for this column: ${column} ${op}`);
    }
    const text = m ? value.slice(m[0].length) : value;
    if (column === 'user_id' && !UUID.test(text)) throw badRequest(CONTEXT, `query parameter user_id is malformed: expected a UUID.`);
    return { column, op, value: column === 'user_id' ? text.toLowerCase() : text };
  });
}

/** `sort_by` values as REST sends them (`name`, `-created_at`). */
export function parseSort(values: readonly string[]): SavedQuerySort[] {
  return values
    .filter((v) => v !== '')
    .map((v) => {
      const descending = v.startsWith('-');
      const column = descending ? v.slice(1) : v;
      if (!isSortColumn(column)) throw badRequest(CONTEXT, 'column format does not support sorting');
      return { column, descending };
    });
}
