import type { ErrorBody } from '@tribuna/contracts/api/common';
import type { UploadedPhoto } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS } from '@tribuna/contracts/adminRules';
import { ApiError, endpointPath } from '../../../lib/api';
import { thumbHashToDataURL } from 'thumbhash';

/** The multipart field the server reads the photo from. */
export const PHOTO_FIELD = 'image';
/** Types the picker offers (the server sniffs the bytes again). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PHOTO_MESSAGES = {
  type: 'La foto debe ser una imagen JPG, PNG o WebP',
  size: 'La foto no puede exceder 5MB',
  uploadFailed: 'Error al subir la foto',
} as const;

/** The picked file's problem, or null: JPG, PNG or WebP of at most 5 MB. */
export function validatePhotoFile(file: File): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return PHOTO_MESSAGES.type;
  if (file.size > ADMIN_LIMITS.contestantPhotoBytes) return PHOTO_MESSAGES.size;
  return null;
}

export interface UploadOptions {
  /** Upload progress, 0 to 1 (while the request body is sent). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).message === 'string' && typeof (value as ErrorBody).statusCode === 'number';
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
 * POST /api/admin/contestant-photos as multipart (field `image`) with XMLHttpRequest, which reports
 * upload progress (fetch cannot). Same contract as callApi: the X-Requested-With header, the session
 * cookie, an ApiError with the server's message on failure (status 0 when the network failed).
 */
export function uploadContestantPhoto(file: File, options: UploadOptions = {}): Promise<UploadedPhoto> {
  const form = new FormData();
  form.append(PHOTO_FIELD, file, file.name);
  return new Promise<UploadedPhoto>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', endpointPath('uploadContestantPhoto'));
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
        resolve(payload as UploadedPhoto);
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

/** The data: URL of a base64 ThumbHash (the blurred square shown until the photo loads); null if unreadable. */
export function placeholderUrl(base64: string | null): string | null {
  if (!base64) return null;
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return thumbHashToDataURL(bytes);
  } catch {
    return null;
  }
}
