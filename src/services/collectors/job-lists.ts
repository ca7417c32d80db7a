import type { JobListsStore } from '../../db/stores/collectors/job-lists-store.js';
import { paging } from '../common/paging.js';
import { requireUuid } from '../common/validate.js';

/** Collection jobs of every client or one, for the admin's job history. */
export function createJobListsService(deps: { store: JobListsStore }) {
  return {
    async list(input: { clientId?: string | null; finished?: boolean | null; skip?: number | null; limit?: number | null }) {
      const page = paging('jobs', input, { limit: 100, max: 1000 });
      const clientId = input.clientId == null ? null : requireUuid('jobs', 'client_id', input.clientId);
      const { total, jobs } = await deps.store.list({ clientId, finished: !!input.finished, ...page });
      return { totalCount: total, skip: page.skip, limit: page.limit, jobs };
    },
  };
}

export type JobListsService = ReturnType<typeof createJobListsService>;
