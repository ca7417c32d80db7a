import { AppError } from '../../src/errors';
import { eventFilterColumn, parseEventFilters } from '../../src/services/collectors/event-filters';

const refusal = (raw: { column: string; value: string }[]) => {
  try {
    // REST checks the column first (GraphQL's EventFilterColumn enum does it there), then the value.
    parseEventFilters(
      'events',
      raw.map((f) => ({ column: eventFilterColumn('events', f.column), value: f.value })),
    );
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.context}: ${err.message}`;
    throw err;
  }
  return 'accepted';
};

describe('event list filters (GET /api/v2/events)', () => {
  it('reads column=predicate:value, eq by default, typed by column', () => {
    expect(
      parseEventFilters('events', [
        { column: 'id', value: 'gt:5' },
        { column: 'id', value: '9' },
        { column: 'rrule', value: '~eq:DAILY' },
        { column: 'session_collection', value: 'neq:T' },
        { column: 'client_id', value: 'eq:AAAAAAAA-0000-4000-8000-000000000000' },
        { column: 'created_at', value: 'gte:2026-01-02T03:04:05Z' },
      ]),
    ).toEqual([
      { column: 'id', op: 'gt', value: 5 },
      { column: 'id', op: 'eq', value: 9 },
      { column: 'rrule', op: '~eq', value: 'DAILY' },
      { column: 'session_collection', op: 'neq', value: true },
      { column: 'client_id', op: 'eq', value: 'aaaaaaaa-0000-4000-8000-000000000000' },
      { column: 'created_at', op: 'gte', value: new Date('2026-01-02T03:04:05Z') },
    ]);
  });

  it.each([
    [{ column: 'nope', value: '1' }, /^400 events: nope is not a filterable column; use one of: id, rrule/],
    [{ column: 'id', value: 'like:1' }, /^400 events: query parameter id is malformed: expected an integer/],
    [{ column: 'id', value: '99999999999' }, /^400 events: query parameter id is out of range/],
    [{ column: 'rrule', value: 'gt:x' }, /query parameter rrule is malformed/],
    [{ column: 'client_id', value: 'gt:00000000-0000-4000-8000-000000000000' }, /client_id is malformed: expected a UUID/],
    [{ column: 'created_at', value: '2026-13-45T99:99:99Z' }, /created_at is not a valid date and time/],
  ])('refuses %j with a 400 naming the parameter', (filter, message) => {
    expect(refusal([filter])).toMatch(message);
  });
});
