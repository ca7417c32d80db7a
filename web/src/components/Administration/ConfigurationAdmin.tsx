import { useQuery } from '@tanstack/react-query';
import { AppConfigDocument, SetCitrixRdpSupportDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

const KEY = ['admin', 'config'];

/** Runtime parameters: each with its description and value; the writable toggles can be switched. */
export function ConfigurationAdmin() {
  const config = useQuery({ queryKey: KEY, queryFn: () => gql(AppConfigDocument) });
  const action = useAdminAction(KEY);
  return (
    <div>
      <h1>Configuration</h1>
      <ErrorMessage error={config.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      {config.isPending && <Loading label="Loading configuration" />}
      {config.data?.appConfig.map((p) => (
        <div className="card" key={p.key}>
          <strong>{p.name}</strong> <code className="muted">{p.key}</code>
          <p className="muted">{p.description}</p>
          {'enabled' in p.value ? (
            <label style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
              <input
                type="checkbox"
                style={{ width: 'auto' }}
                checked={p.value.enabled}
                disabled={!p.writable || p.key !== 'analysis.citrix_rdp_support'}
                onChange={(e) => {
                  const enabled = e.target.checked;
                  void action.run(async () => {
                    await gql(SetCitrixRdpSupportDocument, { enabled });
                    return `${p.name} ${enabled ? 'on' : 'off'}; it applies from the next analysis.`;
                  });
                }}
              />
              Enabled
            </label>
          ) : 'hours' in p.value ? (
            <p>
              {p.value.hours} hours {p.writable ? '' : '(set by the server environment)'}
            </p>
          ) : null}
          {p.updatedAt && (
            <p className="muted">
              Changed {new Date(p.updatedAt).toLocaleString()} by {p.updatedBy}
            </p>
          )}
        </div>
      ))}
    </div>
  );
}
