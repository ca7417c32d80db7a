import { useQuery } from '@tanstack/react-query';
import { DataQualityDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import type { SessionUser } from '../../core/session/session';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';

/** Data quality: the graph's size, the domains and tenants in it (collected or only referenced), the last analysis. */
export function DataQualityAdmin(_props: { user: SessionUser }) {
  const q = useQuery({ queryKey: ['admin', 'data-quality'], queryFn: () => gql(DataQualityDocument) });
  const d = q.data;
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
    </div>
  );
}
