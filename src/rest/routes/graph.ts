import { z } from 'zod';
import { query } from '../params.js';
import * as shape from '../reshape/graph.js';
import { data, route, type OperationName, type Result, type Variables } from '../route.js';

const objectParams = z.object({ object_id: z.string() });

/** skip, limit, sort_by and type of the entity list endpoints (8, 11). */
const listQuery = z.object({
  skip: query.int(),
  limit: query.int(),
  sort_by: query.many(),
  type: z.enum(['list', 'graph'], { error: 'must be "list" or "graph".' }).default('list'),
});

/**
 * An entity list endpoint: `type=list` (default) runs the list operation, `type=graph` the graph one. The route
 * picks the operation per request, so it is declared twice and chosen by `when`.
 */
function entityList<L extends OperationName, G extends OperationName>(
  path: string,
  context: string,
  listOp: L,
  listOf: (r: Result<L>) => Parameters<typeof shape.nodeList>[0],
  graphOp: G,
) {
  return [
    route('GET', path, context, listOp, {
      input: { params: objectParams, query: listQuery },
      when: ({ query }) => query.type === 'list',
      variables: ({ params, query }) =>
        ({ objectId: params.object_id, skip: query.skip, limit: query.limit, sortBy: query.sort_by }) as Variables<L>,
      reshape: (r) => shape.nodeList(listOf(r)),
    }),
    route('GET', path, context, graphOp, {
      input: { params: objectParams, query: listQuery },
      when: ({ query }) => query.type === 'graph',
      variables: ({ params }) => ({ objectId: params.object_id }) as Variables<G>,
      // BloodHound answers type=graph with the bare Graph, without the data envelope.
      reshape: (r) => ({ body: Object.values(r as object)[0] }),
    }),
  ];
}

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
  // BloodHound's shape: {data: {nodes, edges}}, 404 when there is no path (issue 12).
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
    'ListGroupPSRemoteRights',
    (r) => r.groupPSRemoteRights,
    'GraphGroupPSRemoteRights',
  ),
  // 11
  ...entityList(
    '/api/v2/domains/:object_id/foreign-gpo-controllers',
    'domains',
    'ListDomainForeignGPOControllers',
    (r) => r.domainForeignGPOControllers,
    'GraphDomainForeignGPOControllers',
  ),
];
