import { ApiError, CSRF_HEADERS, wrapperError } from './client';

/**
 * Signs in with a user name and password: the server answers with its HttpOnly session cookie, so the token never
 * reaches this page. `authExpired` means the password must be changed.
 */
export async function signIn(username: string, password: string): Promise<{ userId: string; authExpired: boolean }> {
  const res = await fetch('/ui/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', ...CSRF_HEADERS },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw await wrapperError(res);
  const body = (await res.json()) as { data: { user_id: string; auth_expired: boolean } };
  return { userId: body.data.user_id, authExpired: body.data.auth_expired };
}

/** Ends the session on the server and drops the cookie. */
export async function signOut(): Promise<void> {
  const res = await fetch('/ui/session', { method: 'DELETE', credentials: 'same-origin', headers: { ...CSRF_HEADERS } });
  if (!res.ok && res.status !== 401) throw await wrapperError(res);
}

export { ApiError };
