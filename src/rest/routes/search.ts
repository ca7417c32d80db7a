import { z } from 'zod';
import { query } from '../params.js';
import { data, route } from '../route.js';

/**
 * Where an analyst starts: search, the domains and tenants present, the graph's kinds, version and
 * features, in BloodHound's envelopes.
 */

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
    // BloodHound answers `{data: [SearchResult]}`; count, skip, limit and kinds are ours, for paging past the first page.
    reshape: ({ search }) => ({
      body: {
        count: search.totalCount,
        skip: search.skip,
        limit: search.limit,
        data: search.nodes.map((n) => {
          const p = n.properties as Record<string, unknown>;
          return {
            objectid: n.objectId,
            type: n.label,
            name: n.name,
            distinguishedname: typeof p.distinguishedname === 'string' ? p.distinguishedname : '',
            system_tags: typeof p.system_tags === 'string' ? p.system_tags : '',
            kinds: n.kinds,
          };
        }),
      },
    }),
  }),
  // The explore page's search: `query`, `type=fuzzy` (contains) or `exact` (prefix); the matches as Graph nodes.
  // The explore page's search: `query`, `type=fuzzy` (contains) or `exact` (prefix); BloodHound answers the matches
  // as its flat graph map: styled nodes keyed by node id, under `data`.
  route('GET', '/api/v2/graph-search', 'graph-search', 'GraphSearchNodes', {
    input: {
      query: z.object({
        query: z.string({ error: 'is required.' }),
        type: z.enum(['fuzzy', 'exact']).default('fuzzy'),
        limit: query.int(),
      }),
    },
    variables: ({ query }) => ({ query: query.query, mode: query.type === 'fuzzy' ? 'CONTAINS' : 'PREFIX', limit: query.limit ?? 100 }),
    reshape: ({ search }) => data(search.graph.bloodhound),
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
