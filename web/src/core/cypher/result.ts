import type { RunCypherWithPropertiesQuery } from '../../generated/graphql';
import { TIER_ZERO_KIND } from '../../../../src/graph/kinds';
import type { ExploreGraph } from '../graph/model';
import { OWNED_KIND } from '../graph/style';

type Full = RunCypherWithPropertiesQuery['cypher'];
/** An answer with or without properties (RunCypher leaves them out). */
type Result = Omit<Full, 'nodes' | 'edges'> & {
  nodes: (Omit<Full['nodes'][number], 'properties'> & { properties?: unknown })[];
  edges: (Omit<Full['edges'][number], 'properties'> & { properties?: unknown })[];
};

const props = (p: unknown) => (p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {});

/**
 * A Cypher answer as a graph to draw: nodes keyed by store id, edges keyed by their ends and kind (the answer
 * carries one edge per start, kind and end, as BloodHound's does); markers from the answer's own flags. An answer
 * fetched without properties says so (`propertiesOmitted`), so the Edge panel and the export fetch them.
 */
export function cypherGraph(r: Result, propertiesOmitted = false): ExploreGraph {
  const nodes = r.nodes.map((n) => {
    const kinds = [...n.kinds];
    if (n.isTierZero && !kinds.includes(TIER_ZERO_KIND)) kinds.push(TIER_ZERO_KIND);
    if (n.isOwnedObject && !kinds.includes(OWNED_KIND)) kinds.push(OWNED_KIND);
    return { key: String(n.id), objectId: n.objectId, name: n.name || n.label, kinds, kind: n.kind, properties: props(n.properties) };
  });
  const keys = new Set(nodes.map((n) => n.key));
  const edges = r.edges
    .map((e) => ({
      key: `${e.source}-${e.kind}-${e.target}`,
      source: String(e.source),
      target: String(e.target),
      kind: e.kind,
      properties: props(e.properties),
    }))
    .filter((e) => keys.has(e.source) && keys.has(e.target));
  return propertiesOmitted ? { nodes, edges, propertiesOmitted } : { nodes, edges };
}

/** A line about the answer: its size, and the cap that cut it, if one did. */
export function cypherSummary(r: Result): string {
  const size = r.nodes.length
    ? `${r.nodes.length.toLocaleString('en')} node${r.nodes.length === 1 ? '' : 's'}, ${r.edges.length.toLocaleString('en')} edge${r.edges.length === 1 ? '' : 's'}`
    : `${r.rows.length.toLocaleString('en')} row${r.rows.length === 1 ? '' : 's'}, no graph`;
  const cut = r.truncated.map((t) => `cut at ${t.cap.toLocaleString('en')} ${t.limit}`).join('; ');
  return cut ? `${size} (${cut})` : size;
}
