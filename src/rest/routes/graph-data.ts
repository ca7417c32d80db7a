import { z } from 'zod';
import { field, query } from '../params.js';
import { graphResponse, nodeList } from '../reshape/graph.js';
import { qualityPage } from '../reshape/graph-data.js';
import { GRAPH_DATA_RESPONSES as GD } from '../responses/graph-data.js';
import { data, noContent, route } from '../route.js';

const ints = (what: string) =>
  z
    .array(z.number().int(), { error: `must be an array of ${what}.` })
    .nullish()
    .transform((v) => v ?? null);

/** BloodHound's DatabaseWipe body. */
const clearBody = z.object({
  deleteCollectedGraphData: field.bool(),
  deleteSourceKinds: ints('source kind ids'),
  deleteRelationships: field.strings(),
  deleteFileIngestHistory: field.bool(),
  deleteDataQualityHistory: field.bool(),
  deleteAssetGroupSelectors: ints('asset group ids'),
});

/** start / end as RFC 3339; sort_by, skip, limit as BloodHound's data quality endpoints take them. */
const time = () =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return null;
      const d = new Date(v);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: `is not a valid RFC-3339 time: ${JSON.stringify(v.slice(0, 40))}.` });
        return z.NEVER;
      }
      return d.toISOString();
    });
const qualityQuery = z.object({ start: time(), end: time(), sort_by: query.string(), skip: query.int(0), limit: query.int(1) });
const qualityVars = (q: z.output<typeof qualityQuery>) => ({
  start: q.start,
  end: q.end,
  sortBy: q.sort_by ?? null,
  skip: q.skip,
  limit: q.limit,
});

const edgeQuery = z.object({
  source_node: z
    .string({ error: 'is required.' })
    .regex(/^\d{1,15}$/, 'must be a node id.')
    .transform(Number),
  target_node: z
    .string({ error: 'is required.' })
    .regex(/^\d{1,15}$/, 'must be a node id.')
    .transform(Number),
  edge_type: z.string({ error: 'is required.' }),
});
const edgeVars = ({ query: q }: { query: z.output<typeof edgeQuery> }) => ({
  sourceNode: q.source_node,
  targetNode: q.target_node,
  edgeType: q.edge_type,
});

export const graphDataRoutes = [
  // BloodHound answers 204; what was deleted is in the GraphQL result (and the audit log).
  route('POST', '/api/v2/clear-database', 'clear-database', 'ClearDatabase', {
    response: { status: 204 },
    body: 'json',
    input: { body: clearBody },
    variables: ({ body }) => ({ input: body }),
    reshape: () => noContent(),
  }),
  route('GET', '/api/v2/graphs/source-kinds', 'graphs', 'SourceKinds', {
    response: { schema: GD.sourceKinds },
    reshape: ({ sourceKinds }) => data({ kinds: sourceKinds }),
  }),
  route('GET', '/api/v2/completeness', 'completeness', 'Completeness', {
    response: { schema: GD.completeness },
    reshape: ({ completeness: c }) =>
      data({ SessionCompleteness: c.sessionCompleteness, LocalGroupCompleteness: c.localGroupCompleteness }),
  }),
  route('GET', '/api/v2/ad-domains/:domain_id/data-quality-stats', 'data-quality', 'DataQuality', {
    response: { schema: GD.adQuality },
    input: { params: z.object({ domain_id: z.string() }), query: qualityQuery },
    variables: ({ params, query: q }) => ({ platform: 'AD' as const, environment: params.domain_id.toUpperCase(), ...qualityVars(q) }),
    reshape: ({ dataQuality }) => qualityPage(dataQuality, 'domain_sid'),
  }),
  route('GET', '/api/v2/azure-tenants/:tenant_id/data-quality-stats', 'data-quality', 'DataQuality', {
    response: { schema: GD.azureQuality },
    input: { params: z.object({ tenant_id: z.string() }), query: qualityQuery },
    variables: ({ params, query: q }) => ({ platform: 'AZURE' as const, environment: params.tenant_id.toUpperCase(), ...qualityVars(q) }),
    reshape: ({ dataQuality }) => qualityPage(dataQuality, 'tenantid'),
  }),
  route('GET', '/api/v2/platform/:platform_id/data-quality-stats', 'data-quality', 'DataQuality', {
    response: { schema: GD.platformQuality },
    input: {
      params: z.object({
        platform_id: z.enum(['ad', 'azure'], { error: (i) => `invalid platform id specified in url: ${String(i.input)}` }),
      }),
      query: qualityQuery,
    },
    variables: ({ params, query: q }) => ({
      platform: params.platform_id === 'ad' ? ('AD' as const) : ('AZURE' as const),
      environment: null,
      ...qualityVars(q),
    }),
    reshape: ({ dataQuality }) => qualityPage(dataQuality, null),
  }),
  route('GET', '/api/v2/graphs/edge-composition', 'edge-composition', 'EdgeComposition', {
    input: { query: edgeQuery },
    variables: edgeVars,
    reshape: ({ edgeComposition }) => data(graphResponse(edgeComposition)),
  }),
  route('GET', '/api/v2/graphs/relay-targets', 'relay-targets', 'RelayTargets', {
    input: { query: edgeQuery },
    variables: edgeVars,
    reshape: ({ relayTargets }) => data(graphResponse(relayTargets)),
  }),
  route('GET', '/api/v2/graphs/acl-inheritance', 'acl-inheritance', 'AclInheritance', {
    input: { query: edgeQuery },
    variables: edgeVars,
    reshape: ({ aclInheritance }) => data(graphResponse(aclInheritance)),
  }),
  route('GET', '/api/v2/domains/:object_id/adcs-escalations', 'domains', 'AdcsEscalations', {
    input: { params: z.object({ object_id: z.string() }), query: z.object({ skip: query.int(0), limit: query.int(0) }) },
    variables: ({ params, query: q }) => ({ objectId: params.object_id, skip: q.skip, limit: q.limit }),
    reshape: ({ adcsEscalations }) => nodeList(adcsEscalations),
  }),
];
