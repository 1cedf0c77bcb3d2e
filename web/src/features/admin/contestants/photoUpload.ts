import type { UploadedPhoto } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS } from '@tribuna/contracts/adminRules';
import { endpointPath } from '../../../lib/api';
import { postForm, type UploadOptions } from '../../../lib/upload';

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

/**
 * POST /api/admin/contestant-photos as multipart (field `image`) with XMLHttpRequest, which reports
 * upload progress (fetch cannot). Same contract as callApi: the X-Requested-With header, the session
 * cookie, an ApiError with the server's message on failure (status 0 when the network failed).
 */
export function uploadContestantPhoto(file: File, options: UploadOptions = {}): Promise<UploadedPhoto> {
  const form = new FormData();
  form.append(PHOTO_FIELD, file, file.name);
  return postForm<UploadedPhoto>(endpointPath('uploadContestantPhoto'), form, options);
}

export { placeholderUrl } from '../../../lib/placeholder';
