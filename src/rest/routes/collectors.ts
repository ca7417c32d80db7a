import { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { ClientType, EndJobStatus, EventFilterColumn, EventSortColumn } from '../../generated/operations.js';
import { CLIENT_TYPE, clientType } from '../../services/collectors/clients.js';
import { endStatus } from '../../services/collectors/collection-jobs.js';
import { collectorType } from '../../services/collectors/collector-files.js';
import { enumNameOf } from '../../services/common/enums.js';
import { EVENT_FILTER_COLUMN, eventFilterColumn } from '../../services/collectors/event-filters.js';
import { EVENT_SORT_COLUMN, eventSortKeys, FLAG_FIELDS } from '../../services/collectors/events.js';
import { END_JOB_STATUS } from '../../services/common/job-status.js';
import { field, intText, query } from '../params.js';
import * as shape from '../reshape/collectors.js';
import { token } from '../reshape/identity.js';
import { accepted, data, noContent, route } from '../route.js';

/** Collection flags, OUs and domains of an event or task body; `collectionInput` renames them as GraphQL does. */
const collectionBody = {
  ...Object.fromEntries(FLAG_FIELDS.map(([snake]) => [snake, field.bool()])),
  ous: field.strings(),
  domains: field.strings(),
};
const collectionInput = (b: Record<string, unknown>) => ({
  ...Object.fromEntries(FLAG_FIELDS.map(([snake, camel]) => [camel, b[snake] ?? null])),
  ous: (b.ous as string[] | null) ?? null,
  domains: (b.domains as string[] | null) ?? null,
});

const hydrate = { hydrate_ous: query.bool(true), hydrate_domains: query.bool(true) };
const hydrateVariables = (q: { hydrate_ous: boolean; hydrate_domains: boolean }) => ({
  hydrateOus: q.hydrate_ous,
  hydrateDomains: q.hydrate_domains,
});
const hydrateQuery = z.object(hydrate).transform(hydrateVariables);
const page = { skip: query.int(), limit: query.int() };

// Path parameters under the operations' name for them, so most routes need no `variables`.
const clientId = z.object({ client_id: z.string() }).transform((p) => ({ id: p.client_id }));
const jobId = z.object({ job_id: intText(1) }).transform((p) => ({ id: p.job_id }));
const eventId = z.object({ event_id: intText(1) }).transform((p) => ({ id: p.event_id }));

/** Every other query parameter of GET /api/v2/events is a column filter; a repeated one adds a condition. */
const EVENT_LIST_PARAMS = new Set(['skip', 'limit', 'sort_by', 'hydrate_ous', 'hydrate_domains']);
export const eventFilters = (q: Record<string, unknown>) =>
  Object.entries(q)
    .filter(([name]) => !EVENT_LIST_PARAMS.has(name))
    .flatMap(([name, v]) => {
      const column = enumNameOf<EventFilterColumn>(EVENT_FILTER_COLUMN, eventFilterColumn('events', name));
      return (Array.isArray(v) ? v : [v]).map((value) => ({ column, value: String(value) }));
    });
/** sort_by values (`id`, `-id`) as GraphQL's EventSort. */
const eventSort = (values: string[]) =>
  eventSortKeys(values).map((k) => ({ column: enumNameOf<EventSortColumn>(EVENT_SORT_COLUMN, k.column), descending: k.descending }));

/**
 * Collector management (enterprise): clients and their tokens, scheduled events (16, 17), ad-hoc tasks and jobs,
 * and the lifecycle a collector drives with its own token (check-in, jobs, ingest, 10, 13). The router orders
 * literal paths before parameterised ones (clients/update before clients/:client_id).
 */
export const collectorRoutes = [
  // --- the collector lifecycle (client tokens only; users get 404) ---
  route('PUT', '/api/v2/clients/update', 'clients', 'ClientCheckin', {
    body: 'json',
    input: {
      body: z.object({
        address: field.string(),
        hostname: field.string(),
        username: field.string(),
        version: field.string(),
        usersid: field.string(),
      }),
    },
    variables: ({ body }) => ({ input: body }),
    reshape: ({ clientCheckin }) => data(shape.client(clientCheckin)),
  }),
  // 13
  route('POST', '/api/v2/clients/error', 'clients', 'LogClientError', {
    body: 'json',
    input: {
      body: z.object({ task_error: z.string(), additional: z.record(z.string(), z.unknown(), { error: 'must be an object.' }).nullish() }),
    },
    variables: ({ body }) => ({
      taskError: body.task_error,
      additional: Object.entries(body.additional ?? {}).map(([name, v]) => ({
        name,
        value: typeof v === 'string' ? v : JSON.stringify(v),
      })),
    }),
    reshape: noContent,
  }),
  route('GET', '/api/v2/jobs/available', 'jobs', 'AvailableJobs', { reshape: ({ availableJobs }) => data(availableJobs.map(shape.job)) }),
  route('GET', '/api/v2/jobs/current', 'jobs', 'CurrentJob', { reshape: ({ currentJob }) => data(shape.job(currentJob)) }),
  route('POST', '/api/v2/jobs/start', 'jobs', 'StartJob', {
    body: 'json',
    input: {
      body: z.object({
        id: z
          .number({ error: 'must be a job id (a positive integer).' })
          .int('must be a job id (a positive integer).')
          .min(1)
          .max(2147483647),
      }),
    },
    variables: ({ body }) => body,
    reshape: ({ startJob }) => data(shape.endedJob(startJob)),
  }),
  // 10: no body (or an empty one) means COMPLETE
  route('POST', '/api/v2/jobs/end', 'jobs', 'EndJob', {
    body: 'json',
    input: {
      body: z
        .object({
          status: z.union([z.string(), z.number()], { error: 'must be a status name (COMPLETE, FAILED, …) or number.' }).nullish(),
          message: field.string(),
        })
        .optional(),
    },
    variables: ({ body }) => ({
      status: enumNameOf<EndJobStatus>(END_JOB_STATUS, endStatus(body?.status)),
      message: body?.message ?? null,
    }),
    reshape: ({ endJob }) => data(shape.endedJob(endJob)),
  }),
  // A collector's batch, or a user's JSON body (BloodHound's client posts one) as a one-file upload job.
  route('POST', '/api/v2/ingest', 'ingest', 'IngestPosted', {
    body: 'upload',
    variables: (_input, req) => {
      if (!req.upload) throw badRequest('ingest', 'The request has no body: send the collected JSON as the body.');
      return { file: req.upload };
    },
    reshape: accepted,
  }),
  // BloodHound's cancel of a collection job that has not finished.
  route('PUT', '/api/v2/jobs/:job_id/cancel', 'jobs', 'CancelJob', {
    input: { params: jobId },
    reshape: ({ cancelCollectionJob }) => data(shape.endedJob(cancelCollectionJob)),
  }),
  route('GET', '/api/v2/jobs/:job_id', 'jobs', 'GetJob', {
    input: { params: jobId },
    reshape: ({ collectionJob }) => data(shape.endedJob(collectionJob)),
  }),

  // --- clients (administration) ---
  route('GET', '/api/v2/clients', 'clients', 'ListClients', {
    input: { query: z.object(page) },
    reshape: ({ clients }) => ({ body: shape.envelope(clients, clients.clients.map(shape.client)) }),
  }),
  route('POST', '/api/v2/clients', 'clients', 'CreateClient', {
    body: 'json',
    input: {
      body: z.object({
        name: z.string(),
        type: z.string({ error: 'is required (collector_ad, collector_azure or collector_open; or sharphound, azurehound, openhound).' }),
        domain_controller: field.string(),
      }),
    },
    variables: ({ body: b }) => ({
      input: { name: b.name, type: enumNameOf<ClientType>(CLIENT_TYPE, clientType(b.type)), domainController: b.domain_controller },
    }),
    reshape: ({ createClient }) => data(shape.client(createClient)),
  }),
  // 7
  route('GET', '/api/v2/clients/:client_id', 'clients', 'GetClient', {
    input: { params: clientId, query: hydrateQuery },
    reshape: ({ client }) => data(shape.client(client)),
  }),
  route('PUT', '/api/v2/clients/:client_id', 'clients', 'UpdateClient', {
    body: 'json',
    input: { params: clientId, body: z.object({ name: field.string(), domain_controller: field.string() }) },
    variables: ({ params, body }) => ({ id: params.id, input: { name: body.name, domainController: body.domain_controller } }),
    reshape: ({ updateClient }) => data(shape.client(updateClient)),
  }),
  route('DELETE', '/api/v2/clients/:client_id', 'clients', 'DeleteClient', {
    input: { params: clientId },
    reshape: noContent,
  }),
  route('PUT', '/api/v2/clients/:client_id/token', 'clients', 'RegenerateClientToken', {
    input: { params: clientId },
    reshape: ({ regenerateClientToken }) => data(token(regenerateClientToken)),
  }),
  route('POST', '/api/v2/clients/:client_id/tasks', 'clients', 'CreateTask', {
    body: 'json',
    input: { params: clientId, body: z.object(collectionBody).optional() },
    variables: ({ params, body }) => ({ clientId: params.id, input: collectionInput(body ?? {}) }),
    reshape: ({ createTask }) => data(shape.endedJob(createTask)),
  }),
  route('GET', '/api/v2/clients/:client_id/jobs', 'clients', 'ClientJobs', {
    input: { params: clientId, query: z.object(page) },
    reshape: ({ client }) => ({ body: shape.envelope(client.jobs, client.jobs.jobs.map(shape.endedJob)) }),
  }),

  // --- scheduled collection events ---
  // 16
  route('GET', '/api/v2/events', 'events', 'ListEvents', {
    input: { query: z.looseObject({ ...page, sort_by: query.many(), ...hydrate }) },
    variables: ({ query }) => ({
      skip: query.skip,
      limit: query.limit,
      sortBy: eventSort(query.sort_by),
      filters: eventFilters(query),
      ...hydrateVariables(query),
    }),
    reshape: ({ events }) => ({ body: shape.envelope(events, events.events.map(shape.event)) }),
  }),
  // 17
  route('POST', '/api/v2/events', 'events', 'CreateEvent', {
    body: 'json',
    input: {
      query: hydrateQuery,
      body: z.object({
        client_id: z.guid({ error: 'is required: the UUID of a client.' }),
        rrule: z.string({ error: (i) => (i.input === undefined ? 'is required: a DTSTART line and an RRULE line.' : undefined) }),
        ...collectionBody,
      }),
    },
    variables: ({ body, query }) => ({ input: { clientId: body.client_id, rrule: body.rrule, ...collectionInput(body) }, ...query }),
    reshape: ({ createEvent }) => data(shape.event(createEvent)),
  }),
  route('GET', '/api/v2/events/:event_id', 'events', 'GetEvent', {
    input: { params: eventId, query: hydrateQuery },
    reshape: ({ event }) => data(shape.event(event)),
  }),
  // BloodHound's update of a scheduled event: the rules of create; fields left out keep their values.
  route('PUT', '/api/v2/events/:event_id', 'events', 'UpdateEvent', {
    body: 'json',
    input: { params: eventId, query: hydrateQuery, body: z.object({ rrule: z.string().optional(), ...collectionBody }) },
    variables: ({ params, body, query }) => ({ id: params.id, input: { rrule: body.rrule ?? null, ...collectionInput(body) }, ...query }),
    reshape: ({ updateEvent }) => data(shape.event(updateEvent)),
  }),
  route('DELETE', '/api/v2/events/:event_id', 'events', 'DeleteEvent', {
    input: { params: eventId },
    reshape: noContent,
  }),

  // --- collector releases (both editions) ---
  route('GET', '/api/v2/collectors/:collector_type', 'collectors', 'CollectorManifest', {
    input: { params: z.object({ collector_type: z.string() }) },
    variables: ({ params }) => ({ type: collectorTypeName(params.collector_type) }),
    reshape: ({ collectorManifest: m }) => data({ latest: m.latest ?? '', versions: m.versions }),
  }),
  // The release itself (BloodHound's DownloadCollectorByVersion), served only when it matches its checksum.
  route('GET', '/api/v2/collectors/:collector_type/:release_tag', 'collectors', 'CollectorDownload', {
    input: { params: z.object({ collector_type: z.string(), release_tag: z.string() }) },
    variables: ({ params }) => ({ type: collectorTypeName(params.collector_type), releaseTag: params.release_tag }),
    reshape: ({ collectorDownload: d }) => ({
      raw: { data: Buffer.from(d.contentBase64, 'base64'), contentType: 'application/octet-stream' },
      headers: { 'Content-Disposition': `attachment; filename="${d.fileName}"` },
    }),
  }),
  // 15
  route('GET', '/api/v2/collectors/:collector_type/:release_tag/checksum', 'collectors', 'CollectorChecksum', {
    input: { params: z.object({ collector_type: z.string(), release_tag: z.string() }) },
    variables: ({ params }) => ({ type: collectorTypeName(params.collector_type), releaseTag: params.release_tag }),
    reshape: ({ collectorChecksum: c }) => ({
      raw: { data: Buffer.from(c.content, 'utf8'), contentType: 'application/octet-stream' },
      headers: { 'Content-Disposition': `attachment; filename="${c.fileName}"` },
    }),
  }),
];

/** BloodHound's collector names (`sharphound`, `azurehound`) are aliases of the API document's ones. */
function collectorTypeName(t: string): ClientType {
  const type = collectorType(t === 'sharphound' ? 'collector_ad' : t === 'azurehound' ? 'collector_azure' : t);
  return enumNameOf<ClientType>(CLIENT_TYPE, type);
}
