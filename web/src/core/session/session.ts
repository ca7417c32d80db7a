import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { SelfDocument, type SelfQuery } from '../../generated/graphql';
import { ApiError, gql, onUnauthenticated, rest } from '../api/client';
import { signOut } from '../api/session';

export type SessionUser = SelfQuery['self'] & { edition: SelfQuery['serviceInfo']['edition']; serverVersion: string };

export const SESSION_KEY = ['session'] as const;

/** Who is signed in: the `self` query over the session cookie; null when signed out. */
async function loadSession(): Promise<SessionUser | null> {
  // Asked first, as it answers 200 signed in or not: a signed-out visit logs no failed request.
  const status = (await rest('GET', '/ui/session')) as { data: unknown };
  if (!status.data) return null;
  try {
    const data = await gql(SelfDocument);
    return { ...data.self, edition: data.serviceInfo.edition, serverVersion: data.serviceInfo.serverVersion };
  } catch (err) {
    if (err instanceof ApiError && err.unauthenticated) return null;
    throw err;
  }
}

export function useSession() {
  const client = useQueryClient();
  useEffect(
    () =>
      onUnauthenticated(() => {
        if (client.getQueryData(SESSION_KEY)) client.setQueryData(SESSION_KEY, null);
      }),
    [client],
  );
  return useQuery({ queryKey: SESSION_KEY, queryFn: loadSession, staleTime: Infinity, retry: false });
}

/** Whether the user holds a permission (`authority/name`). */
export function can(user: SessionUser | null | undefined, permission: string): boolean {
  if (!user) return false;
  const [authority, name] = permission.split('/');
  return user.roles.some((r) => r.permissions.some((p) => p.authority === authority && p.name === name));
}

export function useSignOut() {
  const client = useQueryClient();
  return async () => {
    await signOut();
    // The session answer goes to null in place (its observer, the page gate, sees it); everything else is dropped.
    client.setQueryData(SESSION_KEY, null);
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
  };
}
