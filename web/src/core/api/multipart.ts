import type { TypedDocumentString } from '../../generated/graphql';
import { ApiError, CSRF_HEADERS } from './client';

/**
 * A GraphQL mutation with one file variable, sent as a multipart request (the GraphQL multipart request format
 * graphql-yoga reads): `operations`, the `map` of the file to its variable, and the file.
 */
export async function gqlWithFile<R, V>(
  document: TypedDocumentString<R, V>,
  variable: keyof V & string,
  file: File,
  variables: Partial<V> = {},
): Promise<R> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: document.toString(), variables: { ...variables, [variable]: null } }));
  form.append('map', JSON.stringify({ 0: [`variables.${variable}`] }));
  form.append('0', file, file.name);
  const res = await fetch('/graphql', { method: 'POST', credentials: 'same-origin', headers: { ...CSRF_HEADERS }, body: form });
  const body = (await res.json().catch(() => null)) as { data?: R; errors?: { message: string; extensions?: { code?: string } }[] } | null;
  const first = body?.errors?.[0];
  if (first) throw new ApiError(first.message, first.extensions?.code ?? 'GRAPHQL', res.status);
  if (!body?.data) throw new ApiError(`${res.status} ${res.statusText}`, `HTTP_${res.status}`, res.status);
  return body.data;
}

/** Saves a file the server sent as base64 (exports) through a download link. */
export function downloadBase64(fileName: string, contentType: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  downloadBlob(fileName, new Blob([bytes], { type: contentType }));
}

export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
