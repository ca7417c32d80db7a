import type { Queryable } from '../../pool.js';

export interface JobLogLine {
  at: Date;
  text: string;
}

/**
 * What a collector reported of one job, as timestamped lines: when it was scheduled, started and ended (with its
 * status message), each domain's result and each error it sent. Null when there is no such job.
 */
const SQL = /* SQL */ `-- jobLog.lines
with job as (select * from collection_jobs where id = $1 and deleted_at is null)
select at, text from (
  select execution_time as at, 0 as o, 'scheduled' || case when event_title <> '' then ': ' || event_title else '' end as text from job
  union all
  select start_time, 1, 'started' from job where start_time is not null
  union all
  select r.created_at, 2, r.domain_name || ': ' || case when r.success then 'collected' else 'failed' end
    || case when r.message <> '' then ' (' || r.message || ')' else '' end
    || format(' users %s, groups %s, computers %s, gpos %s, ous %s, containers %s, deleted %s',
         r.user_count, r.group_count, r.computer_count, r.gpo_count, r.ou_count, r.container_count, r.deleted_count)
  from collection_domain_results r join job on r.job_id = job.id
  union all
  select e.created_at, 3, 'error: ' || e.task_error || case when e.additional <> '{}'::jsonb then ' ' || e.additional::text else '' end
  from client_errors e join job on e.job_id = job.id
  union all
  select end_time, 4, 'ended' || case when status_message <> '' then ': ' || status_message else '' end from job where end_time is not null
) l order by at, o`;

export function createJobLogStore(db: Queryable) {
  return {
    async exists(jobId: number): Promise<boolean> {
      return (await db.query(`-- jobLog.exists\nselect 1 from collection_jobs where id = $1 and deleted_at is null`, [jobId])).length > 0;
    },
    lines: (jobId: number) => db.query<JobLogLine>(SQL, [jobId]),
  };
}

export type JobLogStore = ReturnType<typeof createJobLogStore>;
