import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { SsoProvidersDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { signIn } from '../../core/api/session';
import { SESSION_KEY } from '../../core/session/session';

/**
 * Sign-in: user name and password (the server sets its HttpOnly session cookie), and a button per SSO provider,
 * each a link to the provider's login, whose callback lands back here signed in.
 */
export function LoginPage() {
  const client = useQueryClient();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sso = useQuery({ queryKey: ['sso-providers'], queryFn: () => gql(SsoProvidersDocument), staleTime: 60_000 });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(username, password);
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  const ssoFailed = params.get('sso') === 'ok';
  return (
    <main className="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Graph Analysis Service</h1>
        {ssoFailed && !error && <div className="notice">Single sign-on did not start a session here; sign in below or try again.</div>}
        <TextField className="field" value={username} onChange={setUsername} autoComplete="username" isRequired autoFocus>
          <Label>Username</Label>
          <Input />
        </TextField>
        <TextField className="field" type="password" value={password} onChange={setPassword} autoComplete="current-password" isRequired>
          <Label>Password</Label>
          <Input />
        </TextField>
        {error && (
          <div role="alert" className="error">
            {error}
          </div>
        )}
        <Button type="submit" className="primary" isDisabled={busy}>
          Log in
        </Button>
        {!!sso.data?.ssoProviders.length && (
          <div className="sso" aria-label="Single sign-on" role="group">
            <span className="muted">or sign in with</span>
            {sso.data.ssoProviders.map((p) => (
              <a key={p.id} className="button" href={p.loginUri}>
                {p.name}
              </a>
            ))}
          </div>
        )}
      </form>
    </main>
  );
}
