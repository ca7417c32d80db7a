import type { CypherQueryQuery } from '../../generated/operations.js';
import { notFound } from '../../errors.js';
import type { RestResponse } from '../route.js';

type Answer = CypherQueryQuery['cypher'];

/**
 * BloodHound's answer to POST /api/v2/graphs/cypher: nodes keyed by id, edges as a list, literals for scalars; with
 * include_properties each element carries its properties and the answer the sorted property keys (node_keys,
 * edge_keys). An answer with nothing in it is BloodHound's 404 "resource not found". A cap that cut the answer is
 * named in `truncated` and the Cypher-Truncated header.
 */
export function cypherAnswer(a: Answer, includeProperties: boolean): RestResponse {
  if (!a.nodes.length && !a.edges.length && !a.literals.length) throw notFound('cypher', 'resource not found');
  const nodeKeys = new Set<string>();
  const edgeKeys = new Set<string>();
  const nodes = Object.fromEntries(
    a.nodes.map((n) => {
      const props = n.properties as Record<string, unknown>;
      if (includeProperties) for (const k of Object.keys(props)) nodeKeys.add(k);
      return [
        String(n.id),
        {
          label: n.label,
          kind: n.kind,
          kinds: n.kinds,
          objectId: n.objectId,
          isTierZero: n.isTierZero,
          isOwnedObject: n.isOwnedObject,
          lastSeen: n.lastSeen,
          ...(includeProperties ? { properties: props } : {}),
        },
      ];
    }),
  );
  const edges = a.edges.map((e) => {
    const props = e.properties as Record<string, unknown>;
    if (includeProperties) for (const k of Object.keys(props)) edgeKeys.add(k);
    return {
      source: String(e.source),
      target: String(e.target),
      label: e.kind,
      kind: e.kind,
      lastSeen: e.lastSeen,
      ...(includeProperties ? { properties: props } : {}),
    };
  });
  const data: Record<string, unknown> = {};
  if (includeProperties && nodeKeys.size) data.node_keys = [...nodeKeys].sort();
  if (includeProperties && edgeKeys.size) data.edge_keys = [...edgeKeys].sort();
  Object.assign(data, { nodes, edges, literals: a.literals.map((l) => ({ key: l.key, value: l.value })) });
  const headers: Record<string, string> = {};
  if (a.truncated.length) {
    data.truncated = a.truncated.map((t) => ({ limit: t.limit, cap: t.cap }));
    headers['Cypher-Truncated'] = a.truncated.map((t) => `${t.limit}=${t.cap}`).join(', ');
  }
  return { body: { data }, headers };
}
