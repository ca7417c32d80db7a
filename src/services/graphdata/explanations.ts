import { badRequest, notFound } from '../../errors.js';
import { primaryKind } from '../../graph/kinds.js';
import type { GraphEdge, GraphNode } from '../../graph/model.js';
import type { EdgeTriple, GraphStore } from '../../graph/store.js';
import type { NodeReader } from '../graph/node-cache.js';
import { findNode, type NodeList } from '../graph/node-lists.js';
import type { AclStore } from '../../db/stores/graphdata/acl-store.js';

/** A small typed graph: what BloodHound's GraphResponse draws (nodes keyed by id, edges as a list). */
export interface TypedNodesEdges {
  nodes: (GraphNode & { label: string; name: string | null })[];
  edges: GraphEdge[];
}

const ESC_KINDS = [
  'ADCSESC1',
  'ADCSESC3',
  'ADCSESC4',
  'ADCSESC6a',
  'ADCSESC6b',
  'ADCSESC9a',
  'ADCSESC9b',
  'ADCSESC10a',
  'ADCSESC10b',
  'ADCSESC13',
  'GoldenCert',
];
const RELAY_KINDS = ['CoerceAndRelayNTLMToSMB', 'CoerceAndRelayNTLMToLDAP', 'CoerceAndRelayNTLMToLDAPS', 'CoerceAndRelayNTLMToADCS'];
const MAX_LIMIT = 1000;

/**
 * Why a derived or inherited edge is there (BloodHound's edge-composition, relay-targets, acl-inheritance), and a
 * domain's certificate escalations. Compositions and SMB relay targets come from what analysis recorded with the
 * edge (src/analysis/explain.ts); the LDAP(S) and ADCS relay targets and ACL inheritance from the graph as it is.
 */
export function createExplanationsService(deps: { store: GraphStore; nodes: NodeReader; acl: AclStore }) {
  const { store, nodes } = deps;

  async function edgeOf(context: string, source: number, target: number, kind: string): Promise<GraphEdge> {
    if (!Number.isSafeInteger(source) || !Number.isSafeInteger(target))
      throw badRequest(context, 'source_node and target_node must be node ids.');
    if (!kind?.trim()) throw badRequest(context, 'Expected edge_type parameter to be set.');
    const [edge] = await store.edgesByTriples([{ startId: source, endId: target, kind }]);
    if (!edge) throw notFound(context, `No ${kind} edge from node ${source} to node ${target} was found.`);
    return edge;
  }

  async function typed(triples: readonly EdgeTriple[], extraNodes: readonly number[] = []): Promise<TypedNodesEdges> {
    const ids = new Set(extraNodes);
    for (const t of triples) ids.add(t.startId).add(t.endId);
    const [ns, es] = await Promise.all([nodes.nodesByIds([...ids]), triples.length ? nodes.edgesByTriples(triples) : []]);
    return {
      nodes: ns.map((n) =>
        Object.assign({}, n, { label: primaryKind(n.kinds), name: typeof n.properties.name === 'string' ? n.properties.name : null }),
      ),
      edges: es,
    };
  }

  return {
    /** GET /api/v2/graphs/edge-composition: the edges analysis derived this one from (empty for other edges). */
    async composition(source: number, target: number, kind: string): Promise<TypedNodesEdges> {
      const edge = await edgeOf('edge-composition', source, target, kind);
      return typed((await store.edgeSources(edge.startId, edge.endId, edge.kind)) ?? []);
    },

    /** GET /api/v2/graphs/relay-targets: the nodes an NTLM relay edge relays to. */
    async relayTargets(source: number, target: number, kind: string): Promise<TypedNodesEdges> {
      if (!RELAY_KINDS.includes(kind)) throw badRequest('relay-targets', `edge_type must be one of ${RELAY_KINDS.join(', ')}.`);
      const edge = await edgeOf('relay-targets', source, target, kind);
      const end = (await nodes.nodesByIds([edge.endId]))[0]!;
      if (kind === 'CoerceAndRelayNTLMToSMB') {
        // The computers whose NTLM is relayed: those administering the target (recorded with the edge).
        const parts = (await store.edgeSources(edge.startId, edge.endId, kind)) ?? [];
        const admins = parts.filter((p) => p.kind === 'AdminTo' || p.kind === 'MemberOf').map((p) => p.startId);
        const found = await nodes.nodesByIds([...new Set(admins)]);
        return typed(
          [],
          found.filter((n) => n.kinds.includes('Computer')).map((n) => n.id),
        );
      }
      return typed([], await deps.acl.relayTargets(kind, end.id));
    },

    /** GET /api/v2/graphs/acl-inheritance: an inherited ACE's path from the container that defines it. */
    async aclInheritance(source: number, target: number, kind: string): Promise<TypedNodesEdges> {
      const edge = await edgeOf('acl-inheritance', source, target, kind);
      const hash = edge.properties.inheritancehash;
      if (edge.properties.isinherited !== true || typeof hash !== 'string' || !hash) return typed([edge]);
      const path = await deps.acl.inheritedFrom(edge.endId, hash);
      if (!path) return typed([edge]);
      // The ACE as the target holds it, then the containers from the one that defines it down to the target.
      return typed([{ startId: edge.startId, endId: edge.endId, kind: edge.kind }, ...path.contains], [path.containerId]);
    },

    /** GET /api/v2/domains/{id}/adcs-escalations: who holds an ESC edge (or GoldenCert) to the domain. */
    async adcsEscalations(objectId: string, page: { skip?: number | null; limit?: number | null }): Promise<NodeList> {
      const domain = await findNode(nodes, 'domains', objectId, 'Domain');
      const skip = page.skip ?? 0;
      const limit = page.limit ?? 100;
      if (skip < 0 || limit < 0 || limit > MAX_LIMIT)
        throw badRequest('domains', `skip must be 0 or more and limit between 0 and ${MAX_LIMIT}.`);
      const edges = await store.edgesInto(domain.id, ESC_KINDS);
      const summaries = await store.nodeSummaries([...new Set(edges.map((e) => e.startId))]);
      summaries.sort((a, b) => (a.name ?? a.objectid).localeCompare(b.name ?? b.objectid) || a.id - b.id);
      return {
        totalCount: summaries.length,
        skip,
        limit,
        nodes: summaries
          .slice(skip, skip + limit)
          .map((s) => ({ objectId: s.objectid, name: s.name ?? s.objectid, label: primaryKind(s.kinds), kinds: s.kinds })),
      };
    },
  };
}

export type ExplanationsService = ReturnType<typeof createExplanationsService>;
