import type { UpdateProfileInput } from '@tribuna/contracts/api/profiles';
import { callApi } from '../../lib/api';

export const fetchProfile = (userId: string, signal?: AbortSignal) => callApi('profile', { params: { userId }, signal });

export const fetchProfileStats = (userId: string, signal?: AbortSignal) => callApi('profileStats', { params: { userId }, signal });

export const fetchVotingHistory = (userId: string, signal?: AbortSignal) => callApi('profileVotes', { params: { userId }, signal });

/** One page of the comments tab; `cursor` is the previous page's nextCursor. */
export const fetchProfileComments = (userId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('profileComments', { params: { userId }, query: { cursor: cursor ?? undefined }, signal });

export const fetchProfileGroups = (userId: string, signal?: AbortSignal) => callApi('profileGroups', { params: { userId }, signal });

/** 'Seguir' / 'Dejar de seguir' (PUT / DELETE, idempotent): the state after the change. */
export const setFollowing = (userId: string, follow: boolean) => callApi(follow ? 'followUser' : 'unfollowUser', { params: { userId } });

export type FollowListKind = 'followers' | 'following';

/** One page of a profile's followers or of whom it follows; `cursor` is the previous page's nextCursor. */
export const fetchFollowList = (kind: FollowListKind, userId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi(kind === 'followers' ? 'profileFollowers' : 'profileFollowing', { params: { userId }, query: { cursor: cursor ?? undefined }, signal });

/** PATCH /api/me with only the fields that changed; answers the whole profile. */
export const updateProfile = (body: UpdateProfileInput) => callApi('updateProfile', { body });

/** DELETE /api/me: anonymises the account (the server ends every session). */
export const deleteAccount = (confirm: string) => callApi('deleteAccount', { body: { confirm } });

export { uploadProfileImage } from '../../lib/profileImages';

/** 'Silenciar' / 'Dejar de silenciar' (PUT / DELETE, idempotent): the viewer's relation after the change. */
export const setMuted = (userId: string, mute: boolean) => callApi(mute ? 'muteUser' : 'unmuteUser', { params: { userId } });

/** 'Bloquear' / 'Desbloquear' (PUT / DELETE, idempotent; blocking ends the follows both ways). */
export const setBlocked = (userId: string, block: boolean) => callApi(block ? 'blockUser' : 'unblockUser', { params: { userId } });
