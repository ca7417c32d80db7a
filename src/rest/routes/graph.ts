import { z } from 'zod';
import { query } from '../params.js';
import * as shape from '../reshape/graph.js';
import { data, route } from '../route.js';
import { entityList, objectParams } from './entity-list.js';

const pathQuery = {
  start_node: z.string().default(''),
  end_node: z.string().default(''),
};

export const graphRoutes = [
  // 1 (deprecated): every relationship kind, as BloodHound's /pathfinding.
  route('GET', '/api/v2/pathfinding', 'pathfinding', 'ShortestPaths', {
    deprecatedBy: '/api/v2/graphs/shortest-path',
    input: { query: z.object(pathQuery) },
    variables: ({ query }) => ({ start: query.start_node, end: query.end_node, allKinds: true }),
    reshape: ({ shortestPaths }) => shape.paths(shortestPaths),
  }),
  // BloodHound's shape: {data: {nodes, edges}}, 404 when there is no path.
  route('GET', '/api/v2/graphs/shortest-path', 'pathfinding', 'ShortestPathGraph', {
    input: { query: z.object({ ...pathQuery, relationship_kinds: query.string(), only_traversable: query.bool(false) }) },
    variables: ({ query }) => ({
      start: query.start_node,
      end: query.end_node,
      relationshipKinds: query.relationship_kinds ?? null,
      onlyTraversable: query.only_traversable,
    }),
    reshape: ({ shortestPaths }) => shape.pathGraph(shortestPaths),
  }),
  // 6: `count` is the API document's name; BloodHound's clients send `counts`. One operation, counts on demand.
  route('GET', '/api/v2/users/:object_id', 'users', 'GetUserEntity', {
    input: { params: objectParams, query: z.object({ count: query.optBool(), counts: query.optBool() }) },
    variables: ({ params, query }) => ({ objectId: params.object_id, counts: query.count ?? query.counts ?? true }),
    reshape: ({ userEntity: { node, counts } }) => data({ kinds: node.kinds, props: node.properties, ...counts }),
  }),
  // 8
  ...entityList(
    '/api/v2/groups/:object_id/ps-remote-rights',
    'groups',
    { op: 'ListGroupPSRemoteRights', page: (r) => r.groupPSRemoteRights },
    { op: 'GraphGroupPSRemoteRights', graph: (r) => r.groupPSRemoteRightsGraph.bloodhound },
  ),
  // 11
  ...entityList(
    '/api/v2/domains/:object_id/foreign-gpo-controllers',
    'domains',
    { op: 'ListDomainForeignGPOControllers', page: (r) => r.domainForeignGPOControllers },
    { op: 'GraphDomainForeignGPOControllers', graph: (r) => r.domainForeignGPOControllersGraph.bloodhound },
  ),
];
