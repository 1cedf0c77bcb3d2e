import type { FeedSort, ReactionType } from '@tribuna/contracts/wallRules';
import { callApi } from '../../lib/api';

/** What a feed shows: the global wall, one user's posts (profile) or one group's. */
export interface FeedFilters {
  sort?: FeedSort;
  userId?: string;
  groupId?: string;
  /** The 'Siguiendo' wall: posts of the people the viewer follows (signed in). */
  following?: boolean;
}

/** One page of a feed; `cursor` is the previous page's nextCursor (keyset paging). */
export const fetchFeed = (filters: FeedFilters, cursor: string | null, signal?: AbortSignal) =>
  callApi('feed', {
    query: {
      sort: filters.sort,
      userId: filters.userId,
      groupId: filters.groupId,
      following: filters.following ? 'true' : undefined,
      cursor: cursor ?? undefined,
    },
    signal,
  });

export const fetchPost = (postId: string, signal?: AbortSignal) => callApi('getPost', { params: { postId }, signal });

/** GET /api/me/video-uploads: the signed-in author's clips still being processed, newest first. */
export const fetchVideoUploads = (signal?: AbortSignal) => callApi('listVideoUploads', { signal });

export const editPost = (postId: string, content: string) => callApi('editPost', { params: { postId }, body: { content } });

export const deletePost = (postId: string) => callApi('deletePost', { params: { postId } });

/** PUT /api/posts/:postId/pin: a group's admins and moderators pin ('Fijado') or unpin its posts. */
export const pinPost = (postId: string, pinned: boolean) => callApi('pinPost', { params: { postId }, body: { pinned } });

export const reactToPost = (postId: string, type: ReactionType) => callApi('reactToPost', { params: { postId }, body: { type } });

export const fetchComments = (postId: string, signal?: AbortSignal) => callApi('listComments', { params: { postId }, signal });

export const editComment = (commentId: string, content: string) => callApi('editComment', { params: { commentId }, body: { content } });

export const deleteComment = (commentId: string) => callApi('deleteComment', { params: { commentId } });

export const reactToComment = (commentId: string, type: ReactionType) => callApi('reactToComment', { params: { commentId }, body: { type } });
