import { ApiError, CSRF_HEADERS, wrapperError } from './client';

export type SignInResult = { otpRequired: true } | { otpRequired: false; userId: string; authExpired: boolean };

/**
 * Signs in with a user name and password, and for a user with multi-factor authentication the authenticator's
 * one-time password: the server answers with its HttpOnly session cookie, so the token never reaches this page.
 * `otpRequired` means the password was right and the code is needed (no session yet); `authExpired` means the
 * password must be changed.
 */
export async function signIn(username: string, password: string, otp?: string): Promise<SignInResult> {
  const res = await fetch('/ui/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', ...CSRF_HEADERS },
    body: JSON.stringify(otp ? { username, password, otp } : { username, password }),
  });
  if (!res.ok) throw await wrapperError(res);
  const body = (await res.json()) as { data: { otp_required: true } | { user_id: string; auth_expired: boolean } };
  if ('otp_required' in body.data) return { otpRequired: true };
  return { otpRequired: false, userId: body.data.user_id, authExpired: body.data.auth_expired };
}

/** Ends the session on the server and drops the cookie. */
export async function signOut(): Promise<void> {
  const res = await fetch('/ui/session', { method: 'DELETE', credentials: 'same-origin', headers: { ...CSRF_HEADERS } });
  if (!res.ok && res.status !== 401) throw await wrapperError(res);
}

export { ApiError };
