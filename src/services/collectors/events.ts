import type { ClientsStore } from '../../db/stores/collectors/clients-store.js';
import type { CollectionFlags, EventColumn, EventModel, EventSortColumn, EventsStore } from '../../db/stores/collectors/events-store.js';
import { badRequest, notFound } from '../../errors.js';
import { clientNotFound } from './clients.js';
import { parseEventFilters } from './event-filters.js';
import { paging, sortInput, sortKeys } from '../common/paging.js';
import { nextOccurrence, parseSchedule } from './schedule.js';
import { isUuid, requireListSize } from '../common/validate.js';

const CONTEXT = 'events';
const SORTABLE: readonly EventSortColumn[] = ['next_scheduled_at', 'id', 'created_at', 'updated_at', 'deleted_at'];

/** The sortable columns, GraphQL's EventSortColumn (src/services/common/enums.ts): each name is its column's. */
export const EVENT_SORT_COLUMN = Object.fromEntries(SORTABLE.map((c) => [c, c])) as { [C in EventSortColumn]: C };

/** REST's repeatable sort_by (`id`, `-id`); GraphQL takes {column, descending} with the column an enum. */
export const eventSortKeys = (values: readonly string[]) => sortKeys(CONTEXT, values, SORTABLE);

/** Body fields of a collection event and the model fields they fill. */
export const FLAG_FIELDS: readonly [string, keyof CollectionFlags][] = [
  ['session_collection', 'sessionCollection'],
  ['local_group_collection', 'localGroupCollection'],
  ['ad_structure_collection', 'adStructureCollection'],
  ['cert_services_collection', 'certServicesCollection'],
  ['ca_registry_collection', 'caRegistryCollection'],
  ['dc_registry_collection', 'dcRegistryCollection'],
  ['all_trusted_domains', 'allTrustedDomains'],
];

/** Just the collection flags of an event (a job made from it copies them). */
export const flagsOf = (x: CollectionFlags): CollectionFlags =>
  Object.fromEntries(FLAG_FIELDS.map(([, camel]) => [camel, x[camel]])) as unknown as CollectionFlags;

/** Collection flags of an event or task input; absent flags are false. */
export function readFlags(context: string, input: Record<string, unknown>): CollectionFlags {
  const flags = {} as CollectionFlags;
  for (const [, camel] of FLAG_FIELDS) {
    const v = input[camel];
    if (v !== undefined && v !== null && typeof v !== 'boolean') throw badRequest(context, `${camel} must be true or false.`);
    flags[camel] = v === true;
  }
  return flags;
}

/** A list of object ids (OUs, domains): strings, upper-cased as the graph stores them, without repeats. */
export function readObjectIds(context: string, name: string, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest(context, `${name} must be an array of object ids.`);
  requireListSize(context, name, v);
  const out = new Set<string>();
  for (const id of v) {
    if (typeof id !== 'string' || !id.trim() || id.length > 200) throw badRequest(context, `${name} must contain object id strings.`);
    out.add(id.trim().toUpperCase());
  }
  return [...out];
}

export interface EventsDeps {
  events: EventsStore;
  clients: ClientsStore;
  clock: () => Date;
}

/** Scheduled collection events (endpoints 16 and 17). */
export function createEventsService(deps: EventsDeps) {
  const { events, clock } = deps;

  return {
    /** Endpoint 17. OUs and domains not in the graph yet are kept (they show `exists: false`). */
    async create(input: Record<string, unknown>): Promise<EventModel> {
      const clientId = input.clientId;
      if (typeof clientId !== 'string' || !isUuid(clientId)) throw badRequest(CONTEXT, 'clientId is required: the UUID of a client.');
      const schedule = parseSchedule(CONTEXT, input.rrule);
      const flags = readFlags(CONTEXT, input);
      const ous = readObjectIds(CONTEXT, 'ous', input.ous);
      const domains = readObjectIds(CONTEXT, 'domains', input.domains);
      const client = await deps.clients.get(clientId.toLowerCase());
      if (!client) throw clientNotFound();
      return events.create({
        clientId: client.id,
        rrule: schedule.text,
        nextScheduledAt: nextOccurrence(schedule.rule, clock()),
        ...flags,
        ous,
        domains,
      });
    },

    /**
     * Updates a scheduled event with the rules of create: fields left out keep their values; a new rrule moves the
     * next run. The client cannot change (delete the event and create another).
     */
    async update(id: number, input: Record<string, unknown>): Promise<EventModel> {
      const current = await events.get(id);
      if (!current) throw notFound(CONTEXT, 'The requested event could not be found.');
      const given = (k: string) => input[k] !== undefined && input[k] !== null;
      const rrule = given('rrule') ? input.rrule : current.rrule;
      const schedule = parseSchedule(CONTEXT, rrule);
      const flags = readFlags(CONTEXT, { ...flagsOf(current), ...Object.fromEntries(Object.entries(input).filter(([k]) => given(k))) });
      const ous = given('ous') ? readObjectIds(CONTEXT, 'ous', input.ous) : current.ous;
      const domains = given('domains') ? readObjectIds(CONTEXT, 'domains', input.domains) : current.domains;
      const nextScheduledAt = given('rrule') ? nextOccurrence(schedule.rule, clock()) : current.nextScheduledAt;
      const updated = await events.update(id, { rrule: schedule.text, nextScheduledAt, ...flags, ous, domains });
      if (!updated) throw notFound(CONTEXT, 'The requested event could not be found.');
      return updated;
    },

    async get(id: number): Promise<EventModel> {
      const e = await events.get(id);
      if (!e) throw notFound(CONTEXT, 'The requested event could not be found.');
      return e;
    },

    /** Endpoint 16: filters (AND), sort on the listed columns, default limit 100, at most 1000. */
    async list(input: {
      skip?: number | null;
      limit?: number | null;
      sortBy?: readonly { column: EventSortColumn; descending?: boolean | null }[] | null;
      filters?: readonly { column: EventColumn; value: string }[] | null;
    }) {
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const sort = sortInput(input.sortBy);
      const filters = parseEventFilters(CONTEXT, input.filters ?? []);
      const { total, events: list } = await events.list(filters, sort, page.skip, page.limit);
      return { totalCount: total, skip: page.skip, limit: page.limit, events: list };
    },

    async delete(id: number): Promise<void> {
      if (!(await events.delete(id))) throw notFound(CONTEXT, 'The requested event could not be found.');
    },

    forClients: (clientIds: readonly string[]) => events.forClients(clientIds),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
