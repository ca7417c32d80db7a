import { z } from 'zod';
import { query } from '../params.js';
import { data, route } from '../route.js';

/**
 * Where an analyst starts (issue 12): search, the domains and tenants present, the graph's kinds, version and
 * features, in BloodHound's envelopes.
 */

type Entry = { objectId: string; name: string; label: string; kinds: string[] };

const searchQuery = z.object({
  q: z.string({ error: 'is required.' }),
  type: query.many(),
  skip: query.int(),
  limit: query.int(),
  mode: z.enum(['prefix', 'contains']).default('prefix'),
});

export const searchRoutes = [
  // BloodHound's search box: `q`, repeatable `type` (node kinds), skip/limit; entries as its SearchResult items.
  route('GET', '/api/v2/search', 'search', 'SearchNodes', {
    input: { query: searchQuery },
    variables: ({ query }) => ({
      query: query.q,
      kinds: query.type.length ? query.type : null,
      mode: query.mode === 'contains' ? 'CONTAINS' : 'PREFIX',
      skip: query.skip,
      limit: query.limit,
    }),
    reshape: ({ search }) => ({
      body: {
        count: search.totalCount,
        skip: search.skip,
        limit: search.limit,
        data: search.nodes.map((n: Entry) => ({ objectid: n.objectId, name: n.name, type: n.label, kinds: n.kinds })),
      },
    }),
  }),
  // The explore page's search: `query`, `type=fuzzy` (contains) or `exact` (prefix); the matches as Graph nodes.
  route('GET', '/api/v2/graph-search', 'graph-search', 'SearchNodes', {
    input: {
      query: z.object({
        query: z.string({ error: 'is required.' }),
        type: z.enum(['fuzzy', 'exact']).default('fuzzy'),
        limit: query.int(),
      }),
    },
    variables: ({ query }) => ({ query: query.query, mode: query.type === 'fuzzy' ? 'CONTAINS' : 'PREFIX', limit: query.limit ?? 100 }),
    reshape: ({ search }) =>
      data({
        nodes: Object.fromEntries(
          search.nodes.map((n: Entry) => [n.objectId, { label: n.name, kind: n.label, kinds: n.kinds, objectId: n.objectId }]),
        ),
        edges: [],
      }),
  }),
  route('GET', '/api/v2/available-domains', 'available-domains', 'AvailableDomains', {
    reshape: ({ availableDomains }) =>
      data(
        availableDomains.map((d) => ({
          type: d.type === 'AZURE' ? 'azure' : 'active-directory',
          name: d.name,
          id: d.objectId,
          collected: d.collected,
        })),
      ),
  }),
  route('GET', '/api/v2/graphs/kinds', 'kinds', 'GraphKinds', {
    input: { query: z.object({ type: z.enum(['node', 'edge']).optional() }) },
    variables: ({ query }) => ({ category: query.type === 'node' ? 'NODE' : query.type === 'edge' ? 'EDGE' : null }),
    reshape: ({ graphKinds }) => data({ kinds: graphKinds }),
  }),
  route('GET', '/api/version', 'version', 'ServiceInfo', {
    reshape: ({ serviceInfo }) =>
      data({ API: { current_version: serviceInfo.apiVersion, deprecated_version: 'v1' }, server_version: `v${serviceInfo.serverVersion}` }),
  }),
  route('GET', '/api/v2/features', 'features', 'ServiceInfo', {
    reshape: ({ serviceInfo }) =>
      data(
        serviceInfo.features.map((f) => ({
          id: f.id,
          key: f.key,
          name: f.name,
          description: f.description,
          enabled: f.enabled,
          user_updatable: f.userUpdatable,
        })),
      ),
  }),
];
