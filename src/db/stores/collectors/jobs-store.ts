import type { Queryable } from '../../pool.js';
import type { CollectionFlags } from './events-store.js';

export interface JobModel extends CollectionFlags {
  id: number;
  clientId: string;
  clientName: string;
  eventId: number | null;
  eventTitle: string;
  /** While the data is being analysed this reads 7 (analyzing), taken from the upload job. */
  status: number;
  reportedStatus: number | null;
  statusMessage: string;
  executionTime: Date;
  startTime: Date | null;
  endTime: Date | null;
  lastIngest: Date | null;
  logPath: string | null;
  domainController: string | null;
  ous: string[];
  domains: string[];
  ingestJobId: number | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type NewJob = CollectionFlags & {
  clientId: string;
  eventId: number | null;
  eventTitle: string;
  executionTime: Date;
  domainController: string | null;
  ous: string[];
  domains: string[];
};

export interface DomainResultModel {
  id: number;
  jobId: number;
  domainName: string;
  success: boolean;
  message: string;
  userCount: number;
  groupCount: number;
  computerCount: number;
  gpoCount: number;
  ouCount: number;
  containerCount: number;
  aiacaCount: number;
  rootcaCount: number;
  enterprisecaCount: number;
  ntauthstoreCount: number;
  certtemplateCount: number;
  deletedCount: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type DomainResultInput = Omit<DomainResultModel, 'id' | 'jobId' | 'createdAt' | 'updatedAt' | 'deletedAt'>;

export interface ClientErrorModel {
  id: number;
  clientId: string;
  jobId: number | null;
  taskError: string;
  additional: Record<string, unknown>;
  createdAt: Date;
}

export const COLUMNS = /* SQL */ `j.id, j.client_id as "clientId", c.name as "clientName", j.event_id as "eventId",
  j.event_title as "eventTitle",
  case when j.status = 6 and ij.status = 7 then 7 else j.status end as status,
  j.reported_status as "reportedStatus", j.status_message as "statusMessage", j.execution_time as "executionTime",
  j.start_time as "startTime", j.end_time as "endTime", j.last_ingest as "lastIngest", j.log_path as "logPath",
  j.session_collection as "sessionCollection", j.local_group_collection as "localGroupCollection",
  j.ad_structure_collection as "adStructureCollection", j.cert_services_collection as "certServicesCollection",
  j.ca_registry_collection as "caRegistryCollection", j.dc_registry_collection as "dcRegistryCollection",
  j.all_trusted_domains as "allTrustedDomains", j.domain_controller as "domainController", j.ous, j.domains,
  j.ingest_job_id as "ingestJobId", j.created_at as "createdAt", j.updated_at as "updatedAt", j.deleted_at as "deletedAt"`;
export const FROM = /* SQL */ `collection_jobs j join clients c on c.id = j.client_id left join ingest_jobs ij on ij.id = j.ingest_job_id`;

// A job per occurrence: a second scheduler reaching the same occurrence inserts nothing.
const CREATE = /* SQL */ `-- jobs.create
with j as (
  insert into collection_jobs (client_id, event_id, event_title, execution_time, session_collection,
    local_group_collection, ad_structure_collection, cert_services_collection, ca_registry_collection,
    dc_registry_collection, all_trusted_domains, domain_controller, ous, domains)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
  on conflict (event_id, execution_time) do nothing returning id)
select id from j`;
const GET = /* SQL */ `-- jobs.get
select ${COLUMNS} from ${FROM} where j.id = $1 and j.deleted_at is null`;
const RUNNING = /* SQL */ `-- jobs.running
select ${COLUMNS} from ${FROM} where j.client_id = any($1::uuid[]) and j.status = 1`;
const AVAILABLE = /* SQL */ `-- jobs.available
select ${COLUMNS} from ${FROM} where j.client_id = $1 and j.status = 0 and j.deleted_at is null
order by j.execution_time, j.id`;
const FOR_CLIENT = /* SQL */ `-- jobs.forClient
select ${COLUMNS}, count(*) over ()::int as total from ${FROM} where j.client_id = $1 and j.deleted_at is null
order by j.id desc offset $2 limit $3`;
const WAITING_FOR_EVENT = /* SQL */ `-- jobs.waitingForEvent
select exists (select 1 from collection_jobs where event_id = $1 and status = 0 and deleted_at is null) as waiting`;
// Collection jobs still "ingesting" whose upload job has ended: their finish was interrupted (a crash, the database
// away) and is redone.
const STRANDED = /* SQL */ `-- jobs.stranded
select ${COLUMNS} from ${FROM} where j.status = 6 and ij.status in (2, 3, 4, 5, 8) order by j.id limit 50`;
// Canceled jobs whose upload job is still open (the process stopped between the two steps of a cancel).
const CANCELED_OPEN = /* SQL */ `-- jobs.canceledWithOpenUpload
select ${COLUMNS} from ${FROM} where j.status = 3 and ij.status = 1 order by j.id limit 50`;
const BY_INGEST_JOB = /* SQL */ `-- jobs.byIngestJob
select ${COLUMNS} from ${FROM} where j.ingest_job_id = $1`;
const START = /* SQL */ `-- jobs.start
update collection_jobs set status = 1, start_time = $3, ingest_job_id = $4, status_message = 'running', updated_at = now()
where id = $1 and client_id = $2 and status = 0`;
const END = /* SQL */ `-- jobs.end
update collection_jobs set status = $2, reported_status = $3, status_message = $4, end_time = $5, updated_at = now()
where id = $1`;
// Only a job that has not finished (ready or running) can be canceled; the check and the change are one statement.
const CANCEL = /* SQL */ `-- jobs.cancel
update collection_jobs set status = 3, status_message = 'canceled', end_time = $2, updated_at = now()
where id = $1 and status in (0, 1) and deleted_at is null`;
const SET_STATUS = /* SQL */ `-- jobs.setStatus
update collection_jobs set status = $2, status_message = $3, updated_at = now() where id = $1`;
const TOUCH_INGEST = /* SQL */ `-- jobs.touchIngest
update collection_jobs set last_ingest = $2, updated_at = now() where id = $1`;
const APPEND_MESSAGE = /* SQL */ `-- jobs.appendMessage
update collection_jobs set status_message = left(case when status_message = '' then $2 else status_message || '; ' || $2 end, 4000),
  updated_at = now() where id = $1`;
const RESULTS_COLUMNS = /* SQL */ `id, job_id as "jobId", domain_name as "domainName", success, message,
  user_count as "userCount", group_count as "groupCount", computer_count as "computerCount", gpo_count as "gpoCount",
  ou_count as "ouCount", container_count as "containerCount", aiaca_count as "aiacaCount", rootca_count as "rootcaCount",
  enterpriseca_count as "enterprisecaCount", ntauthstore_count as "ntauthstoreCount",
  certtemplate_count as "certtemplateCount", deleted_count as "deletedCount",
  created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletedAt"`;
const RESULTS = /* SQL */ `-- jobs.domainResults
select ${RESULTS_COLUMNS} from collection_domain_results where job_id = any($1::bigint[]) and deleted_at is null
order by job_id, domain_name`;
// Results are recomputed from the ingested files each time, so writing them is an idempotent upsert.
const UPSERT_RESULTS = /* SQL */ `-- jobs.upsertDomainResults
insert into collection_domain_results (job_id, domain_name, success, message, user_count, group_count, computer_count,
  gpo_count, ou_count, container_count, aiaca_count, rootca_count, enterpriseca_count, ntauthstore_count,
  certtemplate_count, deleted_count)
select $1, r."domainName", r.success, r.message, r."userCount", r."groupCount", r."computerCount", r."gpoCount",
  r."ouCount", r."containerCount", r."aiacaCount", r."rootcaCount", r."enterprisecaCount", r."ntauthstoreCount",
  r."certtemplateCount", r."deletedCount"
from jsonb_to_recordset($2::jsonb) as r("domainName" text, success boolean, message text, "userCount" int,
  "groupCount" int, "computerCount" int, "gpoCount" int, "ouCount" int, "containerCount" int, "aiacaCount" int,
  "rootcaCount" int, "enterprisecaCount" int, "ntauthstoreCount" int, "certtemplateCount" int, "deletedCount" int)
on conflict (job_id, domain_name) do update set success = excluded.success, message = excluded.message,
  user_count = excluded.user_count, group_count = excluded.group_count, computer_count = excluded.computer_count,
  gpo_count = excluded.gpo_count, ou_count = excluded.ou_count, container_count = excluded.container_count,
  aiaca_count = excluded.aiaca_count, rootca_count = excluded.rootca_count,
  enterpriseca_count = excluded.enterpriseca_count, ntauthstore_count = excluded.ntauthstore_count,
  certtemplate_count = excluded.certtemplate_count, deleted_count = excluded.deleted_count, updated_at = now()`;
const ADD_ERROR = /* SQL */ `-- jobs.addError
insert into client_errors (client_id, job_id, task_error, additional) values ($1, $2, $3, $4)`;
const ERRORS = /* SQL */ `-- jobs.errors
select id, client_id as "clientId", job_id as "jobId", task_error as "taskError", additional, created_at as "createdAt"
from client_errors where job_id = any($1::bigint[]) order by id`;

export function createJobsStore(db: Queryable) {
  return {
    /** Inserts a job; undefined when that event already has a job for that occurrence. */
    async create(j: NewJob): Promise<number | undefined> {
      const rows = await db.query<{ id: number }>(CREATE, [
        j.clientId,
        j.eventId,
        j.eventTitle,
        j.executionTime,
        j.sessionCollection,
        j.localGroupCollection,
        j.adStructureCollection,
        j.certServicesCollection,
        j.caRegistryCollection,
        j.dcRegistryCollection,
        j.allTrustedDomains,
        j.domainController,
        j.ous,
        j.domains,
      ]);
      return rows[0]?.id;
    },
    async get(id: number): Promise<JobModel | undefined> {
      return (await db.query<JobModel>(GET, [id]))[0];
    },
    async running(clientId: string): Promise<JobModel | undefined> {
      return (await db.query<JobModel>(RUNNING, [[clientId]]))[0];
    },
    /** The running job of each client that has one (a client runs at most one). */
    runningOf: (clientIds: readonly string[]) => db.query<JobModel>(RUNNING, [clientIds]),
    async available(clientId: string): Promise<JobModel[]> {
      return db.query<JobModel>(AVAILABLE, [clientId]);
    },
    async forClient(clientId: string, skip: number, limit: number): Promise<{ total: number; jobs: JobModel[] }> {
      const rows = await db.query<JobModel & { total: number }>(FOR_CLIENT, [clientId, skip, limit]);
      return { total: rows[0]?.total ?? 0, jobs: rows.map(({ total: _, ...j }) => j) };
    },
    async waitingForEvent(eventId: number): Promise<boolean> {
      return (await db.query<{ waiting: boolean }>(WAITING_FOR_EVENT, [eventId]))[0]!.waiting;
    },
    stranded: () => db.query<JobModel>(STRANDED),
    canceledWithOpenUpload: () => db.query<JobModel>(CANCELED_OPEN),
    async byIngestJob(ingestJobId: number): Promise<JobModel | undefined> {
      return (await db.query<JobModel>(BY_INGEST_JOB, [ingestJobId]))[0];
    },
    /** Ready → running for this client; false when the job is not ready (or not this client's). */
    async start(id: number, clientId: string, at: Date, ingestJobId: number): Promise<boolean> {
      return (await db.execute(START, [id, clientId, at, ingestJobId])) > 0;
    },
    async end(id: number, status: number, reportedStatus: number, message: string, at: Date): Promise<void> {
      await db.execute(END, [id, status, reportedStatus, message, at]);
    },
    /** Ready or running → canceled; false when the job has finished (or does not exist). */
    async cancel(id: number, at: Date): Promise<boolean> {
      return (await db.execute(CANCEL, [id, at])) > 0;
    },
    async setStatus(id: number, status: number, message: string): Promise<void> {
      await db.execute(SET_STATUS, [id, status, message]);
    },
    async touchIngest(id: number, at: Date): Promise<void> {
      await db.execute(TOUCH_INGEST, [id, at]);
    },
    async appendMessage(id: number, text: string): Promise<void> {
      await db.execute(APPEND_MESSAGE, [id, text]);
    },
    async domainResults(jobIds: readonly number[]): Promise<DomainResultModel[]> {
      return jobIds.length ? db.query<DomainResultModel>(RESULTS, [jobIds]) : [];
    },
    async upsertDomainResults(jobId: number, results: readonly DomainResultInput[]): Promise<void> {
      if (results.length) await db.execute(UPSERT_RESULTS, [jobId, JSON.stringify(results)]);
    },
    async addError(clientId: string, jobId: number | null, taskError: string, additional: Record<string, unknown>): Promise<void> {
      await db.execute(ADD_ERROR, [clientId, jobId, taskError, JSON.stringify(additional)]);
    },
    async errors(jobIds: readonly number[]): Promise<ClientErrorModel[]> {
      return jobIds.length ? db.query<ClientErrorModel>(ERRORS, [jobIds]) : [];
    },
  };
}

export type JobsStore = ReturnType<typeof createJobsStore>;
