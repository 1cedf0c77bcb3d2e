import type { AuthorView, CommentView, FeedPage, MediaView, PostView, ReactionCounts, ReplyView, VideoUploadView } from '@tribuna/contracts/api/wall';

/**
 * The "now" of the wall's fixtures: posts are 5 minutes old and replies 1 minute old at this time.
 * A test that asserts a relative time ('hace 5 minutos') pins the clock to it (pinClock, test/clock.ts).
 */
export const WALL_NOW = Date.parse('2026-03-02T12:00:00.000Z');
const ago = (ms: number) => new Date(WALL_NOW - ms).toISOString();

let sequence = 0;
/** A fresh uuid-shaped id (ids of the wall are uuids; `post:{id}` topics check the shape). */
export const wallId = () => `20000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export const noReactions = (): ReactionCounts => ({ like: 0, love: 0, haha: 0, wow: 0, sad: 0, angry: 0 });

export function buildAuthor(overrides: Partial<AuthorView> = {}): AuthorView {
  return { id: wallId(), displayName: 'Luis Pérez', username: 'luis', avatarUrl: null, ...overrides };
}

export function buildPost(overrides: Partial<PostView> = {}): PostView {
  const createdAt = overrides.createdAt ?? ago(5 * 60_000);
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
    createdAt: ago(60_000),
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

/** A post's clip as the server presents it: the MP4, its poster (WebP) and the poster's ThumbHash. */
export function buildVideoMedia(overrides: Partial<MediaView> = {}): MediaView {
  return {
    mediaType: 'video',
    durationS: 75,
    url: '/media/ab/clip.mp4',
    thumbnailUrl: '/media/ab/poster.webp',
    width: 1280,
    height: 720,
    placeholder: 'JKkGJI53d3dwiHiIeId3cIf3iA==',
    alt: null,
    ...overrides,
  };
}

/** A clip being processed (the 202 of POST /api/posts/video, an entry of GET /api/me/video-uploads). */
export function buildVideoUpload(overrides: Partial<VideoUploadView> = {}): VideoUploadView {
  return { id: wallId(), status: 'processing', content: 'Mi clip de la gala', visibility: 'public', groupId: null, createdAt: ago(60_000), ...overrides };
}
