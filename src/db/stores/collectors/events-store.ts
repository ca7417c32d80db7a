import type { Queryable } from '../../pool.js';

export interface CollectionFlags {
  sessionCollection: boolean;
  localGroupCollection: boolean;
  adStructureCollection: boolean;
  certServicesCollection: boolean;
  caRegistryCollection: boolean;
  dcRegistryCollection: boolean;
  allTrustedDomains: boolean;
}

export interface EventModel extends CollectionFlags {
  id: number;
  clientId: string;
  rrule: string;
  nextScheduledAt: Date | null;
  ous: string[];
  domains: string[];
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type EventColumn =
  | 'id'
  | 'rrule'
  | 'next_scheduled_at'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
  | 'client_id'
  | 'session_collection'
  | 'local_group_collection'
  | 'ad_structure_collection'
  | 'cert_services_collection'
  | 'ca_registry_collection'
  | 'dc_registry_collection';

export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | '~eq';

/** One validated filter; `value` is already of the column's type. */
export interface EventFilter {
  column: EventColumn;
  op: FilterOp;
  value: string | number | boolean | Date;
}

export type EventSortColumn = 'next_scheduled_at' | 'id' | 'created_at' | 'updated_at' | 'deleted_at';

// Column and operator text come only from these fixed maps; values are always bound parameters.
const COLUMN_SQL: Record<EventColumn, string> = {
  id: 'e.id',
  rrule: 'e.rrule',
  next_scheduled_at: 'e.next_scheduled_at',
  created_at: 'e.created_at',
  updated_at: 'e.updated_at',
  deleted_at: 'e.deleted_at',
  client_id: 'e.client_id',
  session_collection: 'e.session_collection',
  local_group_collection: 'e.local_group_collection',
  ad_structure_collection: 'e.ad_structure_collection',
  cert_services_collection: 'e.cert_services_collection',
  ca_registry_collection: 'e.ca_registry_collection',
  dc_registry_collection: 'e.dc_registry_collection',
};
export const OP_SQL: Record<FilterOp, string> = {
  eq: '=',
  neq: 'is distinct from',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  '~eq': 'ilike',
};

const COLUMNS = /* SQL */ `e.id, e.client_id as "clientId", e.rrule, e.next_scheduled_at as "nextScheduledAt",
  e.session_collection as "sessionCollection", e.local_group_collection as "localGroupCollection",
  e.ad_structure_collection as "adStructureCollection", e.cert_services_collection as "certServicesCollection",
  e.ca_registry_collection as "caRegistryCollection", e.dc_registry_collection as "dcRegistryCollection",
  e.all_trusted_domains as "allTrustedDomains", e.ous, e.domains,
  e.created_at as "createdAt", e.updated_at as "updatedAt", e.deleted_at as "deletedAt"`;

const CREATE = /* SQL */ `-- events.create
with e as (
  insert into collection_events (client_id, rrule, next_scheduled_at, session_collection, local_group_collection,
    ad_structure_collection, cert_services_collection, ca_registry_collection, dc_registry_collection,
    all_trusted_domains, ous, domains)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning *)
select ${COLUMNS} from e`;
const UPDATE = /* SQL */ `-- events.update
with e as (
  update collection_events set rrule = $2, next_scheduled_at = $3, session_collection = $4, local_group_collection = $5,
    ad_structure_collection = $6, cert_services_collection = $7, ca_registry_collection = $8,
    dc_registry_collection = $9, all_trusted_domains = $10, ous = $11, domains = $12, updated_at = now()
  where id = $1 and deleted_at is null returning *)
select ${COLUMNS} from e`;
const GET = /* SQL */ `-- events.get
select ${COLUMNS} from collection_events e where e.id = $1 and e.deleted_at is null`;
const FOR_CLIENTS = /* SQL */ `-- events.forClients
select ${COLUMNS} from collection_events e where e.client_id = any($1::uuid[]) and e.deleted_at is null order by e.id`;
const DELETE = /* SQL */ `-- events.delete
update collection_events set deleted_at = now(), updated_at = now(), next_scheduled_at = null
where id = $1 and deleted_at is null`;
// Due events, locked so that concurrent schedulers (replicas) each take different ones and never the same twice.
const CLAIM_DUE = /* SQL */ `-- events.claimDue
select ${COLUMNS} from collection_events e
where e.deleted_at is null and e.next_scheduled_at <= $1
order by e.next_scheduled_at limit $2 for update skip locked`;
const SET_NEXT = /* SQL */ `-- events.setNext
update collection_events set next_scheduled_at = $2, updated_at = now() where id = $1`;

/** The where clause for `filters`, pushing their values onto `params`. */
function whereOf(filters: readonly EventFilter[], params: unknown[]): string {
  const where = filters.some((f) => f.column === 'deleted_at') ? [] : ['e.deleted_at is null'];
  for (const f of filters) {
    params.push(f.op === '~eq' ? `%${String(f.value).replace(/[\\%_]/g, '\\$&')}%` : f.value);
    where.push(`${COLUMN_SQL[f.column]} ${OP_SQL[f.op]} $${params.length}`);
  }
  return where.length ? `where ${where.join(' and ')}` : '';
}

/** The parameters CREATE and UPDATE share, in their order: schedule, collection flags, OUs and domains. */
const scheduleParams = (e: Omit<EventModel, 'id' | 'clientId' | 'createdAt' | 'updatedAt' | 'deletedAt'>) => [
  e.rrule,
  e.nextScheduledAt,
  e.sessionCollection,
  e.localGroupCollection,
  e.adStructureCollection,
  e.certServicesCollection,
  e.caRegistryCollection,
  e.dcRegistryCollection,
  e.allTrustedDomains,
  e.ous,
  e.domains,
];

export function createEventsStore(db: Queryable) {
  return {
    async create(e: Omit<EventModel, 'id' | 'createdAt' | 'updatedAt' | 'deletedAt'>): Promise<EventModel> {
      const rows = await db.query<EventModel>(CREATE, [e.clientId, ...scheduleParams(e)]);
      return rows[0]!;
    },
    /** Replaces an event's schedule, flags and lists; undefined when it does not exist (or was deleted). */
    async update(
      id: number,
      e: Omit<EventModel, 'id' | 'clientId' | 'createdAt' | 'updatedAt' | 'deletedAt'>,
    ): Promise<EventModel | undefined> {
      const rows = await db.query<EventModel>(UPDATE, [id, ...scheduleParams(e)]);
      return rows[0];
    },
    async get(id: number): Promise<EventModel | undefined> {
      return (await db.query<EventModel>(GET, [id]))[0];
    },
    async forClients(clientIds: readonly string[]): Promise<EventModel[]> {
      return clientIds.length ? db.query<EventModel>(FOR_CLIENTS, [clientIds]) : [];
    },
    /**
     * A page of events matching every filter (AND). Deleted events are left out unless a filter names deleted_at.
     * The statement is assembled from the fixed column/operator maps above; request values are parameters only.
     */
    async list(
      filters: readonly EventFilter[],
      sort: readonly { column: EventSortColumn; descending: boolean }[],
      skip: number,
      limit: number,
    ): Promise<{ total: number; events: EventModel[] }> {
      const params: unknown[] = [];
      const where = whereOf(filters, params);
      const order = [...sort.map((s) => `${COLUMN_SQL[s.column]} ${s.descending ? 'desc' : 'asc'} nulls last`), 'e.id asc'];
      params.push(skip, limit);
      const sql = `-- events.list
select ${COLUMNS}, count(*) over ()::int as total from collection_events e
${where}
order by ${order.join(', ')} offset $${params.length - 1} limit $${params.length}`;
      const rows = await db.query<EventModel & { total: number }>(sql, params);
      return { total: rows[0]?.total ?? (skip > 0 ? await this.count(filters) : 0), events: rows.map(({ total: _, ...e }) => e) };
    },
    /** Total matches when the page itself is empty (skip past the end). */
    async count(filters: readonly EventFilter[]): Promise<number> {
      const params: unknown[] = [];
      const where = whereOf(filters, params);
      const sql = `-- events.count
select count(*)::int as n from collection_events e ${where}`;
      return (await db.query<{ n: number }>(sql, params))[0]!.n;
    },
    async delete(id: number): Promise<boolean> {
      return (await db.execute(DELETE, [id])) > 0;
    },
    /** Must run inside a transaction: the rows stay locked until it ends. */
    async claimDue(now: Date, max: number): Promise<EventModel[]> {
      return db.query<EventModel>(CLAIM_DUE, [now, max]);
    },
    async setNext(id: number, next: Date | null): Promise<void> {
      await db.execute(SET_NEXT, [id, next]);
    },
  };
}

export type EventsStore = ReturnType<typeof createEventsStore>;
