import type { GEdge, GNode } from '../../core/graph/model';
import { formatProperty, orderedProperties } from '../../core/graph/properties';
import { Section } from '../common/Section';

/** The Edge panel: the relationship's kind, its two ends (each opens its own panel) and its properties. */
export function EdgePanel({
  edge,
  source,
  target,
  onSelectNode,
}: {
  edge: GEdge;
  source?: GNode;
  target?: GNode;
  onSelectNode(objectId: string): void;
}) {
  const props = orderedProperties(edge.properties);
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
      <Section title="Relationship Information" defaultOpen>
        {props.length ? (
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
