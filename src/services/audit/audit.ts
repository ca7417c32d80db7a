import crypto from 'node:crypto';
import type { Session } from '../../auth/session.js';
import type { Database, Queryable } from '../../db/pool.js';
import type { AuditEntry, AuditLogModel, AuditStatus, AuditStore } from '../../db/stores/audit/audit-store.js';
import type { UsersStore } from '../../db/stores/identity/users-store.js';
import { runInUnit } from '../../db/unit-of-work.js';
import { badRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { paging, sortKeys } from '../common/paging.js';
import { buildFilter, type ColumnFilter, type FilterColumn } from '../identity/column-filters.js';
import { redact } from './redact.js';

const CONTEXT = 'audit';
export const DEFAULT_RETENTION_DAYS = 365;
const MAX_RETENTION_DAYS = 36_500;
const PRUNE_EVERY_MS = 3600_000;

/** BloodHound's filterable and sortable columns of GET /api/v2/audit, and ours (source_ip_address, commit_id). */
export const AUDIT_FILTERS: Record<string, FilterColumn> = {
  id: { sql: 'id', type: 'int', predicates: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] },
  actor_id: { sql: 'actor_id', type: 'text', predicates: ['eq', 'neq'] },
  actor_name: { sql: 'actor_name', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  actor_email: { sql: 'actor_email', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  action: { sql: 'action', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  request_id: { sql: 'request_id', type: 'text', predicates: ['eq', 'neq'] },
  source: { sql: 'source', type: 'text', predicates: ['eq', 'neq'] },
  source_ip_address: { sql: 'source_ip_address', type: 'text', predicates: ['eq', 'neq'] },
  status: { sql: 'status', type: 'text', predicates: ['eq', 'neq'] },
  commit_id: { sql: 'commit_id::text', type: 'text', predicates: ['eq', 'neq'] },
  created_at: { sql: 'created_at', type: 'time', predicates: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] },
};
const SORTABLE = ['id', 'actor_id', 'actor_name', 'actor_email', 'action', 'request_id', 'created_at', 'source', 'status'] as const;
const STATUSES = new Set(['intent', 'success', 'failure']);

/** Where a piece of work came from, as the GraphQL context knows it. */
export interface AuditOrigin {
  session: Session | null;
  requestId: string;
  clientIp: string;
}

/** What a caller describes of its work: the action, the fields given (secrets are removed here). */
export interface AuditWhat {
  action: string;
  fields?: Record<string, unknown>;
  /** The actor when the origin has no session yet (a sign-in names the user it signed in). */
  actor?: { id: string; name: string; email?: string | null };
  source?: string;
}

export interface AuditQuery {
  filters: readonly ColumnFilter[];
  sortBy?: readonly string[] | null;
  skip?: number | null;
  limit?: number | null;
  before?: Date | null;
  after?: Date | null;
}

export interface AuditDeps {
  store: AuditStore;
  users: UsersStore;
  /** The raw database (not the unit-aware one): units of work begin here. */
  db: Database;
  clock: () => Date;
  log: Logger;
}

/**
 * The audit log. A change and its row are one unit of work (`change`): the row is written in the change's
 * transaction, so neither exists without the other; a failed or refused attempt rolls back and is written on its
 * own. Work that cannot be one transaction (streams, long jobs, or attempts whose failure must persist, such as
 * throttled sign-ins) is recorded as BloodHound does it: an intent row first, then its outcome (`attempt`), both
 * under one commit id.
 */
export function createAuditService(deps: AuditDeps) {
  const { store } = deps;
  let lastPrune = 0;
  // Requests whose work wrote a row, so the HTTP layer does not write another for its refusal (audit-refusals.ts).
  const recorded = new Set<string>();
  const mark = (requestId: string) => {
    if (!requestId) return;
    if (recorded.size >= 10_000) recorded.delete(recorded.values().next().value!);
    recorded.add(requestId);
  };

  async function entry(
    origin: AuditOrigin,
    what: AuditWhat,
    status: AuditStatus,
    commitId: string,
    extra?: Record<string, unknown>,
  ): Promise<AuditEntry> {
    mark(origin.requestId);
    const s = origin.session;
    let actor = { id: '', name: '', email: '', kind: 'anonymous' as AuditEntry['actorKind'] };
    if (s?.kind === 'user') {
      const email = (await deps.users.get(s.userId).catch(() => undefined))?.emailAddress ?? '';
      actor = { id: s.userId, name: s.principalName, email, kind: 'user' };
    } else if (s?.kind === 'client') actor = { id: s.clientId, name: s.clientName, email: '', kind: 'client' };
    else if (what.actor) actor = { id: what.actor.id, name: what.actor.name, email: what.actor.email ?? '', kind: 'user' };
    return {
      actorId: actor.id,
      actorName: actor.name,
      actorEmail: actor.email,
      actorKind: actor.kind,
      action: what.action,
      fields: { ...(redact(what.fields ?? {}) as Record<string, unknown>), ...extra },
      requestId: origin.requestId,
      sourceIpAddress: origin.clientIp,
      source: what.source ?? 'api',
      commitId,
      status,
    };
  }

  const failureOf = (err: unknown) => ({
    error: (err as { message?: string })?.message?.slice(0, 400) ?? 'failed',
    ...((err as { code?: string })?.code ? { code: (err as { code: string }).code } : {}),
  });

  /** Writes a row on its own; never fails the work it records (a lost row is logged). */
  async function write(e: AuditEntry, q?: Queryable): Promise<void> {
    await store.insert(e, deps.clock(), q).catch((err) => deps.log.error({ err, action: e.action }, 'audit row not written'));
    void prune();
  }

  async function retentionDays(): Promise<number> {
    return (await store.retentionDays()) ?? DEFAULT_RETENTION_DAYS;
  }

  /** Drops rows past the retention period, at most once an hour per process. */
  async function prune(): Promise<void> {
    const now = deps.clock().getTime();
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    try {
      const removed = await store.prune(new Date(now - (await retentionDays()) * 86_400_000));
      if (removed) deps.log.info({ removed }, 'audit rows past retention removed');
    } catch (err) {
      deps.log.warn({ err }, 'audit pruning failed');
    }
  }

  return {
    /** A change and its audit row in one transaction; a failure is rolled back and recorded on its own. */
    async change<T>(origin: AuditOrigin, what: AuditWhat, fn: () => Promise<T>): Promise<T> {
      const commitId = crypto.randomUUID();
      // Described before the transaction begins, so it holds the connection no longer than the change needs.
      const success = await entry(origin, what, 'success', commitId);
      try {
        return await runInUnit(deps.db, fn, async (q) => {
          await store.insert(success, deps.clock(), q);
        });
      } catch (err) {
        await write(await entry(origin, what, 'failure', commitId, failureOf(err)));
        throw err;
      } finally {
        void prune();
      }
    },

    /** Work that cannot be one transaction: an intent row first, then its outcome. */
    async attempt<T>(origin: AuditOrigin, what: AuditWhat, fn: () => Promise<T>): Promise<T> {
      const commitId = crypto.randomUUID();
      await write(await entry(origin, what, 'intent', commitId));
      try {
        const out = await fn();
        await write(await entry(origin, what, 'success', commitId));
        return out;
      } catch (err) {
        await write(await entry(origin, what, 'failure', commitId, failureOf(err)));
        throw err;
      }
    },

    /** A row for something already decided (a sign-in), on `q` when it belongs to that transaction. */
    async record(origin: AuditOrigin, what: AuditWhat, status: AuditStatus, q?: Queryable, err?: unknown): Promise<void> {
      const e = await entry(origin, what, status, crypto.randomUUID(), err === undefined ? undefined : failureOf(err));
      if (q) await store.insert(e, deps.clock(), q);
      else await write(e);
    },

    /** GET /api/v2/audit: BloodHound's filters, sort_by, paging and its before/after window (default: the last year). */
    async list(input: AuditQuery): Promise<{ logs: AuditLogModel[]; count: number; skip: number; limit: number }> {
      const page = paging(CONTEXT, input, { limit: 1000, max: 10_000 });
      for (const f of input.filters)
        if (f.column === 'status' && !STATUSES.has(f.value)) throw badRequest(CONTEXT, 'status must be intent, success or failure.');
      const before = input.before ?? deps.clock();
      const after = input.after ?? new Date(before.getTime() - 365 * 86_400_000);
      if (after.getTime() > before.getTime()) throw badRequest(CONTEXT, 'after must not be later than before.');
      const { where, params } = buildFilter(CONTEXT, input.filters, AUDIT_FILTERS, 3);
      const keys = sortKeys(CONTEXT, input.sortBy, SORTABLE);
      const order = [...keys.map((k) => `${k.column}${k.descending ? ' desc' : ''}`), 'created_at desc', 'id desc'].join(', ');
      const cond = ['created_at < $1', 'created_at > $2', ...(where ? [where] : [])].join(' and ');
      const { rows, count } = await store.list(cond, order, [before, after, ...params], page.skip, page.limit);
      return { logs: rows, count, ...page };
    },

    retentionDays,

    /** Whether work of this request wrote a row (forgotten once asked: the request has ended). */
    takeRecorded(requestId: string): boolean {
      return recorded.delete(requestId);
    },

    async setRetentionDays(days: number, by: string): Promise<number> {
      if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)
        throw badRequest(CONTEXT, `retention must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}.`);
      await store.setRetentionDays(days, by);
      lastPrune = 0;
      await prune();
      return days;
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
