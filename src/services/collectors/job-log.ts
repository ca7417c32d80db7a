import type { JobLogStore } from '../../db/stores/collectors/job-log-store.js';
import { notFound } from '../../errors.js';

/** A collection job's log (BloodHound's GET /jobs/{id}/log): one line per thing the collector reported, in time order. */
export function createJobLogs(store: JobLogStore) {
  return {
    async log(jobId: number): Promise<string> {
      if (!(await store.exists(jobId))) throw notFound('jobs', `No collection job has id ${jobId}.`);
      return (await store.lines(jobId)).map((l) => `${l.at.toISOString()} ${l.text}`).join('\n');
    },
  };
}

export type JobLogs = ReturnType<typeof createJobLogs>;
