import { ApiError, isErrorBody } from './api';

export interface UploadOptions {
  /** Upload progress, 0 to 1 (only while the request body is sent). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * POSTs a multipart form with XMLHttpRequest (fetch cannot report upload progress). Same contract
 * as callApi: the X-Requested-With header every mutation needs, the session cookie, an ApiError
 * with the server's message on failure (status 0 when the network failed).
 */
export function postForm<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'tribuna');
    xhr.upload.onprogress = (event: ProgressEvent) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      const payload = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(payload as T);
        return;
      }
      const body = isErrorBody(payload) ? payload : null;
      reject(new ApiError(xhr.status, body?.message ?? (xhr.statusText || `HTTP ${xhr.status}`), body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'No se pudo conectar con el servidor'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('The upload was aborted', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
