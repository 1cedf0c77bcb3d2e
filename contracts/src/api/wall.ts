import { Type, type Static } from '@sinclair/typebox';
import { FEED_SORTS, POST_VISIBILITIES, REACTION_TYPES, WALL_LIMITS } from '../wallRules.ts';
import { IsoDate, SafeMultilineText, Uuid } from './common.ts';
import { defineRoutes, NoContent } from '../route.ts';

export const ReactionTypeSchema = Type.Union(REACTION_TYPES.map((t) => Type.Literal(t)));
export const PostVisibilitySchema = Type.Union(POST_VISIBILITIES.map((v) => Type.Literal(v)));
export const FeedSortSchema = Type.Union(FEED_SORTS.map((s) => Type.Literal(s)));

/** Reaction counts of a post or comment: every type, zero included. */
export const ReactionCounts = Type.Object({
  like: Type.Integer({ minimum: 0 }),
  love: Type.Integer({ minimum: 0 }),
  haha: Type.Integer({ minimum: 0 }),
  wow: Type.Integer({ minimum: 0 }),
  sad: Type.Integer({ minimum: 0 }),
  angry: Type.Integer({ minimum: 0 }),
});
export type ReactionCounts = Static<typeof ReactionCounts>;

/** An author as the wall shows them (public profile fields only). */
export const AuthorView = Type.Object({
  id: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
});
export type AuthorView = Static<typeof AuthorView>;

/**
 * A stored image (the re-encoded original, a thumbnail and a ThumbHash placeholder, base64), or a
 * video clip: `url` its MP4 (H.264/AAC, at most 720p), `thumbnailUrl` its poster frame (WebP),
 * `placeholder` the poster's ThumbHash, `durationS` its length.
 */
export const MediaView = Type.Object({
  mediaType: Type.Union([Type.Literal('image'), Type.Literal('video')]),
  durationS: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  url: Type.String(),
  thumbnailUrl: Type.Union([Type.String(), Type.Null()]),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  placeholder: Type.Union([Type.String(), Type.Null()]),
  alt: Type.Union([Type.String(), Type.Null()]),
});
export type MediaView = Static<typeof MediaView>;

export const PostView = Type.Object({
  id: Uuid,
  author: AuthorView,
  groupId: Type.Union([Uuid, Type.Null()]),
  /** The group's name ('En {group}' on profiles), null without a group. */
  groupName: Type.Union([Type.String(), Type.Null()]),
  content: Type.String(),
  visibility: PostVisibilitySchema,
  isPinned: Type.Boolean(),
  /** When the content was last edited ('Editado'), null if never. */
  editedAt: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDate,
  lastActivityAt: IsoDate,
  media: Type.Array(MediaView),
  reactions: ReactionCounts,
  /** The viewer's own reaction (null for visitors and when none). */
  myReaction: Type.Union([ReactionTypeSchema, Type.Null()]),
  commentCount: Type.Integer({ minimum: 0 }),
  /** Hidden by moderation (issue 29): only its author (and the moderation queue) still sees it, as 'Oculto por moderación'. Absent otherwise. */
  hiddenByModeration: Type.Optional(Type.Boolean()),
});
export type PostView = Static<typeof PostView>;

/**
 * GET /api/posts: the feed. `cursor` comes from the previous page's nextCursor (keyset paging).
 * Without `userId`: the wall (posts without a group, or one group's with `groupId`), pages of 10.
 * With `userId` (a profile's posts tab): that user's posts in and out of groups, pages of 20; the
 * owner sees all of them, anybody else (admins included) only public ones they may read.
 */
