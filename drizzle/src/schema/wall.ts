import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, lengthBetween, oneOf, updatedAt } from './columns.ts';
import { profiles } from './profiles.ts';
import { media } from './media.ts';

export const GROUP_PRIVACY = ['public', 'private'] as const;
export const GROUP_ROLES = ['admin', 'moderator', 'member'] as const;
export const POST_VISIBILITY = ['public', 'followers', 'group'] as const;
export const REACTION_TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
export const MEDIA_TYPES = ['image', 'video'] as const;

export const groups = pgTable(
  'groups',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    avatarUrl: text('avatar_url'),
    coverUrl: text('cover_url'),
    privacy: text('privacy', { enum: GROUP_PRIVACY }).notNull().default('public'),
    /** Who created it (its first admin); null once that account is gone. */
    createdBy: uuid('created_by').references((): AnyPgColumn => profiles.id, { onDelete: 'set null' }),
    /** Members now, kept by statement triggers on group_members (migration 0030): the directory sorts by it. */
    memberCount: integer('member_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('groups_name_len', lengthBetween(t.name, 1, 100)),
    check('groups_description_len', sql`char_length(${t.description}) <= 500`),
    check('groups_privacy', oneOf(t.privacy, GROUP_PRIVACY)),
    check('groups_member_count', sql`${t.memberCount} >= 0`),
    // The directory: most members first, keyset (member_count, id).
    index('groups_directory_idx').on(t.memberCount.desc(), t.id.desc()),
    index('groups_created_by_idx').on(t.createdBy),
  ],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    role: text('role', { enum: GROUP_ROLES }).notNull().default('member'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    check('group_members_role', oneOf(t.role, GROUP_ROLES)),
    index('group_members_user_idx').on(t.userId),
    // The members list: admins, then moderators, then members, oldest first (keyset).
    index('group_members_list_idx').on(t.groupId, t.joinedAt, t.userId),
  ],
);

/** A fan's request to join a private group, until one of its admins or moderators answers it. */
export const groupJoinRequests = pgTable(
  'group_join_requests',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('group_join_requests_group_idx').on(t.groupId, t.createdAt, t.userId),
    index('group_join_requests_user_idx').on(t.userId),
  ],
);

/** Fans a group's admins banned: they cannot join or ask to join again until unbanned. */
export const groupBans = pgTable(
  'group_bans',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    bannedBy: uuid('banned_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_bans_user_idx').on(t.userId)],
);

/**
 * Who follows whom. Counters on profiles (followers_count, following_count) are kept by statement
 * triggers (migration 0030). `followers` posts are readable by the author's followers.
 */
export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    followeeId: uuid('followee_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
    // Lists, newest first (keyset (created_at, id)): a profile's followers, and whom one follows.
    index('follows_followee_idx').on(t.followeeId, t.createdAt.desc(), t.followerId.desc()),
    index('follows_follower_idx').on(t.followerId, t.createdAt.desc(), t.followeeId.desc()),
  ],
);

