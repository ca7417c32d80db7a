import { useState } from 'react';
import type { ExploreGraph } from '../../core/graph/model';
import { isOwned, isTierZero } from '../../core/graph/style';

const PAGE = 100;

/** The drawn result as tables: its nodes, then its edges; a row opens its panel. */
export function ResultTable({
  graph,
  owned,
  selected,
  onSelectNode,
  onSelectEdge,
}: {
  graph: ExploreGraph;
  owned: ReadonlySet<string>;
  selected?: { type: 'node' | 'edge'; key: string };
  onSelectNode(key: string): void;
  onSelectEdge(key: string): void;
}) {
  const [page, setPage] = useState(0);
  const names = new Map(graph.nodes.map((n) => [n.key, n.name]));
  const nodes = graph.nodes.slice(page * PAGE, (page + 1) * PAGE);
  const pages = Math.max(1, Math.ceil(graph.nodes.length / PAGE));
  return (
    <div className="table-view">
      <table className="data" aria-label="Nodes">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Object ID</th>
            <th scope="col">Markers</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.key} aria-selected={selected?.type === 'node' && selected.key === n.key}>
              <td>
                <button type="button" className="link" onClick={() => onSelectNode(n.key)}>
                  {n.name}
                </button>
              </td>
              <td>{n.kind}</td>
              <td className="mono">{n.objectId}</td>
              <td>{[isTierZero(n) && 'Tier Zero', isOwned(n, owned) && 'Owned'].filter(Boolean).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 && (
        <div className="pager">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
      <table className="data" aria-label="Edges" style={{ marginTop: 16 }}>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Kind</th>
            <th scope="col">Target</th>
          </tr>
        </thead>
        <tbody>
          {graph.edges.slice(0, 1000).map((e) => (
            <tr key={e.key} aria-selected={selected?.type === 'edge' && selected.key === e.key}>
              <td>{names.get(e.source)}</td>
              <td>
                <button type="button" className="link" onClick={() => onSelectEdge(e.key)}>
                  {e.kind}
                </button>
              </td>
              <td>{names.get(e.target)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {graph.edges.length > 1000 && <p className="muted">The first 1,000 of {graph.edges.length.toLocaleString()} edges.</p>}
    </div>
  );
}
