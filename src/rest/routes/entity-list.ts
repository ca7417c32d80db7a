import { z } from 'zod';
import type { NodeListFieldsFragment, NodeSortColumn } from '../../generated/operations.js';
import { enumNameOf } from '../../services/common/enums.js';
import { NODE_SORT_COLUMN, nodeSortKeys } from '../../services/graph/node-lists.js';
import { query } from '../params.js';
import * as shape from '../reshape/graph.js';
import { route, type OperationName, type RestRoute, type Result, type Variables } from '../route.js';

/** The path parameter of the entity routes (`/api/v2/<type>/{object_id}/…`). */
export const objectParams = z.object({ object_id: z.string() });

/** skip, limit, sort_by and type of an entity list endpoint (8, 11 and every list of the entity table). */
export const listQuery = z.object({
  skip: query.int(),
  limit: query.int(),
  sort_by: query.many(),
  type: z.enum(['list', 'graph'], { error: 'must be "list" or "graph".' }).default('list'),
});

/** sort_by values (`name`, `-name`) as GraphQL's NodeSort. */
const nodeSort = (context: string, values: string[]) =>
  nodeSortKeys(context, values).map((k) => ({ column: enumNameOf<NodeSortColumn>(NODE_SORT_COLUMN, k.column), descending: k.descending }));

/**
 * An entity list endpoint: `type=list` (default) runs the list operation, `type=graph` the graph one. The route
 * picks the operation per request, so it is declared twice and chosen by `when`. `extra` variables (the kind and
 * list name the generic entity operations take) go to both operations.
 */
export function entityList<L extends OperationName, G extends OperationName>(
  path: string,
  context: string,
  list: { op: L; page: (r: Result<L>) => NodeListFieldsFragment },
  graph: { op: G; graph: (r: Result<G>) => unknown },
  extra: Record<string, unknown> = {},
): RestRoute[] {
  return [
    route('GET', path, context, list.op, {
      input: { params: objectParams, query: listQuery },
      when: ({ query }) => query.type === 'list',
      variables: ({ params, query }) =>
        ({
          ...extra,
          objectId: params.object_id,
          skip: query.skip,
          limit: query.limit,
          sortBy: nodeSort(context, query.sort_by),
        }) as Variables<L>,
      reshape: (r) => shape.nodeList(list.page(r)),
    }),
    route('GET', path, context, graph.op, {
      input: { params: objectParams, query: listQuery },
      when: ({ query }) => query.type === 'graph',
      variables: ({ params }) => Object.assign({}, extra, { objectId: params.object_id }) as Variables<G>, // not a spread (graph/format.ts)
      // BloodHound answers type=graph with the bare Graph, without the data envelope.
      reshape: (r) => ({ body: graph.graph(r) }),
    }),
  ];
}
