import type { TypedDocumentString } from '../../generated/graphql';

/** Sent with every request: with the session cookie it is how the server knows the app (and not another site) asks. */
export const CSRF_HEADERS = { 'X-GAS-CSRF': '1' } as const;

/** A failed API call: the server's message, its code (UNAUTHENTICATED, FORBIDDEN, …) and HTTP status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    /** Where in a GraphQL document the error points, when it does (line and column, 1-based). */
    readonly locations: { line: number; column: number }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get unauthenticated(): boolean {
    return this.code === 'UNAUTHENTICATED' || this.status === 401;
  }
}

type Listener = (err: ApiError) => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called whenever the server says the session is gone (expired, logged out elsewhere): the app shows sign-in. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

function fail(err: ApiError): never {
  if (err.unauthenticated) for (const l of unauthenticatedListeners) l(err);
  throw err;
}

interface GraphQLErrorShape {
  message: string;
  locations?: { line: number; column: number }[];
  extensions?: { code?: string; http?: { status?: number } };
}

/** The error of an answer in the API document's wrapper (`{http_status, errors: [{context, message}]}`). */
export async function wrapperError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as { errors?: { message?: string }[] } | null;
  const message = body?.errors?.[0]?.message ?? `${res.status} ${res.statusText}`;
  const code = res.status === 401 ? 'UNAUTHENTICATED' : res.status === 403 ? 'FORBIDDEN' : `HTTP_${res.status}`;
  return new ApiError(message, code, res.status);
}

/**
 * Runs a typed GraphQL document against /graphql with the browser's session cookie. The first error fails the
 * call (GraphQL partial results are not used by the app), keeping its code and location.
 */
export async function gql<R, V>(
  document: TypedDocumentString<R, V>,
  ...[variables, signal]: V extends Record<string, never> ? [V?, AbortSignal?] : [V, AbortSignal?]
): Promise<R> {
  const res = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json', ...CSRF_HEADERS },
    body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    signal,
  });
  const body = (await res.json().catch(() => null)) as { data?: R | null; errors?: GraphQLErrorShape[] } | null;
  const first = body?.errors?.[0];
  if (first) {
    fail(new ApiError(first.message, first.extensions?.code ?? 'GRAPHQL', first.extensions?.http?.status ?? res.status, first.locations));
  }
  if (!res.ok || !body?.data) fail(new ApiError(`${res.status} ${res.statusText}`, `HTTP_${res.status}`, res.status));
  return body.data;
}

/** A REST call of the service (for what GraphQL does not carry), with the session cookie and the CSRF header. */
export async function rest(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { ...CSRF_HEADERS, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) fail(await wrapperError(res));
  return res.status === 204 ? null : res.json();
}
