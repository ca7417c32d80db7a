import { badRequest } from '../../errors.js';
import { FLAG_FIELDS } from '../../services/events.js';
import { bodyObject, bool, int, many, single } from '../params.js';
import * as shape from '../reshape/collectors.js';
import { token } from '../reshape/identity.js';
import type { RestRequest, RestRoute } from '../route.js';

type Body = Record<string, unknown>;

const optString = (context: string, b: Body, field: string): string | null => {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw badRequest(context, `${field} must be a string.`);
  return v;
};
const optBool = (context: string, b: Body, field: string): boolean | null => {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw badRequest(context, `${field} must be true or false.`);
  return v;
};
const optStrings = (context: string, b: Body, field: string): string[] | null => {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw badRequest(context, `${field} must be an array of strings.`);
  if (v.length > 10_000) throw badRequest(context, `${field} holds ${v.length} items; at most 10000 are accepted.`);
  return v;
};

/** Collection flags, OUs and domains of an event or task body, as the GraphQL input names them. */
const collectionInput = (context: string, b: Body) => ({
  ...Object.fromEntries(FLAG_FIELDS.map(([snake, camel]) => [camel, optBool(context, b, snake)])),
  ous: optStrings(context, b, 'ous'),
  domains: optStrings(context, b, 'domains'),
});

const hydrate = (context: string, req: RestRequest) => ({
  hydrateOus: bool(context, 'hydrate_ous', single(context, 'hydrate_ous', req.query.hydrate_ous), true),
  hydrateDomains: bool(context, 'hydrate_domains', single(context, 'hydrate_domains', req.query.hydrate_domains), true),
});

const page = (context: string, req: RestRequest) => ({
  skip: int(context, 'skip', single(context, 'skip', req.query.skip), { min: 0 }) ?? null,
  limit: int(context, 'limit', single(context, 'limit', req.query.limit), { min: 0 }) ?? null,
});

const EVENT_LIST_PARAMS = new Set(['skip', 'limit', 'sort_by', 'hydrate_ous', 'hydrate_domains']);

/** Every other query parameter of GET /api/v2/events is a column filter; a repeated one adds a condition. */
const eventFilters = (req: RestRequest) =>
  Object.entries(req.query)
    .filter(([name]) => !EVENT_LIST_PARAMS.has(name))
    .flatMap(([name, v]) => many('events', name, v).map((value) => ({ column: name, value })));

const data = (body: unknown) => ({ body: { data: body } });

/**
 * Collector management (enterprise): clients and their tokens, scheduled events (16, 17), ad-hoc tasks and jobs,
 * and the lifecycle a collector drives with its own token (check-in, jobs, ingest, 10, 13). Literal paths come
 * before the parameterised ones they would otherwise match (clients/update before clients/:client_id).
 */
