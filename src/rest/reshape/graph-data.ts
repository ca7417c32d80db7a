import type { DataQualityQuery } from '../../generated/operations.js';
import type { RestResponse } from '../route.js';

/**
 * BloodHound's data quality history: a page in a time window ({count, limit, skip, start, end, data}); each row is
 * its stat model — the environment under `domain_sid` or `tenantid` (none for the platform aggregate), the counts,
 * run id and serial fields.
 */
export const qualityPage = (p: DataQualityQuery['dataQuality'], envKey: 'domain_sid' | 'tenantid' | null): RestResponse => ({
  body: {
    count: p.totalCount,
    limit: p.limit,
    skip: p.skip,
    start: p.start,
    end: p.end,
    data: p.stats.map((s) => ({
      ...(envKey ? { [envKey]: s.environment } : {}),
      ...(s.counts as Record<string, number>),
      run_id: s.runId,
      id: s.id,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
    })),
  },
});