export const posts = pgTable(
  'posts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    visibility: text('visibility', { enum: POST_VISIBILITY }).notNull().default('public'),
    isPinned: boolean('is_pinned').notNull().default(false),
    isHidden: boolean('is_hidden').notNull().default(false),
    /**
     * Hidden by moderation (issue 29; `isHidden` is then true as well, so every reader's predicate
     * leaves it out): its author still sees it, as 'Oculto por moderación'; 'Restaurar' clears both.
     */
    moderationHiddenAt: timestamp('moderation_hidden_at', { withTimezone: true }),
    /** Latest of creation and newest comment: the feed's activity sort key. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the content is edited ('Editado'). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('posts_content_len', sql`char_length(${t.content}) <= 2000`),
    check('posts_visibility', oneOf(t.visibility, POST_VISIBILITY)),
    check('posts_group_visibility', sql`${t.visibility} <> 'group' OR ${t.groupId} IS NOT NULL`),
    // Keyset paging of the global feed: (sort key, id) descending, visible posts without a group.
    index('posts_feed_recent_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`NOT ${t.isHidden} AND ${t.groupId} IS NULL`),
    index('posts_feed_activity_idx')
      .on(t.lastActivityAt.desc(), t.id.desc())
      .where(sql`NOT ${t.isHidden} AND ${t.groupId} IS NULL`),
    index('posts_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('posts_group_idx').on(t.groupId, t.createdAt.desc(), t.id.desc()),
    // A group's wall by activity (keyset), and its pinned posts.
    index('posts_group_activity_idx')
      .on(t.groupId, t.lastActivityAt.desc(), t.id.desc())
      .where(sql`NOT ${t.isHidden} AND ${t.groupId} IS NOT NULL`),
    index('posts_group_pinned_idx')
      .on(t.groupId, t.createdAt.desc())
      .where(sql`${t.isPinned} AND NOT ${t.isHidden} AND ${t.groupId} IS NOT NULL`),
  ],
);

/**
 * How many posts the public wall shows (visible, public, without a group), kept by triggers on
 * `posts` in the same transactions as the posts (migration 0022_feed_counts_triggers): the feed's
 * total is one row read instead of a count of every post, which cost a scan of the table each time
 * a new post dropped the cached total (several a second during an episode). The triggers upsert,
 * so a missing row counts from zero.
 */
export const feedCounts = pgTable(
  'feed_counts',
  {
    feed: text('feed').primaryKey(),
    posts: bigint('posts', { mode: 'number' }).notNull(),
  },
  (t) => [check('feed_counts_feed', sql`${t.feed} = 'public'`)],
);

export const postMedia = pgTable(
  'post_media',
  {
    id: id(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaType: text('media_type', { enum: MEDIA_TYPES }).notNull(),
    url: text('url').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    width: integer('width'),
    height: integer('height'),
    order: integer('order').notNull().default(0),
    /** The stored image (placeholder, dimensions); null only for rows older than the media pipeline. */
    mediaId: uuid('media_id').references(() => media.id, { onDelete: 'restrict' }),
    altText: text('alt_text'),
  },
  (t) => [
    check('post_media_type', oneOf(t.mediaType, MEDIA_TYPES)),
    check('post_media_order', sql`${t.order} BETWEEN 0 AND 9`),
    check('post_media_dimensions', sql`(${t.width} IS NULL OR ${t.width} > 0) AND (${t.height} IS NULL OR ${t.height} > 0)`),
    uniqueIndex('post_media_post_order_uq').on(t.postId, t.order),
    index('post_media_media_idx').on(t.mediaId),
    check('post_media_alt_len', sql`char_length(${t.altText}) <= 300`),
  ],
);

export const postReactions = pgTable(
  'post_reactions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    reactionType: text('reaction_type', { enum: REACTION_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One reaction per user per post.
    primaryKey({ columns: [t.postId, t.userId] }),
    check('post_reactions_type', oneOf(t.reactionType, REACTION_TYPES)),
    index('post_reactions_user_idx').on(t.userId),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: id(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    parentCommentId: uuid('parent_comment_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    mediaUrl: text('media_url'),
    mediaType: text('media_type', { enum: MEDIA_TYPES }),
    thumbnailUrl: text('thumbnail_url'),
    mediaId: uuid('media_id').references(() => media.id, { onDelete: 'restrict' }),
    mediaAlt: text('media_alt'),
    isHidden: boolean('is_hidden').notNull().default(false),
    /** Hidden by moderation (issue 29), as posts.moderation_hidden_at. */
    moderationHiddenAt: timestamp('moderation_hidden_at', { withTimezone: true }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('comments_content_len', lengthBetween(t.content, 1, 500)),
    check('comments_media_type', sql`${t.mediaType} IS NULL OR ${oneOf(t.mediaType, MEDIA_TYPES)}`),
    check('comments_not_own_parent', sql`${t.parentCommentId} IS NULL OR ${t.parentCommentId} <> ${t.id}`),
    index('comments_post_idx').on(t.postId, t.createdAt),
    index('comments_parent_idx').on(t.parentCommentId),
    index('comments_user_idx').on(t.userId, t.createdAt),
    index('comments_media_idx').on(t.mediaId),
    check('comments_media_alt_len', sql`char_length(${t.mediaAlt}) <= 300`),
  ],
);

export const commentReactions = pgTable(
  'comment_reactions',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    reactionType: text('reaction_type', { enum: REACTION_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One reaction per user per comment.
    primaryKey({ columns: [t.commentId, t.userId] }),
    check('comment_reactions_type', oneOf(t.reactionType, REACTION_TYPES)),
  ],
);

/** Rows per (item, reaction type) in the reaction counters: concurrent taps on one item mostly land on different rows. */
export const REACTION_COUNT_SHARDS = 8;

/**
 * Reactions per post and type, kept by statement-level triggers on `post_reactions` in the tap's own
 * transaction (migration 0026_reaction_counts_triggers): the tap's answer, feed cards and the post
 * page read at most types × REACTION_COUNT_SHARDS rows per post instead of counting its reactions,
 * so a post with a million reactions costs what a quiet one does. Sharded like poll_vote_counts
 * (shard = pg_backend_pid() % REACTION_COUNT_SHARDS of the writing connection), so a viral post's
 * concurrent taps do not queue on one row lock until their COMMIT; readers sum the shards (a shard
 * may hold a negative or zero count: only the sum means anything). Deleted with the post.
 */
export const postReactionCounts = pgTable(
  'post_reaction_counts',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    reactionType: text('reaction_type', { enum: REACTION_TYPES }).notNull(),
    shard: smallint('shard').notNull(),
    reactions: bigint('reactions', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'post_reaction_counts_pk', columns: [t.postId, t.reactionType, t.shard] })],
);

/** Reactions per comment and type, as postReactionCounts keeps them for posts (triggers on `comment_reactions`). */
export const commentReactionCounts = pgTable(
  'comment_reaction_counts',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    reactionType: text('reaction_type', { enum: REACTION_TYPES }).notNull(),
    shard: smallint('shard').notNull(),
    reactions: bigint('reactions', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'comment_reaction_counts_pk', columns: [t.commentId, t.reactionType, t.shard] })],
);

export const VIDEO_UPLOAD_STATUS = ['processing', 'transcoded'] as const;

/**
 * A video post on its way (issue 30): the clip as uploaded (`upload_key`, a file of the media
 * storage under `uploads/`) and the post's fields, until the worker has transcoded it
 * ('transcoded', with the media row of its MP4 and poster) and a server turns it into the post and
 * its post_media row in one transaction, deleting this row. The feed never reads this table.
 */
export const videoUploads = pgTable(
  'video_uploads',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    visibility: text('visibility', { enum: POST_VISIBILITY }).notNull(),
    altText: text('alt_text'),
    uploadKey: text('upload_key').notNull(),
    bytes: integer('bytes').notNull(),
    status: text('status', { enum: VIDEO_UPLOAD_STATUS }).notNull().default('processing'),
    mediaId: uuid('media_id').references(() => media.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('video_uploads_status', oneOf(t.status, VIDEO_UPLOAD_STATUS)),
    check('video_uploads_visibility', oneOf(t.visibility, POST_VISIBILITY)),
    check('video_uploads_content_len', sql`char_length(${t.content}) <= 2000`),
    check('video_uploads_alt_len', sql`char_length(${t.altText}) <= 300`),
    check('video_uploads_transcoded', sql`(${t.status} = 'transcoded') = (${t.mediaId} IS NOT NULL)`),
    uniqueIndex('video_uploads_upload_key_uq').on(t.uploadKey),
    index('video_uploads_user_idx').on(t.userId, t.createdAt),
    index('video_uploads_media_idx').on(t.mediaId),
  ],
);
