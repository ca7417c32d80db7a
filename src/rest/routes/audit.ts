import { z } from 'zod';
import { route } from '../route.js';
import { filtersFromQuery } from '../../services/identity/column-filters.js';
import { AUDIT_FILTERS } from '../../services/audit/audit.js';

/** A number for the service to check (NaN for text or a repeated parameter: its 400 names the parameter). */
const int = (v: string | string[] | undefined) =>
  v === undefined || v === '' ? null : typeof v === 'string' && /^-?\d{1,9}$/.test(v) ? Number(v) : NaN;
const one = (v: string | string[] | undefined) => (v === undefined || v === '' ? null : typeof v === 'string' ? v : '');
const list = <T>(v: T | T[] | undefined) => (v === undefined ? null : ([] as T[]).concat(v));

/** BloodHound's audit log: filters `col=op:value`, sort_by, skip (or offset) and limit, before and after. */
export const auditRoutes = [
  route('GET', '/api/v2/audit', 'audit', 'ListAuditLogs', {
    input: {
      query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    },
    variables: ({ query: q }) => ({
      filters: filtersFromQuery(q, AUDIT_FILTERS),
      sortBy: list(q.sort_by),
      skip: int(q.skip ?? q.offset),
      limit: int(q.limit),
      before: one(q.before),
      after: one(q.after),
    }),
    reshape: ({ auditLogs: a }) => ({
      body: {
        count: a.count,
        limit: a.limit,
        skip: a.skip,
        data: {
          logs: a.logs.map((l) => ({
            id: l.id,
            created_at: l.createdAt,
            actor_id: l.actorId,
            actor_name: l.actorName,
            actor_email: l.actorEmail,
            action: l.action,
            fields: l.fields,
            request_id: l.requestId,
            source_ip_address: l.sourceIpAddress,
            source: l.source,
            commit_id: l.commitId,
            status: l.status,
          })),
        },
      },
    }),
  }),
];
