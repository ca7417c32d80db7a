import { z } from 'zod';
import { dataOf, time } from './envelope.js';

/** One data quality row: the environment (AD or Azure; none for a platform aggregate), its counts, the run. */
const qualityRow = (envKey: 'domain_sid' | 'tenantid' | null) =>
  z
    .strictObject({
      ...(envKey ? { [envKey]: z.string() } : {}),
      run_id: z.string(),
      id: z.number().int(),
      created_at: time,
      updated_at: time,
    })
    .catchall(z.number().describe('a count (users, groups, computers, sessions, acls, relationships, completeness …)'));

const qualityPage = (envKey: 'domain_sid' | 'tenantid' | null) =>
  z.strictObject({
    count: z.number().int(),
    limit: z.number().int(),
    skip: z.number().int(),
    start: time,
    end: time,
    data: z.array(qualityRow(envKey)),
  });

export const GRAPH_DATA_RESPONSES = {
  sourceKinds: dataOf(z.strictObject({ kinds: z.array(z.strictObject({ id: z.number().int(), name: z.string() })) })),
  completeness: dataOf(z.strictObject({ SessionCompleteness: z.number(), LocalGroupCompleteness: z.number() })),
  adQuality: qualityPage('domain_sid'),
  azureQuality: qualityPage('tenantid'),
  platformQuality: qualityPage(null),
};