export const collectorRoutes: RestRoute[] = [
  // --- the collector lifecycle (client tokens only; users get 404) ---
  {
    method: 'PUT',
    path: '/api/v2/clients/update',
    edition: 'enterprise',
    context: 'clients',
    operation: 'ClientCheckin',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('clients', body);
      const input = Object.fromEntries(
        ['address', 'hostname', 'username', 'version', 'usersid'].map((f) => [f, optString('clients', b, f)]),
      );
      return { input };
    },
    reshape: ({ clientCheckin }) => data(shape.client(clientCheckin)),
  },
  // 13
  {
    method: 'POST',
    path: '/api/v2/clients/error',
    edition: 'enterprise',
    context: 'clients',
    operation: 'LogClientError',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('clients', body);
      if (typeof b.task_error !== 'string') throw badRequest('clients', 'task_error is required and must be a string.');
      return { taskError: b.task_error, additional: b.additional ?? null };
    },
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/jobs/available',
    edition: 'enterprise',
    context: 'jobs',
    operation: 'AvailableJobs',
    reshape: ({ availableJobs }) => data(availableJobs.map(shape.job)),
  },
  {
    method: 'GET',
    path: '/api/v2/jobs/current',
    edition: 'enterprise',
    context: 'jobs',
    operation: 'CurrentJob',
    reshape: ({ currentJob }) => data(shape.job(currentJob)),
  },
  {
    method: 'POST',
    path: '/api/v2/jobs/start',
    edition: 'enterprise',
    context: 'jobs',
    operation: 'StartJob',
    body: 'json',
    variables: ({ body }) => {
      const id = bodyObject('jobs', body).id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2147483647)
        throw badRequest('jobs', 'id must be a job id (a positive integer).');
      return { id };
    },
    reshape: ({ startJob }) => data(shape.endedJob(startJob)),
  },
  // 10: no body (or an empty one) means COMPLETE
  {
    method: 'POST',
    path: '/api/v2/jobs/end',
    edition: 'enterprise',
    context: 'jobs',
    operation: 'EndJob',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('jobs', body, true);
      if (b.status !== undefined && b.status !== null && typeof b.status !== 'string' && typeof b.status !== 'number') {
        throw badRequest('jobs', 'status must be a status name (COMPLETE, FAILED, …) or number.');
      }
      return { status: b.status === undefined || b.status === null ? null : String(b.status), message: optString('jobs', b, 'message') };
    },
    reshape: ({ endJob }) => data(shape.endedJob(endJob)),
  },
  {
    method: 'POST',
    path: '/api/v2/ingest',
    edition: 'enterprise',
    context: 'ingest',
    operation: 'IngestCollection',
    body: 'upload',
    variables: (req) => {
      if (!req.upload) throw badRequest('ingest', 'The request has no body: send the collected JSON as the body.');
      return { file: req.upload };
    },
    reshape: () => ({ status: 202 }),
  },
  {
    method: 'GET',
    path: '/api/v2/jobs/:job_id',
    edition: 'enterprise',
    context: 'jobs',
    operation: 'GetJob',
    variables: (req) => ({ id: int('jobs', 'job_id', req.params.job_id, { min: 1 }) }),
    reshape: ({ collectionJob }) => data(shape.endedJob(collectionJob)),
  },

  // --- clients (administration) ---
  {
    method: 'GET',
    path: '/api/v2/clients',
    edition: 'enterprise',
    context: 'clients',
    operation: 'ListClients',
    variables: (req) => page('clients', req),
    reshape: ({ clients }) => ({ body: shape.envelope(clients, clients.clients.map(shape.client)) }),
  },
  {
    method: 'POST',
    path: '/api/v2/clients',
    edition: 'enterprise',
    context: 'clients',
    operation: 'CreateClient',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('clients', body);
      const name = optString('clients', b, 'name');
      const type = optString('clients', b, 'type');
      if (!name) throw badRequest('clients', 'name is required.');
      if (!type) throw badRequest('clients', 'type is required (collector_ad, collector_azure or collector_open).');
      return { input: { name, type, domainController: optString('clients', b, 'domain_controller') } };
    },
    reshape: ({ createClient }) => data(shape.client(createClient)),
  },
  // 7
  {
    method: 'GET',
    path: '/api/v2/clients/:client_id',
    edition: 'enterprise',
    context: 'clients',
    operation: 'GetClient',
    variables: (req) => ({ id: req.params.client_id, ...hydrate('clients', req) }),
    reshape: ({ client }) => data(shape.client(client)),
  },
  {
    method: 'PUT',
    path: '/api/v2/clients/:client_id',
    edition: 'enterprise',
    context: 'clients',
    operation: 'UpdateClient',
    body: 'json',
    variables: (req) => {
      const b = bodyObject('clients', req.body);
      return {
        id: req.params.client_id,
        input: { name: optString('clients', b, 'name'), domainController: optString('clients', b, 'domain_controller') },
      };
    },
    reshape: ({ updateClient }) => data(shape.client(updateClient)),
  },
  {
    method: 'DELETE',
    path: '/api/v2/clients/:client_id',
    edition: 'enterprise',
    context: 'clients',
    operation: 'DeleteClient',
    variables: (req) => ({ id: req.params.client_id }),
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'PUT',
    path: '/api/v2/clients/:client_id/token',
    edition: 'enterprise',
    context: 'clients',
    operation: 'RegenerateClientToken',
    variables: (req) => ({ id: req.params.client_id }),
    reshape: ({ regenerateClientToken }) => data(token(regenerateClientToken)),
  },
  {
    method: 'POST',
    path: '/api/v2/clients/:client_id/tasks',
    edition: 'enterprise',
    context: 'clients',
    operation: 'CreateTask',
    body: 'json',
    variables: (req) => ({ clientId: req.params.client_id, input: collectionInput('clients', bodyObject('clients', req.body, true)) }),
    reshape: ({ createTask }) => data(shape.endedJob(createTask)),
  },
  {
    method: 'GET',
    path: '/api/v2/clients/:client_id/jobs',
    edition: 'enterprise',
    context: 'clients',
    operation: 'ClientJobs',
    variables: (req) => ({ id: req.params.client_id, ...page('clients', req) }),
    reshape: ({ client }) => ({ body: shape.envelope(client.jobs, client.jobs.jobs.map(shape.endedJob)) }),
  },

  // --- scheduled collection events ---
  // 16
  {
    method: 'GET',
    path: '/api/v2/events',
    edition: 'enterprise',
    context: 'events',
    operation: 'ListEvents',
    variables: (req) => ({
      ...page('events', req),
      sortBy: many('events', 'sort_by', req.query.sort_by),
      filters: eventFilters(req),
      ...hydrate('events', req),
    }),
    reshape: ({ events }) => ({ body: shape.envelope(events, events.events.map(shape.event)) }),
  },
  // 17
  {
    method: 'POST',
    path: '/api/v2/events',
    edition: 'enterprise',
    context: 'events',
    operation: 'CreateEvent',
    body: 'json',
    variables: (req) => {
      const b = bodyObject('events', req.body);
      const clientId = optString('events', b, 'client_id');
      const rrule = optString('events', b, 'rrule');
      if (!clientId) throw badRequest('events', 'client_id is required: the UUID of a client.');
      if (rrule === null) throw badRequest('events', 'rrule is required: a DTSTART line and an RRULE line.');
      return { input: { clientId, rrule, ...collectionInput('events', b) }, ...hydrate('events', req) };
    },
    reshape: ({ createEvent }) => data(shape.event(createEvent)),
  },
  {
    method: 'GET',
    path: '/api/v2/events/:event_id',
    edition: 'enterprise',
    context: 'events',
    operation: 'GetEvent',
    variables: (req) => ({ id: int('events', 'event_id', req.params.event_id, { min: 1 }), ...hydrate('events', req) }),
    reshape: ({ event }) => data(shape.event(event)),
  },
  {
    method: 'DELETE',
    path: '/api/v2/events/:event_id',
    edition: 'enterprise',
    context: 'events',
    operation: 'DeleteEvent',
    variables: (req) => ({ id: int('events', 'event_id', req.params.event_id, { min: 1 }) }),
    reshape: () => ({ status: 204 }),
  },

  // --- collector releases (both editions) ---
  {
    method: 'GET',
    path: '/api/v2/collectors/:collector_type',
    edition: 'both',
    context: 'collectors',
    operation: 'CollectorManifest',
    variables: (req) => ({ type: req.params.collector_type }),
    reshape: ({ collectorManifest: m }) => data({ latest: m.latest ?? '', versions: m.versions }),
  },
  // 15
  {
    method: 'GET',
    path: '/api/v2/collectors/:collector_type/:release_tag/checksum',
    edition: 'both',
    context: 'collectors',
    operation: 'CollectorChecksum',
    variables: (req) => ({ type: req.params.collector_type, releaseTag: req.params.release_tag }),
    reshape: ({ collectorChecksum: c }) => ({
      raw: { data: Buffer.from(c.content, 'utf8'), contentType: 'application/octet-stream' },
      headers: { 'Content-Disposition': `attachment; filename="${c.fileName}"` },
    }),
  },
];
