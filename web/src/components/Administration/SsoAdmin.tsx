import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminSsoProvidersDocument, CreateSamlProviderDocument, DeleteSsoProviderDocument, UsersDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

const KEY = ['admin', 'sso'];

/** SSO providers: add a SAML provider from its IdP metadata (with auto-provisioning), see our SP URLs, delete. */
export function SsoAdmin() {
  const providers = useQuery({ queryKey: KEY, queryFn: () => gql(AdminSsoProvidersDocument) });
  const roles = useQuery({ queryKey: ['admin', 'users'], queryFn: () => gql(UsersDocument) });
  const action = useAdminAction(KEY);
  const [name, setName] = useState('');
  const [metadata, setMetadata] = useState('');
  const [provision, setProvision] = useState(false);
  const [roleId, setRoleId] = useState<number | ''>('');
  return (
    <div>
      <h1>SSO providers</h1>
      <form
        className="card"
        aria-label="Add SAML provider"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            await gql(CreateSamlProviderDocument, {
              name,
              metadata,
              autoProvision: provision ? { enabled: true, defaultRoleId: roleId || undefined } : { enabled: false },
            });
            setName('');
            setMetadata('');
            return `Provider ${name} added.`;
          });
        }}
      >
        <div className="field">
          <label htmlFor="sso-name">Name</label>
          <input id="sso-name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="sso-meta">IdP metadata (XML file)</label>
          <input
            id="sso-meta"
            type="file"
            accept=".xml,application/xml,text/xml"
            onChange={(e) => void e.target.files?.[0]?.text().then(setMetadata)}
            required
          />
        </div>
        <div className="field-row">
          <label style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
            <input type="checkbox" style={{ width: 'auto' }} checked={provision} onChange={(e) => setProvision(e.target.checked)} /> Create
            users who sign in for the first time, with the role
          </label>
          <select
            aria-label="Role of provisioned users"
            value={roleId}
            onChange={(e) => setRoleId(Number(e.target.value) || '')}
            disabled={!provision}
            style={{ width: 200 }}
          >
            <option value="">Read-Only</option>
            {roles.data?.roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={!metadata}>
          Add provider
        </button>
      </form>
      <ErrorMessage error={providers.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      {providers.isPending && <Loading label="Loading providers" />}
      {providers.data?.ssoProviders.length === 0 && <p className="muted">No provider yet: users sign in with a password.</p>}
      {providers.data?.ssoProviders.map((p) => (
        <div className="card" key={p.id}>
          <strong>{p.name}</strong>{' '}
          <span className="muted">
            ({p.type.toLowerCase()}, slug {p.slug})
          </span>
          <dl className="props" style={{ marginTop: 8 }}>
            <dt>Login URL</dt>
            <dd>{p.loginUri}</dd>
            <dt>SP metadata</dt>
            <dd>{p.details?.spMetadataUri}</dd>
            <dt>ACS URL</dt>
            <dd>{p.details?.spAcsUri}</dd>
            <dt>IdP issuer</dt>
            <dd>{p.details?.idpIssuerUri}</dd>
            <dt>Auto-provisioning</dt>
            <dd>{p.autoProvision.enabled ? 'On' : 'Off'}</dd>
          </dl>
          <button
            type="button"
            className="danger"
            onClick={() =>
              void action.run(async () => {
                await gql(DeleteSsoProviderDocument, { id: p.id });
                return `Provider ${p.name} deleted.`;
              })
            }
          >
            Delete
          </button>
        </div>
      ))}
    </div>
  );
}
