import { badRequest } from '../../errors.js';
import { bool, int, many, single } from '../params.js';
import * as shape from '../reshape/graph.js';
import type { RestRequest, RestRoute } from '../route.js';

/** skip, limit, sort_by and type of the entity list endpoints (8, 11). */
function listVariables(context: string, req: RestRequest) {
  return {
    objectId: req.params.object_id,
    skip: int(context, 'skip', single(context, 'skip', req.query.skip), { min: 0 }) ?? null,
    limit: int(context, 'limit', single(context, 'limit', req.query.limit), { min: 0 }) ?? null,
    sortBy: many(context, 'sort_by', req.query.sort_by),
  };
}

function listType(context: string, req: RestRequest): 'list' | 'graph' {
  const type = single(context, 'type', req.query.type) ?? 'list';
  if (type !== 'list' && type !== 'graph') throw badRequest(context, `type must be "list" or "graph", not "${type.slice(0, 32)}".`);
  return type;
}

/**
 * An entity list endpoint: `type=list` (default) runs the list operation, `type=graph` the graph one. The route
 * picks the operation per request, so it is declared twice and chosen by `when`.
 */
function entityList(path: string, context: string, listOp: string, graphOp: string): RestRoute[] {
  return [
    {
      method: 'GET',
      path,
      edition: 'both',
      context,
      operation: listOp,
      when: (req) => listType(context, req) === 'list',
      variables: (req) => listVariables(context, req),
      reshape: (data) => shape.nodeList(Object.values(data)[0] as never),
    },
    {
      method: 'GET',
      path,
      edition: 'both',
      context,
      operation: graphOp,
      when: (req) => listType(context, req) === 'graph',
      variables: (req) => ({ objectId: req.params.object_id }),
      // BloodHound answers type=graph with the bare Graph, without the data envelope.
      reshape: (data) => ({ body: Object.values(data)[0] }),
    },
  ];
}

const countsFlag = (req: RestRequest) => {
  const count = single('users', 'count', req.query.count);
  const counts = single('users', 'counts', req.query.counts);
  // `count` is the API document's name; BloodHound's clients send `counts`.
  return bool('users', count !== undefined ? 'count' : 'counts', count ?? counts, true);
};

const pathVariables = (context: string) => (req: RestRequest) => ({
  start: single(context, 'start_node', req.query.start_node) ?? '',
  end: single(context, 'end_node', req.query.end_node) ?? '',
});

export const graphRoutes: RestRoute[] = [
  // 1 (deprecated): every relationship kind, as BloodHound's /pathfinding.
  {
    method: 'GET',
    path: '/api/v2/pathfinding',
    edition: 'both',
    context: 'pathfinding',
    operation: 'ShortestPaths',
    deprecatedBy: '/api/v2/graphs/shortest-path',
    variables: (req) => ({ ...pathVariables('pathfinding')(req), allKinds: true }),
    reshape: ({ shortestPaths }) => shape.paths(shortestPaths),
  },
  {
    method: 'GET',
    path: '/api/v2/graphs/shortest-path',
    edition: 'both',
    context: 'pathfinding',
    operation: 'ShortestPaths',
    variables: (req) => ({
      ...pathVariables('pathfinding')(req),
      relationshipKinds: single('pathfinding', 'relationship_kinds', req.query.relationship_kinds) ?? null,
      onlyTraversable: bool(
        'pathfinding',
        'only_traversable',
        single('pathfinding', 'only_traversable', req.query.only_traversable),
        false,
      ),
    }),
    reshape: ({ shortestPaths }) => shape.paths(shortestPaths),
  },
  // 6
  {
    method: 'GET',
    path: '/api/v2/users/:object_id',
    edition: 'both',
    context: 'users',
    operation: 'GetUserEntity',
    when: countsFlag,
    variables: (req) => ({ objectId: req.params.object_id }),
    reshape: ({ userEntity }) => ({
      body: { data: { kinds: userEntity.node.kinds, props: userEntity.node.properties, ...userEntity.counts } },
    }),
  },
  {
    method: 'GET',
    path: '/api/v2/users/:object_id',
    edition: 'both',
    context: 'users',
    operation: 'GetUserEntityNoCounts',
    when: (req) => !countsFlag(req),
    variables: (req) => ({ objectId: req.params.object_id }),
    reshape: ({ userEntity }) => ({ body: { data: { kinds: userEntity.node.kinds, props: userEntity.node.properties } } }),
  },
  // 8
  ...entityList('/api/v2/groups/:object_id/ps-remote-rights', 'groups', 'ListGroupPSRemoteRights', 'GraphGroupPSRemoteRights'),
  // 11
  ...entityList(
    '/api/v2/domains/:object_id/foreign-gpo-controllers',
    'domains',
    'ListDomainForeignGPOControllers',
    'GraphDomainForeignGPOControllers',
  ),
];
