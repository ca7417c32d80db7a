import type { EventColumn, EventFilter, FilterOp } from '../../db/stores/collectors/events-store.js';
import { badRequest } from '../../errors.js';

type ValueType = 'int' | 'text' | 'time' | 'uuid' | 'bool';

interface FilterSpec {
  type: ValueType;
  /** The API document's pattern for the whole parameter value (`predicate:value` or `value`). */
  pattern: RegExp;
  expect: string;
}

const NUMERIC = 'eq|neq|gt|gte|lt|lte';
const TIME = new RegExp(
  `^((${NUMERIC}):)?[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|-[0-9]{2}:[0-9]{2})$`,
);
const BOOL = /^((eq|neq):)?(t|T|TRUE|true|True|f|F|FALSE|false|False)$/;
const time: FilterSpec = { type: 'time', pattern: TIME, expect: `an RFC 3339 timestamp, with an optional predicate (${NUMERIC})` };
const bool: FilterSpec = { type: 'bool', pattern: BOOL, expect: 'a boolean, with an optional predicate (eq, neq)' };

/** Filterable columns of GET /api/v2/events and their patterns, exactly as the API document lists them. */
export const EVENT_FILTERS: Record<EventColumn, FilterSpec> = {
  id: { type: 'int', pattern: new RegExp(`^((${NUMERIC}):)?-?[0-9]+$`), expect: `an integer, with an optional predicate (${NUMERIC})` },
  rrule: { type: 'text', pattern: /^((eq|~eq|neq):)?[^:]+$/, expect: 'text without colons, with an optional predicate (eq, ~eq, neq)' },
  next_scheduled_at: time,
  created_at: time,
  updated_at: time,
  deleted_at: time,
  client_id: {
    type: 'uuid',
    pattern: /^((eq|neq):)?[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/,
    expect: 'a UUID, with an optional predicate (eq, neq)',
  },
  session_collection: bool,
  local_group_collection: bool,
  ad_structure_collection: bool,
  cert_services_collection: bool,
  ca_registry_collection: bool,
  dc_registry_collection: bool,
};

/** The filterable columns, GraphQL's EventFilterColumn (src/services/common/enums.ts): each name is its column's. */
export const EVENT_FILTER_COLUMN = Object.fromEntries(Object.keys(EVENT_FILTERS).map((c) => [c, c])) as { [C in EventColumn]: C };

/** A filter column as REST names it (the query parameter); GraphQL's enum has already checked it. */
export function eventFilterColumn(context: string, name: string): EventColumn {
  if (!Object.hasOwn(EVENT_FILTERS, name)) {
    throw badRequest(context, `${name} is not a filterable column; use one of: ${Object.keys(EVENT_FILTERS).join(', ')}.`);
  }
  return name as EventColumn;
}

/**
 * Parses `column=predicate:value` filters (the predicate defaults to eq); a repeated column adds another condition
 * (AND). Each value is checked against its documented pattern: a 400 names the parameter and what it expects.
 */
export function parseEventFilters(context: string, raw: readonly { column: EventColumn; value: string }[]): EventFilter[] {
  return raw.map(({ column, value }) => {
    const spec = EVENT_FILTERS[column];
    if (!spec.pattern.test(value)) throw badRequest(context, `query parameter ${column} is malformed: expected ${spec.expect}.`);
    const m = /^(eq|~eq|neq|gt|gte|lt|lte):/.exec(value);
    const op = (m?.[1] ?? 'eq') as FilterOp;
    const text = m ? value.slice(m[0].length) : value;
    return { column, op, value: typed(context, column, spec.type, text) };
  });
}

function typed(context: string, column: string, type: ValueType, text: string): EventFilter['value'] {
  switch (type) {
    case 'int': {
      const n = Number(text);
      if (!Number.isSafeInteger(n) || Math.abs(n) > 2147483647) throw badRequest(context, `query parameter ${column} is out of range.`);
      return n;
    }
    case 'bool':
      return /^t/i.test(text);
    case 'time': {
      const d = new Date(text.toUpperCase());
      if (Number.isNaN(d.getTime())) throw badRequest(context, `query parameter ${column} is not a valid date and time.`);
      return d;
    }
    case 'uuid':
      return text.toLowerCase();
    case 'text':
      return text;
  }
}
