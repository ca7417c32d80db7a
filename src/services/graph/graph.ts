import type { Found } from '../../graph/index/traversals.js';
import { foreignGpoControllers, throughMembership, userCounts } from '../../graph/index/traversals.js';
import type { GraphIndex } from '../../graph/index/graph-index.js';
import { allShortestPaths } from '../../graph/index/shortest-paths.js';
import { primaryKind, TRAVERSABLE_KINDS } from '../../graph/kinds.js';
import type { GraphEdge, GraphNode } from '../../graph/model.js';
import { badRequest, notFound } from '../../errors.js';
import { whenReady, type MaybePromise } from '../../maybe-promise.js';
import { findNode, listRequest, nodePage, typedSubgraph, type ListInput, type NodeList, type TypedGraph } from './node-lists.js';
import { memoPerIndex } from './index-memo.js';
import type { PanelDeps } from './node-cache.js';

/** The shortest paths as typed nodes and edges; GraphQL's `PathResult.graph` draws them only when asked for. */
export interface PathsResult {
  nodes: GraphNode[];
  edges: GraphEdge[];
  pathCount: number;
  truncated: boolean;
  length: number;
}

export const MAX_PATHS = 1000;
export const MAX_DEPTH = 15;
const KINDS_FILTER = /^(in|nin):[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$/;

/** Entity lists the service knows: the traversal behind each and the node kind its root must have. */
const LISTS = {
  groupPSRemoteRights: { rootKind: 'Group', context: 'groups' },
  domainForeignGPOControllers: { rootKind: 'Domain', context: 'domains' },
} as const;
export type ListName = keyof typeof LISTS;

/** Entity information, entity lists and attack paths, answered from the in-memory index and the graph store. */
export function createGraphService(deps: PanelDeps & { traversableKinds?: () => Promise<readonly string[]> }) {
  const { store, nodes } = deps;

  function traversal(name: ListName, index: GraphIndex, node: GraphNode): Found {
    const root = index.dense(node.id);
    if (root < 0) return { nodes: new Set(), edges: new Set() };
    if (name === 'groupPSRemoteRights') return throughMembership(index, root, ['CanPSRemote'], 'Computer');
    return foreignGpoControllers(index, String(node.properties.domainsid ?? node.objectid));
  }

  const countsOfUser = memoPerIndex((index, user) => userCounts(index, user));

  return {
    async node(objectId: string): Promise<GraphNode | null> {
      return (await nodes.nodeByObjectId(objectId.trim().toUpperCase())) ?? null;
    },

    /** Endpoint 6: a User node (404 for any other kind). */
    userNode: (objectId: string) => findNode(nodes, 'users', objectId, 'User'),

    /** A user panel's counts; asked again (the panel reopened, another analyst) they come from memory. */
    userCounts(node: GraphNode): MaybePromise<Readonly<Record<string, number>>> {
      return whenReady(deps.index.current(), (index) => {
        const dense = index.dense(node.id);
        if (dense < 0) throw notFound('users', 'The user is not in the graph index yet; retry shortly.');
        return countsOfUser(index, dense);
      });
    },

    /** Endpoints 8 and 11 as a paginated list. */
    list(name: ListName, objectId: string, input: ListInput): MaybePromise<NodeList> {
      const { rootKind, context } = LISTS[name];
      const req = listRequest(context, input);
      return whenReady(findNode(nodes, context, objectId, rootKind), (node) =>
        whenReady(deps.index.current(), (index) => nodePage(nodes, index, traversal(name, index, node).nodes, req)),
      );
    },

    /** Endpoints 8 and 11 with type=graph: the nodes found and the paths that lead to them, typed (Graph.bloodhound
     * gives REST the Graph format). */
    async listGraph(name: ListName, objectId: string): Promise<TypedGraph> {
      const { rootKind, context } = LISTS[name];
      const node = await findNode(nodes, context, objectId, rootKind);
      const index = await deps.index.current();
      const found = traversal(name, index, node);
      return typedSubgraph(nodes, index, found.nodes, found.edges);
    },

    /**
     * Endpoint 1 and its successor: all shortest paths, outbound, at most 15 hops and 1,000 paths. `kinds` null
     * means every relationship kind (the deprecated endpoint); otherwise `relationshipKinds` is BloodHound's
     * `in:A,B` / `nin:A,B` over all kinds, or over the traversable ones when `onlyTraversable`.
     */
    async shortestPaths(
      start: string,
      end: string,
      opts: { relationshipKinds?: string | null; onlyTraversable?: boolean | null; allKinds?: boolean },
    ): Promise<PathsResult> {
      if (!start?.trim()) throw badRequest('pathfinding', 'Missing query parameter: start_node.');
      if (!end?.trim()) throw badRequest('pathfinding', 'Missing query parameter: end_node.');
      const filter = opts.relationshipKinds?.trim();
      if (filter && !KINDS_FILTER.test(filter)) {
        throw badRequest(
          'pathfinding',
          "invalid query parameter 'relationship_kinds': acceptable values should match the format: in|nin:Kind1,Kind2",
        );
      }
      // Through the node memory: a path asked again (or between nodes a panel just showed) costs no look-up.
      const s = await findNode(nodes, 'pathfinding', start);
      const t = await findNode(nodes, 'pathfinding', end);
      const index = await deps.index.current();
      let kinds: Uint8Array | null = null;
      if (!opts.allKinds && (filter || opts.onlyTraversable)) {
        // OpenGraph extensions add their traversable relationship kinds to BloodHound's.
        const extra = opts.onlyTraversable && deps.traversableKinds ? await deps.traversableKinds() : [];
        let names = opts.onlyTraversable ? [...TRAVERSABLE_KINDS, ...extra] : [...index.edgeKindNames.values()];
        if (filter) {
          const [op, list] = filter.split(':') as [string, string];
          const given = new Set(list.split(','));
          names = names.filter((k) => (op === 'in' ? given.has(k) : !given.has(k)));
        }
        kinds = index.kindSet(names);
      }
      const r = allShortestPaths(index, index.dense(s.id), index.dense(t.id), { kinds, maxDepth: MAX_DEPTH, maxPaths: MAX_PATHS });
      const edges = new Set<number>();
      for (const p of r.paths) for (const pos of p) edges.add(pos);
      const typed = r.paths.length ? await typedSubgraph(nodes, index, [], edges) : { nodes: [], edges: [] };
      return { pathCount: r.paths.length, truncated: r.truncated, length: r.length, nodes: typed.nodes, edges: typed.edges };
    },

    /** The primary display kind of a node (User, Group, Computer, …). */
    label: (node: Pick<GraphNode, 'kinds'>): string => primaryKind(node.kinds),

    async counts() {
      return store.counts();
    },
  };
}

export type GraphService = ReturnType<typeof createGraphService>;
