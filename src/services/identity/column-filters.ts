import { badRequest } from '../../errors.js';

/** BloodHound's filter predicates (`?first_name=eq:Ann`); `~eq` is a case-insensitive substring match. */
export const PREDICATES = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', '~eq'] as const;
export type Predicate = (typeof PREDICATES)[number];

/** One filter as both transports give it: GraphQL's ColumnFilter, or a REST query parameter split at its first colon. */
export interface ColumnFilter {
  column: string;
  operator: string;
  value: string;
}

/** How a filterable column is compared: its SQL expression (a constant of the caller), type and predicates. */
export interface FilterColumn {
  sql: string;
  type: 'text' | 'uuid' | 'time' | 'int';
  predicates: readonly Predicate[];
}

const SQL_OP: Record<Exclude<Predicate, '~eq'>, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_FILTERS = 32;

/** REST query parameters (`name=op:value`, repeatable) of the filterable columns → filters; others are ignored. */
export function filtersFromQuery(query: Record<string, unknown>, columns: Record<string, FilterColumn>): ColumnFilter[] {
  const out: ColumnFilter[] = [];
  for (const [column, raw] of Object.entries(query)) {
    if (!Object.hasOwn(columns, column)) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      const text = String(v);
      const at = text.indexOf(':');
      const op = at < 0 ? '' : text.slice(0, at);
      // A bare value means equality; a value that itself holds a colon keeps it when no predicate leads.
      if ((PREDICATES as readonly string[]).includes(op)) out.push({ column, operator: op, value: text.slice(at + 1) });
      else out.push({ column, operator: 'eq', value: text });
    }
  }
  return out;
}

/**
 * Validates filters against the columns and builds a parameterised condition (`$n` numbered from `first`). A column
 * that cannot be filtered, a predicate the column does not take or a value of the wrong type is a 400 naming it.
 */
export function buildFilter(
  context: string,
  filters: readonly ColumnFilter[],
  columns: Record<string, FilterColumn>,
  first = 1,
): { where: string; params: unknown[] } {
  if (filters.length > MAX_FILTERS) throw badRequest(context, `at most ${MAX_FILTERS} filters may be given.`);
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const f of filters) {
    const col = Object.hasOwn(columns, f.column) ? columns[f.column] : undefined;
    if (!col) throw badRequest(context, `the specified column cannot be filtered: ${f.column.slice(0, 64)}.`);
    const op = f.operator as Predicate;
    if (!col.predicates.includes(op))
      throw badRequest(context, `the specified filter predicate is not supported for this column: ${f.column} ${f.operator.slice(0, 16)}.`);
    const n = `$${first + params.length}`;
    if (f.value.length > 1024) throw badRequest(context, `the filter value for ${f.column} is longer than 1024 characters.`);
    if (op === '~eq') {
      parts.push(`${col.sql}::text ilike ${n}`);
      params.push(`%${f.value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      continue;
    }
    params.push(typed(context, f, col));
    parts.push(`${col.sql} ${SQL_OP[op]} ${n}${col.type === 'time' ? '::timestamptz' : ''}`);
  }
  return { where: parts.join(' and '), params };
}

function typed(context: string, f: ColumnFilter, col: FilterColumn): unknown {
  switch (col.type) {
    case 'uuid':
      if (!UUID.test(f.value)) throw badRequest(context, `${f.column} must be a UUID.`);
      return f.value.toLowerCase();
    case 'int':
      if (!/^-?\d{1,18}$/.test(f.value)) throw badRequest(context, `${f.column} must be an integer.`);
      return f.value;
    case 'time': {
      const t = Date.parse(f.value);
      if (Number.isNaN(t)) throw badRequest(context, `${f.column} must be an RFC 3339 time.`);
      return new Date(t).toISOString();
    }
    default:
      return f.value;
  }
}
