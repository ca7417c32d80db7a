import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  CreateUserDocument,
  DeleteUserDocument,
  EndUserSessionsDocument,
  SetUserSecretDocument,
  UpdateUserDocument,
  UsersDocument,
} from '../../generated/graphql';
import { gql } from '../../core/api/client';
import type { SessionUser } from '../../core/session/session';
import { ErrorMessage } from '../common/ErrorMessage';
import { PasswordDialog } from '../common/PasswordDialog';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

const KEY = ['admin', 'users'];

/** Users: create, change the role, disable or enable, reset the password, end sessions, delete. */
export function UsersAdmin({ self }: { self: SessionUser }) {
  const users = useQuery({ queryKey: KEY, queryFn: () => gql(UsersDocument) });
  const action = useAdminAction(KEY);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState<number | ''>('');
  const roles = users.data?.roles ?? [];

  const create = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      await gql(CreateUserDocument, {
        input: { principalName: name, password, emailAddress: email || null, roleId: roleId || roles.find((r) => r.name === 'User')?.id },
      });
      setName('');
      setPassword('');
      setEmail('');
      return `User ${name} created.`;
    });
  };

  return (
    <div>
      <h1>Users</h1>
      <form className="card inline-form" onSubmit={create} aria-label="Create user">
        <div className="field">
          <label htmlFor="nu-name">User name</label>
          <input id="nu-name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="nu-email">Email</label>
          <input id="nu-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="nu-password">Initial password</label>
          <input
            id="nu-password"
            type="password"
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoComplete="new-password"
          />
        </div>
        <div className="field">
          <label htmlFor="nu-role">Role</label>
          <select id="nu-role" value={roleId} onChange={(e) => setRoleId(Number(e.target.value) || '')}>
            <option value="">User</option>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={action.pending}>
          Create user
        </button>
      </form>
      <ErrorMessage error={users.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      {users.isPending && <Loading label="Loading users" />}
      <table className="data" aria-label="Users">
        <thead>
          <tr>
            <th scope="col">User name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last login</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.data?.users.map((u) => (
            <tr key={u.id}>
              <td>{u.principalName}</td>
              <td>{u.emailAddress}</td>
              <td>
                <select
                  aria-label={`Role of ${u.principalName}`}
                  value={u.roles[0]?.id ?? ''}
                  onChange={(e) => {
                    // Read now: the select is controlled and shows the stored role again until the answer comes.
                    const roleId = Number(e.target.value);
                    void action.run(async () => {
                      await gql(UpdateUserDocument, { id: u.id, input: { roleIds: [roleId] } });
                      return `${u.principalName} is now ${roles.find((r) => r.id === roleId)?.name}.`;
                    });
                  }}
                >
                  {roles.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </td>
              <td>{u.isDisabled ? 'Disabled' : 'Active'}</td>
              <td>{u.lastLogin ? new Date(u.lastLogin).toLocaleString() : 'Never'}</td>
              <td style={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
                {u.id !== self.id && (
                  <button
                    type="button"
                    onClick={() =>
                      void action.run(async () => {
                        await gql(UpdateUserDocument, { id: u.id, input: { isDisabled: !u.isDisabled } });
                        return `${u.principalName} ${u.isDisabled ? 'enabled' : 'disabled'}.`;
                      })
                    }
                  >
                    {u.isDisabled ? 'Enable' : 'Disable'}
                  </button>
                )}
                <PasswordDialog
                  label="Reset password"
                  title={`New password for ${u.principalName}`}
                  onSet={(secret) =>
                    void action.run(async () => {
                      await gql(SetUserSecretDocument, { id: u.id, input: { secret, needsPasswordReset: u.id !== self.id } });
                      return `Password of ${u.principalName} reset.`;
                    })
                  }
                />
                <button
                  type="button"
                  onClick={() =>
                    void action.run(async () => {
                      const { endUserSessions } = await gql(EndUserSessionsDocument, { id: u.id });
                      return `${endUserSessions} session${endUserSessions === 1 ? '' : 's'} of ${u.principalName} ended.`;
                    })
                  }
                >
                  End sessions
                </button>
                {u.id !== self.id && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      if (window.confirm(`Delete ${u.principalName} with their sessions and API tokens?`))
                        void action.run(async () => {
                          await gql(DeleteUserDocument, { id: u.id });
                          return `${u.principalName} deleted.`;
                        });
                    }}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
