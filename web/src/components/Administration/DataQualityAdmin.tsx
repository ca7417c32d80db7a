import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ClearDatabaseDocument, DataQualityDetailDocument, DataQualityDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { can, type SessionUser } from '../../core/session/session';
import { useAdminAction } from './useAdminMutation';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';

/** Data quality: the graph's size, the domains and tenants in it (collected or only referenced), the last analysis. */
export function DataQualityAdmin({ user }: { user: SessionUser }) {
  const q = useQuery({ queryKey: ['admin', 'data-quality'], queryFn: () => gql(DataQualityDocument) });
  const detail = useQuery({ queryKey: ['admin', 'data-quality', 'detail'], queryFn: () => gql(DataQualityDetailDocument) });
  const d = q.data;
  const latest = [...(detail.data?.ad.stats ?? []), ...(detail.data?.azure.stats ?? [])];
  return (
    <div>
      <h1>Data quality</h1>
      <ErrorMessage error={q.error} />
      {q.isPending && <Loading label="Loading counts" />}
      {d && (
        <>
          <div className="card">
            <dl className="props">
              <dt>Nodes</dt>
              <dd>{d.graphCounts.nodes.toLocaleString()}</dd>
              <dt>Edges</dt>
              <dd>{d.graphCounts.edges.toLocaleString()}</dd>
              <dt>Data pipeline</dt>
              <dd>{d.datapipeStatus.status.toLowerCase()}</dd>
              <dt>Last complete analysis</dt>
              <dd>
                {d.datapipeStatus.lastCompleteAnalysisAt ? new Date(d.datapipeStatus.lastCompleteAnalysisAt).toLocaleString() : 'Never'}
              </dd>
            </dl>
          </div>
          {detail.data && (
            <div className="card">
              <dl className="props">
                <dt>Session completeness</dt>
                <dd>{(detail.data.completeness.sessionCompleteness * 100).toFixed(1)} %</dd>
                <dt>Local group completeness</dt>
                <dd>{(detail.data.completeness.localGroupCompleteness * 100).toFixed(1)} %</dd>
              </dl>
            </div>
          )}
          {latest.length > 0 && (
            <table className="data" aria-label="Data quality by environment" style={{ marginBottom: 16 }}>
              <thead>
                <tr>
                  <th scope="col">Environment</th>
                  <th scope="col">Recorded</th>
                  <th scope="col">Counts</th>
                </tr>
              </thead>
              <tbody>
                {latest.map((x, i) => (
                  <tr key={i}>
                    <td className="mono">{x.environment ?? 'all'}</td>
                    <td>{new Date(x.createdAt).toLocaleString()}</td>
                    <td>
                      {Object.entries((x.counts ?? {}) as Record<string, unknown>)
                        .filter(([, v]) => typeof v === 'number' && v > 0)
                        .map(([k, v]) => `${k} ${(v as number).toLocaleString()}`)
                        .join(', ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <table className="data" aria-label="Domains and tenants">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Object ID</th>
                <th scope="col">Collected</th>
              </tr>
            </thead>
            <tbody>
              {d.availableDomains.map((x) => (
                <tr key={x.objectId}>
                  <td>{x.name}</td>
                  <td>{x.type === 'AZURE' ? 'Azure tenant' : 'Active Directory domain'}</td>
                  <td className="mono">{x.objectId}</td>
                  <td>{x.collected ? 'Yes' : 'Referenced only'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {can(user, 'db/Wipe') && <ClearDatabase />}
    </div>
  );
}

/** BloodHound's database management: what to delete, confirmed, then the counts of what went. */
function ClearDatabase() {
  const action = useAdminAction(['admin', 'data-quality']);
  const [graph, setGraph] = useState(false);
  const [history, setHistory] = useState(false);
  const [quality, setQuality] = useState(false);
  return (
    <form
      className="card"
      aria-label="Clear data"
      onSubmit={(e) => {
        e.preventDefault();
        if (!window.confirm('Delete the chosen data? This cannot be undone.')) return;
        void action.run(async () => {
          const { clearDatabase: r } = await gql(ClearDatabaseDocument, {
            input: { deleteCollectedGraphData: graph, deleteFileIngestHistory: history, deleteDataQualityHistory: quality },
          });
          return `Deleted ${r.nodesDeleted.toLocaleString()} nodes, ${r.edgesDeleted.toLocaleString()} edges, ${r.ingestJobsDeleted} ingest jobs, ${r.dataQualityDeleted} data quality records.`;
        });
      }}
    >
      <h2 style={{ marginTop: 0 }}>Clear data</h2>
      {[
        ['All collected graph data', graph, setGraph],
        ['File ingest history', history, setHistory],
        ['Data quality history', quality, setQuality],
      ].map(([label, value, set]) => (
        <label key={label as string} style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
          <input
            type="checkbox"
            style={{ width: 'auto' }}
            checked={value as boolean}
            onChange={(e) => (set as (v: boolean) => void)(e.target.checked)}
          />
          {label as string}
        </label>
      ))}
      <ErrorMessage error={action.error} />
      {action.message && <p role="status">{action.message}</p>}
      <button type="submit" className="danger" disabled={!graph && !history && !quality}>
        Delete
      </button>
    </form>
  );
}
