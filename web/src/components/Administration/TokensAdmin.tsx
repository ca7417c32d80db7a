import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CreateTokenDocument, DeleteTokenDocument, TokensDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import type { SessionUser } from '../../core/session/session';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

const KEY = ['admin', 'tokens'];

/** API tokens of the signed-in user: create one (its key is shown once), revoke one. */
export function TokensAdmin({ user }: { user: SessionUser }) {
  const tokens = useQuery({ queryKey: KEY, queryFn: () => gql(TokensDocument, {}) });
  const action = useAdminAction(KEY);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ id: string; key: string } | null>(null);
  return (
    <div>
      <h1>API tokens</h1>
      <p className="muted">
        Tokens of {user.principalName}, for signed requests (collectors, scripts). A token's key is shown once, when it is made.
      </p>
      <form
        className="card inline-form"
        aria-label="Create token"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            const { createToken } = await gql(CreateTokenDocument, { name: name || null });
            setCreated({ id: createToken.id, key: createToken.key ?? '' });
            setName('');
          });
        }}
      >
        <div className="field">
          <label htmlFor="tok-name">Token name</label>
          <input id="tok-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <button type="submit" className="primary">
          Create token
        </button>
      </form>
      {created && (
        <div className="card" role="status">
          <p>
            Token <code>{created.id}</code> created. Copy its key now; it is not shown again:
          </p>
          <div className="secret" aria-label="Token key">
            {created.key}
          </div>
        </div>
      )}
      <ErrorMessage error={tokens.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      {tokens.isPending && <Loading label="Loading tokens" />}
      <table className="data" aria-label="API tokens">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">ID</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.data?.tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td className="mono">{t.id}</td>
              <td>{new Date(t.createdAt).toLocaleString()}</td>
              <td>{t.lastAccess ? new Date(t.lastAccess).toLocaleString() : 'Never'}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void action.run(async () => {
                      await gql(DeleteTokenDocument, { id: t.id });
                      return `Token ${t.name ?? t.id} revoked.`;
                    })
                  }
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
