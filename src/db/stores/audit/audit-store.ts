import type { Queryable } from '../../pool.js';

export type AuditStatus = 'intent' | 'success' | 'failure';
export type ActorKind = 'user' | 'client' | 'anonymous';

/** One row as it is written. */
export interface AuditEntry {
  actorId: string;
  actorName: string;
  actorEmail: string;
  actorKind: ActorKind;
  action: string;
  fields: Record<string, unknown>;
  requestId: string;
  sourceIpAddress: string;
  source: string;
  commitId: string;
  status: AuditStatus;
}

export interface AuditLogModel extends AuditEntry {
  id: number;
  createdAt: Date;
}

const INSERT = /* SQL */ `-- audit.insert
insert into audit_logs (created_at, actor_id, actor_name, actor_email, actor_kind, action, fields, request_id,
  source_ip_address, source, commit_id, status)
values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)`;
const COLUMNS = /* SQL */ `id, created_at as "createdAt", actor_id as "actorId", actor_name as "actorName",
  actor_email as "actorEmail", actor_kind as "actorKind", action, fields, request_id as "requestId",
  source_ip_address as "sourceIpAddress", source, commit_id as "commitId", status`;
const PRUNE = /* SQL */ `-- audit.prune
delete from audit_logs where created_at < $1`;
const GET_RETENTION = /* SQL */ `-- audit.retention
select value from app_parameters where key = 'audit.retention_days'`;
const SET_RETENTION = /* SQL */ `-- audit.setRetention
insert into app_parameters (key, value, updated_at, updated_by) values ('audit.retention_days', $1::jsonb, now(), $2)
on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`;

export function createAuditStore(db: Queryable) {
  return {
    /** Writes a row on `q` (the change's transaction) or on the store's own connection. */
    async insert(e: AuditEntry, at: Date, q: Queryable = db): Promise<void> {
      await q.execute(INSERT, [
        at,
        e.actorId,
        e.actorName,
        e.actorEmail,
        e.actorKind,
        e.action,
        JSON.stringify(e.fields),
        e.requestId,
        e.sourceIpAddress,
        e.source,
        e.commitId,
        e.status,
      ]);
    },
    /**
     * A page of rows and the count of all that match. `where` and `order` are built by the caller from fixed column
     * names only (audit.ts); values travel as parameters.
     */
    async list(
      where: string,
      order: string,
      params: unknown[],
      skip: number,
      limit: number,
    ): Promise<{ rows: AuditLogModel[]; count: number }> {
      const n = params.length;
      const rows = await db.query<AuditLogModel & { total: number }>(
        `-- audit.list\nselect ${COLUMNS}, count(*) over ()::int as total from audit_logs where ${where} order by ${order} offset $${n + 1} limit $${n + 2}`,
        [...params, skip, limit],
      );
      const count =
        rows[0]?.total ??
        (skip > 0
          ? (await db.query<{ n: number }>(`-- audit.count\nselect count(*)::int as n from audit_logs where ${where}`, params))[0]!.n
          : 0);
      return { rows: rows.map(({ total: _total, ...r }) => r), count };
    },
    async prune(before: Date): Promise<number> {
      return db.execute(PRUNE, [before]);
    },
    async retentionDays(): Promise<number | undefined> {
      const v = (await db.query<{ value: unknown }>(GET_RETENTION))[0]?.value;
      return typeof v === 'object' && v !== null && typeof (v as { days?: unknown }).days === 'number'
        ? (v as { days: number }).days
        : undefined;
    },
    async setRetentionDays(days: number, by: string): Promise<void> {
      await db.execute(SET_RETENTION, [JSON.stringify({ days }), by]);
    },
  };
}

export type AuditStore = ReturnType<typeof createAuditStore>;
