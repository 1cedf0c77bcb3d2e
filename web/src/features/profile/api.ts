import type { UploadedProfileImage, UpdateProfileInput } from '@tribuna/contracts/api/profiles';
import { PROFILE_IMAGE_FIELD, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { callApi, endpointPath } from '../../lib/api';
import { postForm, type UploadOptions } from '../../lib/upload';

export const fetchProfile = (userId: string, signal?: AbortSignal) => callApi('profile', { params: { userId }, signal });

export const fetchProfileStats = (userId: string, signal?: AbortSignal) => callApi('profileStats', { params: { userId }, signal });

export const fetchVotingHistory = (userId: string, signal?: AbortSignal) => callApi('profileVotes', { params: { userId }, signal });

/** One page of the comments tab; `cursor` is the previous page's nextCursor. */
export const fetchProfileComments = (userId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('profileComments', { params: { userId }, query: { cursor: cursor ?? undefined }, signal });

export const fetchProfileGroups = (userId: string, signal?: AbortSignal) => callApi('profileGroups', { params: { userId }, signal });

/** PATCH /api/me with only the fields that changed; answers the whole profile. */
export const updateProfile = (body: UpdateProfileInput) => callApi('updateProfile', { body });

/** DELETE /api/me: anonymises the account (the server ends every session). */
export const deleteAccount = (confirm: string) => callApi('deleteAccount', { body: { confirm } });

/** POST /api/me/avatar or /api/me/banner (multipart, field `image`): stored and cropped, not yet saved on the profile. */
export function uploadProfileImage(kind: ProfileImageKind, file: File, options?: UploadOptions): Promise<UploadedProfileImage> {
  const form = new FormData();
  form.append(PROFILE_IMAGE_FIELD, file, file.name);
  return postForm<UploadedProfileImage>(endpointPath(kind === 'avatar' ? 'uploadAvatar' : 'uploadBanner'), form, options);
}
