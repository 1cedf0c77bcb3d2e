import type { UploadedProfileImage } from '@tribuna/contracts/api/profiles';
import { PROFILE_IMAGE_FIELD, PROFILE_IMAGE_TYPES, PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { endpointPath } from './api';
import { postForm, type UploadOptions } from './upload';

/**
 * POST /api/me/avatar or /api/me/banner (multipart, field `image`): stored and cropped, not yet
 * saved anywhere. A profile and a group (its avatar and cover) then save the answered URL.
 */
export function uploadProfileImage(kind: ProfileImageKind, file: File, options?: UploadOptions): Promise<UploadedProfileImage> {
  const form = new FormData();
  form.append(PROFILE_IMAGE_FIELD, file, file.name);
  return postForm<UploadedProfileImage>(endpointPath(kind === 'avatar' ? 'uploadAvatar' : 'uploadBanner'), form, options);
}

/** A picked avatar or banner: at most 5 MB, JPG, PNG or WebP (the server sniffs the bytes again). */
export function imageFileProblem(file: File): string | null {
  if (file.size > PROFILE_LIMITS.imageBytes) return PROFILE_MESSAGES.imageTooLarge;
  if (!(PROFILE_IMAGE_TYPES as readonly string[]).includes(file.type)) return PROFILE_MESSAGES.imageType;
  return null;
}
