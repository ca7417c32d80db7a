import type { Queryable } from '../../pool.js';
import { COLUMNS, FROM, type JobModel } from './jobs-store.js';

/**
 * Collection jobs across clients (BloodHound's /jobs, /jobs/finished, /clients/{id}/completed-jobs): newest first,
 * optionally one client's, optionally only finished ones (complete, canceled, timed out, failed, partially complete).
 * Columns and joins are the jobs store's, so a job reads the same everywhere.
 */
const LIST = /* SQL */ `-- jobLists.list
select ${COLUMNS}, count(*) over ()::int as total from ${FROM}
where j.deleted_at is null
  and ($1::uuid is null or j.client_id = $1::uuid)
  and (not $2::boolean or j.status in (2, 3, 4, 5, 8))
order by j.id desc offset $3 limit $4`;

export function createJobListsStore(db: Queryable) {
  return {
    async list(p: {
      clientId: string | null;
      finished: boolean;
      skip: number;
      limit: number;
    }): Promise<{ total: number; jobs: JobModel[] }> {
      const rows = await db.query<JobModel & { total: number }>(LIST, [p.clientId, p.finished, p.skip, p.limit]);
      return { total: rows[0]?.total ?? 0, jobs: rows.map(({ total: _, ...j }) => j) };
    },
  };
}

export type JobListsStore = ReturnType<typeof createJobListsStore>;
