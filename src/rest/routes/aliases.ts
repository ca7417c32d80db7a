import { z } from 'zod';
import { intText, query } from '../params.js';
import * as collectors from '../reshape/collectors.js';
import type { RestRoute, Result } from '../route.js';
import * as identity from '../reshape/identity.js';
import { data, route } from '../route.js';

/**
 * BloodHound's spellings of routes we declare under the API document's paths: the same declaration
 * (operation, schemas, reshape) served at a second path. Path parameters keep their names.
 */
const ALIASES: { method: RestRoute['method']; path: string; of: string }[] = [
  // The documented /saml/providers and BloodHound's current /sso-providers/saml follow the same rules.
  { method: 'POST', path: '/api/v2/sso-providers/saml', of: '/api/v2/saml/providers' },
  // BloodHound's client creates an ad-hoc collection job at /clients/{id}/jobs; ours is /clients/{id}/tasks.
  { method: 'POST', path: '/api/v2/clients/:client_id/jobs', of: '/api/v2/clients/:client_id/tasks' },
];

export function aliasRoutes(declared: readonly RestRoute[]): RestRoute[] {
  return ALIASES.flatMap((a) => {
    const originals = declared.filter((r) => r.method === a.method && r.path === a.of);
    if (!originals.length) throw new Error(`alias ${a.method} ${a.path}: no route ${a.of}`);
    return originals.map((r) => ({ ...r, path: a.path }));
  });
}

/** GET /api/v2/roles: every role with its permissions, in BloodHound's `{data: {roles}}`. */
type RoleResult = Result<'ListRoles'>['roles'][number];
const role = (r: RoleResult) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  permissions: r.permissions.map(identity.permission),
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
});

export const roleRoutes = [
  route('GET', '/api/v2/roles', 'roles', 'ListRoles', {
    reshape: ({ roles }) => data({ roles: roles.map(role) }),
  }),
  route('GET', '/api/v2/roles/:role_id', 'roles', 'GetRole', {
    input: { params: z.object({ role_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.role_id }),
    reshape: ({ role: r }) => data(role(r)),
  }),
  // BloodHound answers the upload content types as a plain list.
  route('GET', '/api/v2/file-upload/accepted-types', 'file-upload', 'AcceptedUploadTypes', {
    reshape: ({ acceptedUploadTypes }) => data(acceptedUploadTypes),
  }),
];

const jobsPage = z.object({ skip: query.int(), limit: query.int() });

/**
 * Collection job history: every job, finished ones, one client's finished ones (BloodHound's paths). BloodHound's
 * client reads them as ScheduledJobDisplay, the shape of a client's current_job (status_message, OU and domain
 * references), not the job-end shape.
 */
export const jobListRoutes = [
  route('GET', '/api/v2/jobs', 'jobs', 'ListCollectionJobs', {
    input: { query: jobsPage },
    variables: ({ query }) => ({ skip: query.skip, limit: query.limit }),
    reshape: ({ collectionJobs: l }) => ({ body: collectors.envelope(l, l.jobs.map(collectors.job)) }),
  }),
  route('GET', '/api/v2/jobs/finished', 'jobs', 'ListCollectionJobs', {
    input: { query: jobsPage },
    variables: ({ query }) => ({ finished: true, skip: query.skip, limit: query.limit }),
    reshape: ({ collectionJobs: l }) => ({ body: collectors.envelope(l, l.jobs.map(collectors.job)) }),
  }),
  route('GET', '/api/v2/clients/:client_id/completed-jobs', 'clients', 'ListCollectionJobs', {
    input: { params: z.object({ client_id: z.string() }), query: jobsPage },
    variables: ({ params, query }) => ({ clientId: params.client_id, finished: true, skip: query.skip, limit: query.limit }),
    reshape: ({ collectionJobs: l }) => ({ body: collectors.envelope(l, l.jobs.map(collectors.job)) }),
  }),
];
