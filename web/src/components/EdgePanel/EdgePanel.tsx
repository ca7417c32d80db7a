import { useQuery } from '@tanstack/react-query';
import { POST_PROCESSED_KINDS } from '../../../../src/graph/kinds';
import { EdgeCompositionDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { edgeProperties } from '../../core/cypher/run';
import type { GEdge, GNode } from '../../core/graph/model';
import { formatProperty, orderedProperties } from '../../core/graph/properties';
import { Section } from '../common/Section';

const DERIVED: ReadonlySet<string> = new Set(POST_PROCESSED_KINDS);

/**
 * The Edge panel: the relationship's kind, its two ends (each opens its own panel), its properties and, for an edge
 * analysis derived, what it came from (the server's recorded composition).
 */
export function EdgePanel({
  edge,
  source,
  target,
  propertiesOmitted,
  onSelectNode,
}: {
  edge: GEdge;
  source?: GNode;
  target?: GNode;
  /** The drawn result came without properties: they are fetched when the panel opens. */
  propertiesOmitted?: boolean;
  onSelectNode(objectId: string): void;
}) {
  const fetched = useQuery({
    queryKey: ['edge-properties', edge.key, source?.objectId, target?.objectId],
    queryFn: () => edgeProperties(edge, source!, target!),
    enabled: !!propertiesOmitted && !!source && !!target,
    staleTime: 60_000,
  });
  const props = orderedProperties(propertiesOmitted ? (fetched.data ?? {}) : edge.properties);
  const waiting = !!propertiesOmitted && fetched.isPending;
  return (
    <aside className="panel" aria-label="Edge">
      <header>
        <div style={{ flex: 1, minWidth: 0 }}>
          <h2>{edge.kind}</h2>
          <p className="muted" style={{ margin: '6px 0 0' }}>
            {source ? (
              <button type="button" className="link" onClick={() => onSelectNode(source.objectId)}>
                {source.name}
              </button>
            ) : (
              edge.source
            )}{' '}
            →{' '}
            {target ? (
              <button type="button" className="link" onClick={() => onSelectNode(target.objectId)}>
                {target.name}
              </button>
            ) : (
              edge.target
            )}
          </p>
        </div>
      </header>
      {DERIVED.has(edge.kind) && <Composition edge={edge} />}
      <Section title="Relationship Information" defaultOpen>
        {fetched.error ? (
          <p className="error">{(fetched.error as Error).message}</p>
        ) : waiting ? (
          <p className="muted">Loading…</p>
        ) : props.length ? (
          <dl className="props">
            {props.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k}</dt>
                <dd>{formatProperty(k, v)}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">This edge has no properties.</p>
        )}
      </Section>
    </aside>
  );
}

/** The edges a derived edge was made from, as analysis recorded them. */
function Composition({ edge }: { edge: GEdge }) {
  const { data, error, isPending } = useQuery({
    queryKey: ['composition', edge.key],
    queryFn: () => gql(EdgeCompositionDocument, { sourceNode: Number(edge.source), targetNode: Number(edge.target), edgeType: edge.kind }),
    staleTime: 300_000,
  });
  const names = new Map(data?.edgeComposition.nodes.map((n) => [String(n.id), n.name ?? n.objectId]) ?? []);
  const parts = data?.edgeComposition.edges ?? [];
  return (
    <Section title="Composition" count={data ? parts.length : undefined} defaultOpen>
      {isPending && <p className="muted">Loading…</p>}
      {error && <p className="error">{(error as Error).message}</p>}
      {data && !parts.length && <p className="muted">Analysis recorded no sources for this edge.</p>}
      <ul className="lists">
        {parts.map((e) => (
          <li key={e.id} style={{ padding: '3px 0' }}>
            {names.get(String(e.source))} <strong>→ {e.kind} →</strong> {names.get(String(e.target))}
          </li>
        ))}
      </ul>
    </Section>
  );
}
