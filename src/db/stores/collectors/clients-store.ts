import type { Queryable } from '../../pool.js';

export type CollectorType = 'collector_ad' | 'collector_azure' | 'collector_open';

export interface ClientModel {
  id: string;
  name: string;
  type: CollectorType;
  ipAddress: string;
  hostname: string;
  configuredUser: string;
  version: string;
  userSid: string | null;
  domainController: string | null;
  lastCheckin: Date | null;
  /** Finished scheduled jobs (complete or partially complete). */
  completedJobCount: number;
  /** Finished ad-hoc tasks (jobs without an event). */
  completedTaskCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface CheckIn {
  address: string;
  hostname: string;
  username: string;
  version: string;
  userSid: string | null;
}

const COLUMNS = /* SQL */ `c.id, c.name, c.type, c.ip_address as "ipAddress", c.hostname, c.configured_user as "configuredUser",
  c.version, c.user_sid as "userSid", c.domain_controller as "domainController", c.last_checkin as "lastCheckin",
  (select count(*) from collection_jobs j where j.client_id = c.id and j.event_id is not null and j.status in (2, 8))::int
    as "completedJobCount",
  (select count(*) from collection_jobs j where j.client_id = c.id and j.event_id is null and j.status in (2, 8))::int
    as "completedTaskCount",
  c.created_at as "createdAt", c.updated_at as "updatedAt"`;

const CREATE = /* SQL */ `-- clients.create
with c as (insert into clients (name, type, domain_controller) values ($1, $2, $3) returning *)
select ${COLUMNS} from c`;
const GET = /* SQL */ `-- clients.get
select ${COLUMNS} from clients c where c.id = $1`;
const LIST = /* SQL */ `-- clients.list
select ${COLUMNS}, count(*) over ()::int as total from clients c order by lower(c.name), c.id offset $1 limit $2`;
const UPDATE = /* SQL */ `-- clients.update
update clients set name = coalesce($2, name), domain_controller = case when $3 then $4 else domain_controller end,
  updated_at = now() where id = $1`;
const CHECK_IN = /* SQL */ `-- clients.checkIn
update clients set ip_address = $2, hostname = $3, configured_user = $4, version = $5, user_sid = coalesce($6, user_sid),
  last_checkin = $7, updated_at = now() where id = $1`;
const TOUCH = /* SQL */ `-- clients.touch
update clients set last_checkin = $2 where id = $1`;
const DELETE = /* SQL */ `-- clients.delete
delete from clients where id = $1`;

export function createClientsStore(db: Queryable) {
  return {
    async create(c: { name: string; type: CollectorType; domainController: string | null }): Promise<ClientModel> {
      return (await db.query<ClientModel>(CREATE, [c.name, c.type, c.domainController]))[0]!;
    },
    async get(id: string): Promise<ClientModel | undefined> {
      return (await db.query<ClientModel>(GET, [id]))[0];
    },
    async list(skip: number, limit: number): Promise<{ total: number; clients: ClientModel[] }> {
      const rows = await db.query<ClientModel & { total: number }>(LIST, [skip, limit]);
      return { total: rows[0]?.total ?? 0, clients: rows.map(({ total: _, ...c }) => c) };
    },
    /** `domainController` undefined leaves it as is; null clears it. */
    async update(id: string, u: { name?: string; domainController?: string | null }): Promise<boolean> {
      const setDc = u.domainController !== undefined;
      return (await db.execute(UPDATE, [id, u.name ?? null, setDc, u.domainController ?? null])) > 0;
    },
    async checkIn(id: string, c: CheckIn, at: Date): Promise<void> {
      await db.execute(CHECK_IN, [id, c.address, c.hostname, c.username, c.version, c.userSid, at]);
    },
    async touch(id: string, at: Date): Promise<void> {
      await db.execute(TOUCH, [id, at]);
    },
    async delete(id: string): Promise<boolean> {
      return (await db.execute(DELETE, [id])) > 0;
    },
  };
}

export type ClientsStore = ReturnType<typeof createClientsStore>;