export const FeedQuery = Type.Object(
  {
    sort: Type.Optional(FeedSortSchema),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })),
    userId: Type.Optional(Uuid),
    groupId: Type.Optional(Uuid),
    visibility: Type.Optional(PostVisibilitySchema),
    /** The 'Siguiendo' wall (signed in): posts of the people the viewer follows, outside groups (issue 28). */
    following: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const FeedPage = Type.Object({
  posts: Type.Array(PostView),
  /** A group's wall, first page only: its pinned posts ('Fijado', at most 3), shown on top and not repeated in `posts`. */
  pinned: Type.Optional(Type.Array(PostView)),
  /** Posts matching the filters (all pages); with `totalCapped`, at least that many. */
  total: Type.Integer({ minimum: 0 }),
  /**
   * The count stopped at its cap (the 'Siguiendo' wall counts up to WALL_LIMITS.followingTotalCap;
   * its total is kept for WALL_LIMITS.followingTotalTtlMs while the reader pages, whatever is posted meanwhile).
   */
  totalCapped: Type.Optional(Type.Boolean()),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type FeedPage = Static<typeof FeedPage>;

/**
 * A video post being processed (POST /api/posts/video answers it, 202): only its author sees it,
 * as 'Procesando video…', until the worker has transcoded the clip and the post is published (a
 * `video-upload` message on `user:{id}` says which post), or it failed ('No pudimos procesar el video').
 */
export const VideoUploadView = Type.Object({
  id: Uuid,
  status: Type.Literal('processing'),
  content: Type.String(),
  visibility: PostVisibilitySchema,
  groupId: Type.Union([Uuid, Type.Null()]),
  createdAt: IsoDate,
});
export type VideoUploadView = Static<typeof VideoUploadView>;

/** GET /api/me/video-uploads: the signed-in author's clips still being processed, newest first. */
export const VideoUploadList = Type.Object({ uploads: Type.Array(VideoUploadView) });
export type VideoUploadList = Static<typeof VideoUploadList>;

export const PostParams = Type.Object({ postId: Uuid }, { additionalProperties: false });
export const CommentParams = Type.Object({ commentId: Uuid }, { additionalProperties: false });

/** PATCH /api/posts/:postId: the new text (trimmed; non-empty, at most 2000). */
export const EditPostInput = Type.Object({ content: SafeMultilineText({ maxLength: WALL_LIMITS.postText * 2 }) }, { additionalProperties: false });
export type EditPostInput = Static<typeof EditPostInput>;

/** PATCH /api/comments/:commentId */
export const EditCommentInput = Type.Object({ content: SafeMultilineText({ maxLength: WALL_LIMITS.commentText * 2 }) }, { additionalProperties: false });
export type EditCommentInput = Static<typeof EditCommentInput>;

/** POST …/reactions: choosing a type replaces the viewer's reaction; choosing the same one again removes it. */
export const ReactInput = Type.Object({ type: ReactionTypeSchema }, { additionalProperties: false });
export type ReactInput = Static<typeof ReactInput>;

export const ReactionState = Type.Object({
  reactions: ReactionCounts,
  myReaction: Type.Union([ReactionTypeSchema, Type.Null()]),
});
export type ReactionState = Static<typeof ReactionState>;

const commentFields = {
  id: Uuid,
  postId: Uuid,
  parentCommentId: Type.Union([Uuid, Type.Null()]),
  author: AuthorView,
  content: Type.String(),
  media: Type.Union([MediaView, Type.Null()]),
  editedAt: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDate,
  reactions: ReactionCounts,
  myReaction: Type.Union([ReactionTypeSchema, Type.Null()]),
  /** Hidden by moderation (issue 29): only its author still sees it, as 'Oculto por moderación'. Absent otherwise. */
  hiddenByModeration: Type.Optional(Type.Boolean()),
};

export const ReplyView = Type.Object(commentFields);
export type ReplyView = Static<typeof ReplyView>;

/** A top-level comment with its replies (one level deep), oldest first. */
export const CommentView = Type.Object({ ...commentFields, replies: Type.Array(ReplyView) });
export type CommentView = Static<typeof CommentView>;

/** GET /api/posts/:postId/comments: up to 100 top-level comments, oldest first, with their replies. */
export const CommentList = Type.Object({
  comments: Type.Array(CommentView),
  /** Visible comments of the post, replies included (the card's count). */
  commentCount: Type.Integer({ minimum: 0 }),
});
export type CommentList = Static<typeof CommentList>;

/** POST /api/posts/:postId/comments answers the new comment (a reply too) and the post's new count. */
export const CreatedComment = Type.Object({ comment: ReplyView, commentCount: Type.Integer({ minimum: 0 }) });
export type CreatedComment = Static<typeof CreatedComment>;

export const DeletedComment = Type.Object({ commentCount: Type.Integer({ minimum: 0 }) });
export type DeletedComment = Static<typeof DeletedComment>;

// --- Live (topics `feed` and `post:{id}`) -----------------------------------------------------

const FeedTopic = Type.Literal('feed');
const PostTopicName = Type.String({ pattern: '^post:[0-9a-f-]{36}$' });

/** A post was published to the global wall: readers see 'N publicaciones nuevas'. */
export const FeedPostMessage = Type.Object({ type: Type.Literal('feed-post'), topic: FeedTopic, postId: Uuid, authorId: Uuid });
export const PostUpdatedMessage = Type.Object({
  type: Type.Literal('post-updated'),
  topic: PostTopicName,
  postId: Uuid,
  content: Type.String(),
  editedAt: IsoDate,
});
export const PostDeletedMessage = Type.Object({ type: Type.Literal('post-deleted'), topic: PostTopicName, postId: Uuid });
/**
 * Reaction counts are paced snapshots, not one message per tap: absolute counts read again from the
 * database at most every few hundred milliseconds per item while it changes, newest wins. `seq`
 * grows with every snapshot the sending instance publishes (so on every topic): a client ignores
 * one not newer than the last it applied for the item, and starts over after a resync over HTTP
 * (a reconnect may land on another instance with its own sequence).
 */
const ReactionsSeq = Type.Integer({ minimum: 1 });
export const PostReactionsMessage = Type.Object({
  type: Type.Literal('post-reactions'),
  topic: PostTopicName,
  postId: Uuid,
  reactions: ReactionCounts,
  seq: ReactionsSeq,
});
export const CommentCreatedMessage = Type.Object({
  type: Type.Literal('comment-created'),
  topic: PostTopicName,
  postId: Uuid,
  /** Without the viewer's own reaction (myReaction null): it is new. */
  comment: ReplyView,
  commentCount: Type.Integer({ minimum: 0 }),
});
export const CommentUpdatedMessage = Type.Object({
  type: Type.Literal('comment-updated'),
  topic: PostTopicName,
  postId: Uuid,
  commentId: Uuid,
  content: Type.String(),
  editedAt: IsoDate,
});
export const CommentDeletedMessage = Type.Object({
  type: Type.Literal('comment-deleted'),
  topic: PostTopicName,
  postId: Uuid,
  commentId: Uuid,
  commentCount: Type.Integer({ minimum: 0 }),
});
export const CommentReactionsMessage = Type.Object({
  type: Type.Literal('comment-reactions'),
  topic: PostTopicName,
  postId: Uuid,
  commentId: Uuid,
  reactions: ReactionCounts,
  seq: ReactionsSeq,
});

export const WallLiveMessage = Type.Union([
  FeedPostMessage,
  PostUpdatedMessage,
  PostDeletedMessage,
  PostReactionsMessage,
  CommentCreatedMessage,
  CommentUpdatedMessage,
  CommentDeletedMessage,
  CommentReactionsMessage,
]);
export type WallLiveMessage = Static<typeof WallLiveMessage>;
export type PostLiveMessage = Exclude<WallLiveMessage, { type: 'feed-post' }>;

/**
 * To the author on `user:{id}`: their clip became post `postId` ('published'), or could not be
 * processed ('failed', postId null; nothing of it is kept).
 */
export const VideoUploadMessage = Type.Object({
  type: Type.Literal('video-upload'),
  topic: Type.String({ pattern: '^user:[0-9a-f-]{36}$' }),
  uploadId: Uuid,
  status: Type.Union([Type.Literal('published'), Type.Literal('failed')]),
  postId: Type.Union([Uuid, Type.Null()]),
});
export type VideoUploadMessage = Static<typeof VideoUploadMessage>;

/**
 * The worker transcoded an uploaded clip ('transcoded': a server publishes the post, once) or gave
 * up on it ('failed': the author is told). Tolerates being heard twice.
 */
export const VideoUploadEvent = Type.Object({
  uploadId: Uuid,
  userId: Uuid,
  outcome: Type.Union([Type.Literal('transcoded'), Type.Literal('failed')]),
});
export type VideoUploadEvent = Static<typeof VideoUploadEvent>;

/**
 * A post's or a comment's reactions changed (after commit): every instance marks the item dirty and
 * its flusher publishes the counts, read again, to its own viewers at the next paced tick.
 */
export const ReactionsChangedEvent = Type.Object({
  type: Type.Literal('reactions-changed'),
  topic: PostTopicName,
  postId: Uuid,
  /** Null for the post's own reactions. */
  commentId: Type.Union([Uuid, Type.Null()]),
});
export type ReactionsChangedEvent = Static<typeof ReactionsChangedEvent>;

/**
 * The cluster event `wall.live`: the immediate messages as sent to viewers (a clip's outcome, the
 * `video-upload` message to its author's `user:{id}`), and reaction changes to pace.
 */
export const WallLiveEvent = Type.Union([
  FeedPostMessage,
  PostUpdatedMessage,
  PostDeletedMessage,
  CommentCreatedMessage,
  CommentUpdatedMessage,
  CommentDeletedMessage,
  ReactionsChangedEvent,
  VideoUploadMessage,
]);
export type WallLiveEvent = Static<typeof WallLiveEvent>;

// --- Routes -----------------------------------------------------------------------------------

const MULTIPART_NOTE = 'multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image types are sniffed from the bytes.';

export const WALL_ROUTES = defineRoutes({
  feed: {
    method: 'GET',
    path: '/api/posts',
    status: 200,
    tags: ['wall'],
    summary:
      "The wall: 10 posts a page by activity (default) or newest, keyset cursor; filters user, group, visibility, and 'Siguiendo' (following=true, signed in)",
    querystring: FeedQuery,
    response: FeedPage,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'wall.read',
  },
  getPost: {
    method: 'GET',
    path: '/api/posts/:postId',
    status: 200,
    tags: ['wall'],
    summary: 'One post as a card (a reconnecting reader catches up with it)',
    params: PostParams,
    response: PostView,
    errors: [400, 404, 429],
    rateLimit: 'wall.read',
  },
  createPost: {
    method: 'POST',
    path: '/api/posts',
    status: 201,
    tags: ['wall'],
    summary: 'Publish a post: text (≤2000) and up to 10 images (each under 10 MB)',
    description: `${MULTIPART_NOTE} Fields: content, groupId, visibility, one alt per image; files: images (up to 10).`,
    consumes: ['multipart/form-data'],
    response: PostView,
    errors: [400, 401, 403, 404, 406, 413, 415, 429, 503],
    rateLimit: 'wall.post-create',
    audience: 'writer',
  },
  createVideoPost: {
    method: 'POST',
    path: '/api/posts/video',
    status: 202,
    tags: ['wall'],
    summary: 'Post a video clip (MP4, MOV or WebM, ≤50 MB, ≤3 min) with text: processed by the worker, published when ready',
    description: `${MULTIPART_NOTE} Fields: content, groupId, visibility, alt; file: video (one). Answers the upload being processed; the post reaches the wall once the clip is transcoded.`,
    consumes: ['multipart/form-data'],
    response: VideoUploadView,
    errors: [400, 401, 403, 404, 406, 413, 415, 429, 503],
    rateLimit: 'wall.video-create',
    audience: 'writer',
  },
  listVideoUploads: {
    method: 'GET',
    path: '/api/me/video-uploads',
    status: 200,
    tags: ['wall'],
    summary: "The signed-in author's clips still being processed ('Procesando video…')",
    response: VideoUploadList,
    errors: [401, 429],
    rateLimit: 'wall.read',
    audience: 'user',
  },
  editPost: {
    method: 'PATCH',
    path: '/api/posts/:postId',
    status: 200,
    tags: ['wall'],
    summary: "Edit one's post (trimmed, non-empty, ≤2000); it shows 'Editado'",
    params: PostParams,
    body: EditPostInput,
    response: PostView,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'wall.edit',
    audience: 'writer',
  },
  deletePost: {
    method: 'DELETE',
    path: '/api/posts/:postId',
    status: 204,
    tags: ['wall'],
    summary: "Delete (hide) one's post, or any post as an admin",
    params: PostParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'wall.edit',
    audience: 'writer',
  },
  reactToPost: {
    method: 'POST',
    path: '/api/posts/:postId/reactions',
    status: 200,
    tags: ['wall'],
    summary: 'React to a post: a type replaces your reaction, the same type again removes it',
    params: PostParams,
    body: ReactInput,
    response: ReactionState,
    errors: [400, 401, 403, 404, 429, 503],
    rateLimit: 'wall.react',
    audience: 'writer',
  },
  listComments: {
    method: 'GET',
    path: '/api/posts/:postId/comments',
    status: 200,
    tags: ['wall'],
    summary: "A post's first 100 top-level comments, oldest first, each with its replies",
    params: PostParams,
    response: CommentList,
    errors: [400, 404, 429],
    rateLimit: 'wall.read',
  },
  createComment: {
    method: 'POST',
    path: '/api/posts/:postId/comments',
    status: 201,
    tags: ['wall'],
    summary: 'Comment on a post, or reply to a top-level comment (parentCommentId): text ≤500 and an optional image under 5 MB',
    description: `${MULTIPART_NOTE} Fields: content, parentCommentId, alt; file: image (one).`,
    consumes: ['multipart/form-data'],
    params: PostParams,
    response: CreatedComment,
    errors: [400, 401, 403, 404, 406, 413, 415, 429, 503],
    rateLimit: 'wall.comment-create',
    audience: 'writer',
  },
  editComment: {
    method: 'PATCH',
    path: '/api/comments/:commentId',
    status: 200,
    tags: ['wall'],
    summary: "Edit one's comment (trimmed, non-empty, ≤500)",
    params: CommentParams,
    body: EditCommentInput,
    response: ReplyView,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'wall.edit',
    audience: 'writer',
  },
  deleteComment: {
    method: 'DELETE',
    path: '/api/comments/:commentId',
    status: 200,
    tags: ['wall'],
    summary: "Delete (hide) one's comment and its replies, or any as an admin",
    params: CommentParams,
    response: DeletedComment,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'wall.edit',
    audience: 'writer',
  },
  reactToComment: {
    method: 'POST',
    path: '/api/comments/:commentId/reactions',
    status: 200,
    tags: ['wall'],
    summary: 'React to a comment (Me gusta): the same type again removes it',
    params: CommentParams,
    body: ReactInput,
    response: ReactionState,
    errors: [400, 401, 403, 404, 429, 503],
    rateLimit: 'wall.react',
    audience: 'writer',
  },
});
