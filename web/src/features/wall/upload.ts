import type { ErrorBody } from '@tribuna/contracts/api/common';
import type { CreatedComment, PostView } from '@tribuna/contracts/api/wall';
import { WALL_FIELDS } from '@tribuna/contracts/wallRules';
import { ApiError, endpointPath } from '../../lib/api';

export interface UploadOptions {
  /** Upload progress, 0 to 1 (only while the request body is sent). */
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

export interface ImageUpload {
  file: File;
  /** Alternative text ('' when none). */
  alt: string;
}

/** The multipart body of a new post: content, then each image and its alt text in display order. */
export function postFormData(content: string, images: readonly ImageUpload[], groupId?: string): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  if (groupId) form.append(WALL_FIELDS.groupId, groupId);
  for (const image of images) form.append(WALL_FIELDS.images, image.file, image.file.name);
  for (const image of images) form.append(WALL_FIELDS.alt, image.alt.trim());
  return form;
}

/** The multipart body of a new comment or reply. */
export function commentFormData(content: string, parentCommentId: string | null, image: ImageUpload | null): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  if (parentCommentId) form.append(WALL_FIELDS.parentCommentId, parentCommentId);
  if (image) {
    form.append(WALL_FIELDS.image, image.file, image.file.name);
    form.append(WALL_FIELDS.alt, image.alt.trim());
  }
  return form;
}

/** POST /api/posts (201: the new post). */
export const uploadPost = (form: FormData, options?: UploadOptions) =>
  postForm<PostView>(endpointPath('createPost'), form, options);

/** POST /api/posts/:postId/comments (201: the new comment and the post's count). */
export const uploadComment = (postId: string, form: FormData, options?: UploadOptions) =>
  postForm<CreatedComment>(endpointPath('createComment', { postId }), form, options);
