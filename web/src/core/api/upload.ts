import { ApiError, CSRF_HEADERS } from './client';

/** The content type the file-upload endpoint expects for a file, by its name (zip archives or JSON). */
export function uploadContentType(file: { name: string; type: string }): string {
  if (/\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed')
    return 'application/zip';
  return 'application/json';
}

/**
 * Sends one file to a running upload job through the REST file-upload endpoint: it streams the body to disk
 * (collections of gigabytes), where the GraphQL upload reads it into memory under a smaller limit, and
 * XMLHttpRequest reports upload progress where fetch does not.
 */
export function uploadFile(jobId: number, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v2/file-upload/${jobId}`);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(CSRF_HEADERS)) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', uploadContentType(file));
    xhr.setRequestHeader('Content-Disposition', `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        return resolve();
      }
      let message = `${xhr.status} ${xhr.statusText}`;
      try {
        message = (JSON.parse(xhr.responseText) as { errors: { message: string }[] }).errors[0]!.message;
      } catch {
        // not the error wrapper: keep the status line
      }
      reject(new ApiError(message, xhr.status === 401 ? 'UNAUTHENTICATED' : `HTTP_${xhr.status}`, xhr.status));
    };
    xhr.onerror = () => reject(new ApiError('The upload was interrupted (network error).', 'NETWORK', 0));
    xhr.onabort = () => reject(new ApiError('The upload was cancelled.', 'ABORTED', 0));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
