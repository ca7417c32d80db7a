import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
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
  const [otp, setOtp] = useState('');
  // Set once the server said the password was right and a one-time password is needed.
  const [otpStep, setOtpStep] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sso = useQuery({ queryKey: ['sso-providers'], queryFn: () => gql(SsoProvidersDocument), staleTime: 60_000 });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await signIn(username, password, otpStep ? otp : undefined);
      if (answer.otpRequired) {
        setOtpStep(true);
        setBusy(false);
        return;
      }
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  // A callback that signed the browser in sends it here and the app moves on to Explore; this page stays on screen
  // only when no session came of it (a cookie the browser refused).
  const ssoNoSession = params.get('sso') === 'ok';
  // The server sends a browser here when the IdP refused the sign-in or its answer did not check out (it logs why).
  const ssoRefused = params.get('sso') === 'refused';
  return (
    <main className="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Graph Analysis Service</h1>
        {ssoNoSession && !error && <div className="notice">Single sign-on did not start a session here; sign in below or try again.</div>}
        {ssoRefused && !error && (
          <div role="alert" className="error">
            Single sign-on was refused or could not be completed; sign in below or try again.
          </div>
        )}
        {/* Plain form controls: the sign-in page loads before the widget library does. */}
        <div className="field">
          <label htmlFor="login-username">Username</label>
          <input
            id="login-username"
            value={username}
            onChange={(e) => {
              setUsername(e.target.value);
              setOtpStep(false);
            }}
            autoComplete="username"
            required
            autoFocus
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setOtpStep(false);
            }}
            autoComplete="current-password"
            required
          />
        </div>
        {otpStep && (
          <div className="field">
            <label htmlFor="login-otp">One-time password</label>
            <input
              id="login-otp"
              value={otp}
              onChange={(e) => setOtp(e.target.value)}
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9 ]*"
              maxLength={8}
              aria-describedby="login-otp-hint"
              required
              autoFocus
            />
            <span id="login-otp-hint" className="muted hint">
              The six-digit code from your authenticator app.
            </span>
          </div>
        )}
        {error && (
          <div role="alert" className="error">
            {error}
          </div>
        )}
        <button type="submit" className="primary" disabled={busy}>
          Log in
        </button>
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
