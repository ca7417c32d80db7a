import type {
  ClientFieldsFragment,
  CollectionJobFieldsFragment,
  EventFieldsFragment,
  RefFieldsFragment,
} from '../../generated/operations.js';
import { CLIENT_TYPE } from '../../services/collectors/clients.js';
import { JOB_STATUS } from '../../services/common/job-status.js';
import { enumValue } from '../../services/common/enums.js';
import { FLAG_FIELDS } from '../../services/collectors/events.js';
import { nullInt32, nullInt64, nullString, nullTime, time } from '../shapes.js';
import { token } from './identity.js';

/** GraphQL results (camelCase) → the API document's client, event and job shapes. */

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

const ouRef = (r: RefFieldsFragment) => ({
  objectid: r.objectId,
  name: r.name,
  exists: r.exists,
  distinguishedname: r.distinguishedName,
  type: r.type,
});
const domainRef = (r: RefFieldsFragment) => ({ objectid: r.objectId, name: r.name, exists: r.exists, type: r.type });

const flags = (x: Partial<Record<(typeof FLAG_FIELDS)[number][1], boolean>>) =>
  Object.fromEntries(FLAG_FIELDS.map(([snake, camel]) => [snake, x[camel] ?? false]));

/** Collection event; OUs and domains hydrated when the operation selected them, else object ids only. */
export const event = (e: EventFieldsFragment) => ({
  id: e.id,
  client_id: e.clientId,
  rrule: e.rrule,
  next_scheduled_at: time(e.nextScheduledAt),
  ...flags(e),
  ous: e.ous ? e.ous.map(ouRef) : e.ouIds,
  domains: e.domains ? e.domains.map(domainRef) : e.domainIds,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
  deleted_at: nullTime(e.deletedAt),
});

export const domainResult = (r: CollectionJobFieldsFragment['domainResults'][number]) => ({
  id: r.id,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  deleted_at: nullTime(r.deletedAt),
  job_id: r.jobId,
  domain_name: r.domainName,
  success: r.success,
  message: r.message,
  user_count: r.userCount,
  group_count: r.groupCount,
  computer_count: r.computerCount,
  gpo_count: r.gpoCount,
  ou_count: r.ouCount,
  container_count: r.containerCount,
  aiaca_count: r.aiacaCount,
  rootca_count: r.rootcaCount,
  enterpriseca_count: r.enterprisecaCount,
  ntauthstore_count: r.ntauthstoreCount,
  certtemplate_count: r.certtemplateCount,
  deleted_count: r.deletedCount,
});

/** Job as embedded in a client (current_job, current_task) and listed to collectors. */
/** The fields of a job that `job` reads (a missing job is shown with Go's zero values, see noJob). */
type JobShown = Pick<
  CollectionJobFieldsFragment,
  | 'id'
  | 'clientId'
  | 'clientName'
  | 'eventId'
  | 'executionTime'
  | 'status'
  | 'statusMessage'
  | 'domainController'
  | 'ous'
  | 'domains'
  | 'domainResults'
> &
  Partial<CollectionJobFieldsFragment>;

export const job = (j: JobShown) => ({
  id: j.id,
  client_id: j.clientId,
  client_name: j.clientName,
  event_id: nullInt32(j.eventId),
  execution_time: j.executionTime,
  start_time: time(j.startTime),
  end_time: time(j.endTime),
  status: enumValue(JOB_STATUS, j.status),
  status_message: j.statusMessage,
  ...flags(j),
  domain_controller: j.domainController ?? '',
  ous: j.ous.map(ouRef),
  domains: j.domains.map(domainRef),
  domain_results: j.domainResults.map(domainResult),
});

/** No job: Go's zero value, whose status (-1) reads "invalid". */
const noJob = () =>
  job({
    id: 0,
    clientId: ZERO_UUID,
    clientName: '',
    eventId: null,
    executionTime: time(null),
    status: 'INVALID',
    statusMessage: '',
    domainController: null,
    ous: [],
    domains: [],
    domainResults: [],
  });

/** Job in the job-end shape (also jobs/start and job details): statusMessage is camelCase there, ous/domains are ids. */
export const endedJob = (j: CollectionJobFieldsFragment) => ({
  id: j.id,
  created_at: j.createdAt,
  updated_at: j.updatedAt,
  deleted_at: nullTime(j.deletedAt),
  client_id: j.clientId,
  client_name: j.clientName,
  event_id: nullInt32(j.eventId),
  status: enumValue(JOB_STATUS, j.status),
  statusMessage: j.statusMessage,
  execution_time: j.executionTime,
  start_time: time(j.startTime),
  end_time: time(j.endTime),
  log_path: nullString(j.logPath),
  ...flags(j),
  domain_controller: nullString(j.domainController),
  event_title: j.eventTitle,
  last_ingest: time(j.lastIngest),
  ous: j.ouIds,
  domains: j.domainIds,
  domain_results: j.domainResults.map(domainResult),
});

/** Endpoint 7's client. */
export const client = (c: ClientFieldsFragment) => ({
  id: c.id,
  name: c.name,
  ip_address: c.ipAddress,
  hostname: c.hostname,
  configured_user: c.configuredUser,
  last_checkin: time(c.lastCheckin),
  events: c.events.map(event),
  token: c.token ? token(c.token) : null,
  current_job_id: nullInt64(c.currentJob?.id),
  current_task_id: nullInt64(c.currentTask?.id),
  current_job: c.currentJob ? job(c.currentJob) : noJob(),
  current_task: c.currentTask ? job(c.currentTask) : noJob(),
  completed_job_count: c.completedJobCount,
  completed_task_count: c.completedTaskCount,
  domain_controller: nullString(c.domainController),
  version: c.version,
  user_sid: nullString(c.userSid),
  type: enumValue(CLIENT_TYPE, c.type),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const envelope = <T>(l: { totalCount: number; skip: number; limit: number }, items: T[]) => ({
  count: l.totalCount,
  skip: l.skip,
  limit: l.limit,
  data: items,
});
