import type { AuthorView, CommentView, FeedPage, PostView, ReactionCounts, ReplyView } from '@tribuna/contracts/api/wall';

let sequence = 0;
/** A fresh uuid-shaped id (ids of the wall are uuids; `post:{id}` topics check the shape). */
export const wallId = () => `20000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export const noReactions = (): ReactionCounts => ({ like: 0, love: 0, haha: 0, wow: 0, sad: 0, angry: 0 });

export function buildAuthor(overrides: Partial<AuthorView> = {}): AuthorView {
  return { id: wallId(), displayName: 'Luis Pérez', username: 'luis', avatarUrl: null, ...overrides };
}

export function buildPost(overrides: Partial<PostView> = {}): PostView {
  const createdAt = overrides.createdAt ?? new Date(Date.now() - 5 * 60_000).toISOString();
  return {
    id: wallId(),
    author: buildAuthor(),
    groupId: null,
    groupName: null,
    content: 'Qué gala la de anoche',
    visibility: 'public',
    isPinned: false,
    editedAt: null,
    createdAt,
    lastActivityAt: createdAt,
    media: [],
    reactions: noReactions(),
    myReaction: null,
    commentCount: 0,
    ...overrides,
  };
}

export function buildReply(postId: string, overrides: Partial<ReplyView> = {}): ReplyView {
  return {
    id: wallId(),
    postId,
    parentCommentId: null,
    author: buildAuthor({ displayName: 'Marta', username: 'marta' }),
    content: 'Totalmente de acuerdo',
    media: null,
    editedAt: null,
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    reactions: noReactions(),
    myReaction: null,
    ...overrides,
  };
}

export function buildComment(postId: string, overrides: Partial<CommentView> = {}): CommentView {
  return { ...buildReply(postId), replies: [], ...overrides };
}

export function feedPage(posts: PostView[], nextCursor: string | null = null, total = posts.length): FeedPage {
  return { posts, total, hasMore: nextCursor !== null, nextCursor };
}
