import { toGraph } from '../../graph/format.js';
import type { GraphIndex } from '../../graph/index/graph-index.js';
import type { Found } from '../../graph/index/traversals.js';
import type { GraphEdge, GraphNode } from '../../graph/model.js';
import { badRequest } from '../../errors.js';
import { entityTypeOf, LISTS, type EntityType, type ListId } from './entities-lists.js';
import { traverse } from './entities-traverse.js';
import { memoPerIndex } from './index-memo.js';
import { findNode, listRequest, nodePage, typedSubgraph, type ListInput, type NodeList, type TypedGraph } from './node-lists.js';
import type { PanelDeps } from './node-cache.js';

/** The ServerIs link an entity of each kind shows, and the properties it is shown under. */
const SERVER_IS = [
  { kind: 'SiteServer', dir: 'out', other: 'Computer', id: 'serverreferencecomputer', name: 'serverreferencecomputername' },
  { kind: 'Computer', dir: 'in', other: 'SiteServer', id: 'siteservernode', name: 'siteservernodename' },
] as const;

/** A node shown as an entity: the node and the panel type it is shown with. */
export interface Entity {
  node: GraphNode;
  type: EntityType;
}

/** The same under other names, for generated resolver types (the GraphQL types have the same names). */
export type EntityModel = Entity;
export type GraphEdgeModel = GraphEdge;

/**
 * Entity panels for every node kind: the node, the counts of its lists, and each list paged or as a graph. The
 * lists and their traversals are data (entities-lists.ts); everything here runs on the in-memory path index, which
 * answers a count in microseconds where the same recursive SQL takes milliseconds to seconds.
 */
export function createEntityService(deps: PanelDeps) {
  const { nodes } = deps;

  async function find(context: string, objectId: string, kind?: string): Promise<Entity> {
    const found = await findNode(nodes, context, objectId, kind);
    const node = await withServerIs(found);
    const type = entityTypeOf(node.kinds) ?? { path: 'base', kind: 'Base', lists: ['controllers', 'controllables'] };
    return { node, type };
  }

  /**
   * A site server shows the computer it stands for, and a computer its site server, through their ServerIs edge
   * (BloodHound's GetADEntityDetails): `serverreferencecomputer`/`…name`, `siteservernode`/`…name`.
   */
  async function withServerIs(node: GraphNode): Promise<GraphNode> {
    const link = SERVER_IS.find((l) => node.kinds.includes(l.kind));
    if (!link) return node;
    const index = await deps.index.current();
    const root = index.dense(node.id);
    if (root < 0) return node;
    const hit = traverse(index, root, { shape: 'direct', dir: link.dir, edges: ['ServerIs'] }, { kinds: [link.other] });
    const first = hit.nodes.values().next();
    if (first.done) return node;
    const [other] = await nodes.nodesByIds([index.dbId(first.value)]);
    if (!other) return node;
    const properties = Object.assign({}, node.properties, {
      [link.id]: other.objectid,
      ...(other.properties.name === undefined ? {} : { [link.name]: other.properties.name }),
    });
    return { ...node, properties };
  }

  /** What a list's traversal of this entity reads besides the index: its root and the domain it belongs to. */
  const domainSidOf = (entity: Entity) => String(entity.node.properties.domainsid ?? entity.node.objectid).toUpperCase();

  function found(index: GraphIndex, entity: Entity, list: ListId): Found {
    const root = index.dense(entity.node.id);
    if (root < 0) return { nodes: new Set(), edges: new Set() };
    const spec = LISTS[list];
    return traverse(index, root, spec.traversal, {
      kinds: 'targets' in spec ? spec.targets : undefined,
      domainSid: domainSidOf(entity),
    });
  }

  async function run(entity: Entity, list: ListId): Promise<{ index: GraphIndex; found: Found }> {
    const index = await deps.index.current();
    return { index, found: found(index, entity, list) };
  }

  // A panel's counts per index, as for users (graph.ts): reopening a panel runs none of its lists again. Keyed by
  // everything a count reads besides the index: the node, its panel type (its kinds) and its domain.
  const countsOf = memoPerIndex(
    (index, entity: Entity) =>
      entity.type.lists.map((id) => Object.freeze({ key: LISTS[id].key, count: found(index, entity, id).nodes.size })),
    10_000,
    (entity) => `${entity.node.id}\u0000${entity.type.kind}\u0000${domainSidOf(entity)}`,
  );

  function listId(context: string, entity: Entity, key: string): ListId {
    const id = entity.type.lists.find((l) => LISTS[l].key === key);
    if (!id) {
      const known = entity.type.lists.map((l) => LISTS[l].key).join(', ');
      throw badRequest(context, `A ${entity.type.kind} has no list "${key}"; it has: ${known}.`);
    }
    return id;
  }

  return {
    /** The node as an entity; `kind` (the route's) must be among its kinds. */
    find,

    /** Every list of the entity's panel with its size. */
    async counts(entity: Entity): Promise<readonly Readonly<{ key: string; count: number }>[]> {
      return countsOf(await deps.index.current(), entity);
    },

    /** The list names of the entity's panel. */
    listKeys: (entity: Entity): string[] => entity.type.lists.map((l) => LISTS[l].key),

    /** One list, sorted (newest node first unless `sortBy`) and paged. */
    async list(context: string, entity: Entity, key: string, input: ListInput): Promise<NodeList> {
      const id = listId(context, entity, key);
      const req = listRequest(context, input);
      const { index, found } = await run(entity, id);
      return nodePage(nodes, index, found.nodes, req);
    },

    /** A typed graph in BloodHound's legacy map format (custom node kinds' icons included). */
    async bloodhoundGraph(g: TypedGraph): Promise<Record<string, unknown>> {
      return toGraph(g.nodes, g.edges, await deps.icons?.());
    },

    /** One list as the graph of the results and the edges that lead to them. */
    async listGraph(context: string, entity: Entity, key: string): Promise<TypedGraph> {
      const id = listId(context, entity, key);
      if ('noGraph' in LISTS[id]) throw badRequest(context, `type 'graph' is not supported for this endpoint.`);
      const { index, found } = await run(entity, id);
      return typedSubgraph(nodes, index, found.nodes, found.edges, entity.node.id);
    },
  };
}

export type EntityService = ReturnType<typeof createEntityService>;
