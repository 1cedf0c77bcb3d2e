import type { FastifyBaseLogger } from 'fastify';
import type {
  CommentList,
  CommentView,
  CreatedComment,
  DeletedComment,
  FeedPage,
  FeedQuery,
  PostView,
  ReactionState,
  ReplyView,
  WallLiveEvent,
} from '@tribuna/contracts/api/wall';
import { SAFE_MULTILINE_PATTERN } from '@tribuna/contracts/api/common';
import { PROFILE_LIMITS } from '@tribuna/contracts/profileRules';
import { groupTopic, postTopic } from '@tribuna/contracts/liveTopics';
import type { GroupPostMessage } from '@tribuna/contracts/api/groups';
import { POST_VISIBILITIES, WALL_LIMITS, WALL_MESSAGES, type PostVisibility, type ReactionType } from '@tribuna/contracts/wallRules';
import type { Db, Tx } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.ts';
import type { IngestFile, StoredImage } from '../media/service.ts';
import { insertMedia } from '../media/service.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { presentComment, presentPost, presentReactions, presentThread } from './presenter.ts';
import * as repo from './repository.ts';
import type { FeedFilters } from './repository.ts';
import * as access from '../access/policy.ts';
import type { Viewer } from '../access/policy.ts';
import type { WallCache } from './live.ts';
import type { WallActivity } from './activity.ts';
import { runAfterCommit, type AfterCommit } from '../events/bus.ts';
import type { ReactionWriter } from './reactionWriter.ts';

export type { Viewer } from '../access/policy.ts';

/** What the wall needs of the media pipeline (app.media). */
export interface WallMedia {
  ingest(file: IngestFile): Promise<StoredImage>;
  discard(images: StoredImage[]): Promise<void>;
}

export interface WallContext {
  /** For transactions. */
  db: Db;
  /** The batched writer of reaction taps. */
  reactions: Pick<ReactionWriter, 'tap'>;
  /** Reads outside transactions, as prepared statements (planned once per connection, not per page). */
  reader: SqlRunner;
  media: WallMedia;
  /** Hands a change to the live viewers of every instance, after commit. Never throws. */
  publish(message: WallLiveEvent): Promise<void>;
  /** The same for a group's wall (the `group.live` event): a new post there. Never throws. */
  publishGroup(message: GroupPostMessage): Promise<void>;
  /** The public wall's shared pages and total; dropped when posts appear, change or disappear. */
  cache: WallCache;
  /**
   * Whom a reader hides from their walls: mutes, blocks either way (issue 29; kept in memory by the
   * safety domain, safety/flags.ts): null for nobody, the authors' ids when a few, 'many' beyond.
   */
  hiddenAuthors(readerId: string): Promise<ReadonlySet<string> | 'many' | null>;
  /**
   * Runs the other domains' statements for what someone wrote inside its transaction `tx` (the
   * `wall.written` transactional event: the notifications); resolves to their after-commit work.
   */
  joinTransaction(tx: SqlRunner, event: WallActivity): Promise<AfterCommit[]>;
  log: FastifyBaseLogger;
}

/** A signed-in writer (requireWriter passed). */
export interface Writer {
  id: string;
  isAdmin: boolean;
  /** A site moderator: may delete any post or comment they can see (access/policy.ts mayDeleteFromWall). */
  isModerator?: boolean;
}

/** Fields and files of a multipart request, as read by media/uploads.ts. */
export interface UploadInput {
  fields: Record<string, string[]>;
  /** Each file is a temporary file at `path` (streamed there by readUploads, removed after the request). */
  files: { field: string; filename: string; declaredType: string; path: string; bytes: number }[];
}

const SAFE_MULTILINE = new RegExp(SAFE_MULTILINE_PATTERN, 'u');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const single = (fields: Record<string, string[]>, name: string): string | undefined => {
  const values = fields[name];
  if (values && values.length > 1) throw badRequest(`${name} must be sent once`);
  return values?.[0];
};

/** Trimmed text of a post or comment: no control characters, within `max` (the spec's message otherwise). */
function cleanText(raw: string, max: number, tooLong: string): string {
  if (!SAFE_MULTILINE.test(raw)) throw badRequest('content must not contain control characters (other than line breaks and tabs) or invalid Unicode');
  const text = raw.trim();
  if ([...text].length > max) throw badRequest(tooLong);
  return text;
}

export function altTexts(fields: Record<string, string[]>, images: number): (string | null)[] {
  const alts = fields.alt ?? [];
  if (alts.length > Math.max(images, 0)) throw badRequest(WALL_MESSAGES.tooManyAlts);
  return Array.from({ length: images }, (_, i) => {
    const alt = (alts[i] ?? '').trim();
    if (!alt) return null;
    if (!SAFE_MULTILINE.test(alt)) throw badRequest('alt must not contain control characters or invalid Unicode');
    if ([...alt].length > WALL_LIMITS.altText) throw badRequest(WALL_MESSAGES.altTooLong);
    return alt;
  });
}

// --- Reads ----------------------------------------------------------------------------------------

export async function getFeed(ctx: WallContext, query: FeedQuery, viewer: Viewer | null): Promise<FeedPage> {
  const sort = query.sort ?? 'activity';
  const after = query.cursor ? decodeCursor(sort, query.cursor) : null;
  if (query.cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  if (query.groupId) await assertGroupReadable(ctx, query.groupId, viewer);
  // The 'Siguiendo' wall is the signed-in reader's own.
  if (query.following && !viewer) throw unauthorized(WALL_MESSAGES.notAuthenticated);
  // The walls leave out the people a reader muted or is in a block with (issue 29); a profile's posts
  // tab leaves out only a blocked profile's (the access policy's readableBy), as the post page does.
  const hidden = viewer !== null && !query.userId ? await ctx.hiddenAuthors(viewer.id) : null;
  const hides = viewer !== null && hidden !== null;
  // A group's wall (groupId) shows its pinned posts on top of its first page, never in its pages.
  const filters = {
    sort,
    userId: query.userId,
    groupId: query.groupId,
    visibility: query.visibility,
    followedBy: query.following ? viewer?.id : undefined,
    unpinned: query.groupId !== undefined,
    hiddenAuthorsOf: hides ? viewer.id : undefined,
  };
  // A profile's posts tab: pages of 20; anybody but the owner, admins included, reads it as a plain reader.
  const size = query.userId ? PROFILE_LIMITS.pageSize : WALL_LIMITS.feedPageSize;
  const reader = query.userId && viewer?.isAdmin && viewer.id !== query.userId ? { ...viewer, isAdmin: false } : viewer;
  const pinnedOf = query.groupId && !after ? query.groupId : undefined;
  const [rows, total] = isPublicWall(filters)
    ? await Promise.all([publicWallPage(ctx, filters, query.cursor ?? null, after, viewer, hidden), publicWallTotal(ctx).then((n) => ({ total: n }))])
    : isGroupWall(filters)
      ? // The total is the group's for all its readers (shared): a reader's hidden authors are not taken off it.
        await Promise.all([
          groupWallPage(ctx, filters, query.cursor ?? null, after, viewer, hidden),
          feedTotal(ctx, { ...filters, hiddenAuthorsOf: undefined }, reader),
        ])
      : isFollowingWall(filters)
        ? await Promise.all([followingWallPage(ctx, filters, after), followingWallTotal(ctx, filters)])
        : await Promise.all([repo.feedPage(ctx.reader, filters, reader, after, size + 1, pinnedOf), feedTotal(ctx, filters, reader)]);
  // The first page of a group's wall comes with its pinned posts, in the same statement.
  const pinned = pinnedOf ? rows.filter((row) => row.is_pinned) : null;
  const listed = pinnedOf ? rows.filter((row) => !row.is_pinned) : rows;
  const page = listed.slice(0, size);
  const hasMore = listed.length > size;
  const last = page.at(-1);
  return {
    ...(pinned ? { pinned: pinned.map(presentPost) } : {}),
    posts: page.map(presentPost),
    ...total,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(sort, { atMicros: last.sort_micros, id: last.id }) : null,
  };
}

/**
 * The wall without a user or group filter: public posts without a group, the same for every reader
 * (followers-only posts are shown on their author's profile, not here). Its pages and total are
 * shared by all readers for a moment (pageCache.ts, totals.ts).
 */
function isPublicWall(filters: FeedFilters): boolean {
  return !filters.userId && !filters.groupId && !filters.followedBy && (filters.visibility === undefined || filters.visibility === 'public');
}

/** A group's own wall (no author or visibility filter): the same rows for everybody who may read the group. */
function isGroupWall(filters: FeedFilters): filters is FeedFilters & { groupId: string } {
  return filters.groupId !== undefined && !filters.userId && !filters.followedBy && filters.visibility === undefined;
}

/**
 * A shared page of a group's wall (its first page with the pinned posts), read for all its readers
 * once the viewer's access was checked (assertGroupReadable above), with the reader's own reactions
 * read apart: during an episode a fan club's members open the same first pages, as the public
 * wall's readers do. A new post in the group drops the shared pages (announcePost, and the
 * `group.live` event on the other instances); a pin shows within the pages' moment (1 s).
 */
async function groupWallPage(
  ctx: WallContext,
  filters: FeedFilters & { groupId: string },
  cursor: string | null,
  after: ReturnType<typeof decodeCursor>,
  viewer: Viewer | null,
  hidden: ReadonlySet<string> | 'many' | null,
): Promise<repo.PostRow[]> {
  const pinnedOf = after ? undefined : filters.groupId;
  const shared = () =>
    ctx.cache.pages.get(`group:${filters.groupId}:${filters.sort}:${cursor ?? ''}`, () =>
      repo.feedPage(ctx.reader, { ...filters, hiddenAuthorsOf: undefined, forGroupReaders: true }, null, after, SHARED_PAGE_ROWS, pinnedOf),
    );
  const personal = (readerId: string) => personalWallPage(ctx, { ...filters, forGroupReaders: true }, readerId, after, pinnedOf);
  return sharedOrOwnPage(ctx, shared, personal, viewer, filters.hiddenAuthorsOf, hidden);
}

/**
 * Rows in a shared page of the public or a group's wall: three pages' worth, so that a reader who
 * hides a few authors (issue 29) still fills a page from it most of the time (sharedOrOwnPage).
 */
const SHARED_PAGE_ROWS = WALL_LIMITS.feedPageSize * 3 + 1;

/**
 * A page of a wall everybody shares, for this viewer: the shared rows (with the viewer's own
 * reactions, one statement) for a reader who hides nobody, and for one who hides a few authors
 * (their ids in memory) when the shared rows still fill a page without them (or hold the wall's
 * end); otherwise the reader's own page (personalWallPage). The rows past a page only say that there
 * is more (getFeed keeps the first page's worth).
 */
async function sharedOrOwnPage(
  ctx: WallContext,
  shared: () => Promise<repo.PostRow[]>,
  personal: (readerId: string) => Promise<repo.PostRow[]>,
  viewer: Viewer | null,
  hiddenAuthorsOf: string | undefined,
  hidden: ReadonlySet<string> | 'many' | null,
): Promise<repo.PostRow[]> {
  if (!hiddenAuthorsOf) return withMyReactions(ctx, pageWorth(await shared()), viewer);
  if (hidden instanceof Set) {
    const rows = await shared();
    const listed = rows.filter((row) => !row.is_pinned);
    const kept = rows.filter((row) => !hidden.has(row.author_id));
    const keptListed = kept.filter((row) => !row.is_pinned).length;
    if (keptListed > WALL_LIMITS.feedPageSize || listed.length < SHARED_PAGE_ROWS) return withMyReactions(ctx, pageWorth(kept), viewer);
  }
  return personal(hiddenAuthorsOf);
}

/**
 * What a page shows of a shared page's rows: its pinned posts, and a page of the others plus one
 * (which only says that there is more). The reader's own reactions are read for these alone.
 */
function pageWorth(rows: repo.PostRow[]): repo.PostRow[] {
  let listed = 0;
  return rows.filter((row) => row.is_pinned || listed++ <= WALL_LIMITS.feedPageSize);
}

/** A reader's 'Siguiendo' wall (following=true, no author or group filter). */
function isFollowingWall(filters: FeedFilters): filters is FeedFilters & { followedBy: string } {
  return filters.followedBy !== undefined && !filters.userId && !filters.groupId;
}

/**
 * A page of a reader's 'Siguiendo' wall: which posts (with the reader's reactions) is the reader's
 * own statement; their cards are the same for everybody and shared for a moment among readers
 * (cardCache.ts; the missing ones in one statement). During an episode the fans who follow the
 * same contestants and hosts read mostly the same posts, as the public wall's readers do.
 */
async function followingWallPage(
  ctx: WallContext,
  filters: FeedFilters & { followedBy: string },
  after: ReturnType<typeof decodeCursor>,
): Promise<repo.PostRow[]> {
  const entries = await repo.followingPage(
    ctx.reader,
    filters.followedBy,
    filters.sort,
    filters.visibility,
    after,
    WALL_LIMITS.feedPageSize + 1,
    filters.hiddenAuthorsOf !== undefined,
  );
  return withSharedCards(ctx, entries);
}

/**
 * A reader's own page of a wall everybody else shares (the public wall, a group's: `filters` as they
 * read it), for a reader who hides authors (issue 29, `readerId` = filters.hiddenAuthorsOf): which
 * posts (with the reader's reactions) is the reader's own statement, walking the shared page's index
 * with their mutes and blocks in one hashed subplan; the cards are the shared ones (cardCache.ts).
 * The same statements per page as a shared page's (ids, missing cards), and the same keyset: the
 * cursors of both paths mean the same position.
 */
async function personalWallPage(
  ctx: WallContext,
  filters: FeedFilters,
  readerId: string,
  after: ReturnType<typeof decodeCursor>,
  pinnedOf?: string,
): Promise<repo.PostRow[]> {
  const entries = await repo.feedEntries(ctx.reader, filters, readerId, after, WALL_LIMITS.feedPageSize + 1, pinnedOf);
  return withSharedCards(ctx, entries);
}

/** Cards for a reader's own page's entries: the shared ones (cardCache.ts; the missing ones in one statement), with the entry's position and reaction. */
async function withSharedCards(ctx: WallContext, entries: repo.FollowingEntry[]): Promise<repo.PostRow[]> {
  const cards = new Map(
    (
      await ctx.cache.cards.getMany(
        entries.map((entry) => entry.id),
        (missing) => repo.postCards(ctx.reader, missing),
      )
    ).map((card) => [card.id, card]),
  );
  // A post deleted between the two reads is left out (its entry has no card).
  return entries.flatMap((entry) => {
    const card = cards.get(entry.id);
    return card ? [{ ...card, sort_micros: entry.sort_micros, my_reaction: entry.my_reaction }] : [];
  });
}

/**
 * A reader's 'Siguiendo' wall's total, counted up to a cap (a reader following a thousand active
 * fans would otherwise count tens of thousands of posts) and kept while they page through it
 * (WALL_LIMITS.followingTotalTtlMs): during an episode posts appear every moment, and dropping every
 * reader's total with each would count them again on nearly every page.
 */
async function followingWallTotal(ctx: WallContext, filters: FeedFilters & { followedBy: string }): Promise<{ total: number; totalCapped?: boolean }> {
  const cap = WALL_LIMITS.followingTotalCap;
  const key = `following:${filters.followedBy}:${filters.visibility ?? 'all'}`;
  const cached = ctx.cache.followingTotals.get(key);
  const counted = cached ?? (await repo.followingTotal(ctx.reader, filters.followedBy, filters.visibility, cap + 1, filters.hiddenAuthorsOf !== undefined));
  if (cached === null) ctx.cache.followingTotals.set(key, counted);
  return counted > cap ? { total: cap, totalCapped: true } : { total: counted };
}

/** Rows of a shared page with the viewer's own reactions, read apart (one statement). */
async function withMyReactions(ctx: WallContext, rows: repo.PostRow[], viewer: Viewer | null): Promise<repo.PostRow[]> {
  if (!viewer || rows.length === 0) return rows;
  const mine = await repo.myPostReactions(
    ctx.reader,
    viewer.id,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, my_reaction: mine.get(row.id) ?? null }));
}

/**
 * The total of a filtered wall. A group's wall (the same for everybody who may read the group) keeps
 * its total for a moment while somebody pages through it (totals.ts).
 */
async function feedTotal(ctx: WallContext, filters: FeedFilters, reader: Viewer | null): Promise<{ total: number }> {
  const key = filters.groupId && !filters.userId && !filters.visibility ? `group:${filters.groupId}:${filters.unpinned ? 'unpinned' : 'all'}` : null;
  const cached = key ? ctx.cache.totals.get(key) : null;
  const counted = cached ?? (await repo.feedTotal(ctx.reader, filters, reader));
  if (key && cached === null) ctx.cache.totals.set(key, counted);
  return { total: counted };
}

/**
 * A shared page of the public wall, with the reader's own reactions read apart (one statement); for a
 * reader who hides authors (issue 29), their own page (personalWallPage). Its total stays the wall's
 * (publicWallTotal: shared, never less a reader's hidden authors; no screen shows it).
 */
async function publicWallPage(
  ctx: WallContext,
  filters: FeedFilters,
  cursor: string | null,
  after: ReturnType<typeof decodeCursor>,
  viewer: Viewer | null,
  hidden: ReadonlySet<string> | 'many' | null,
): Promise<repo.PostRow[]> {
  const sort = filters.sort;
  const shared = () =>
    ctx.cache.pages.get(`${sort}:${cursor ?? ''}`, () => repo.feedPage(ctx.reader, { sort, visibility: 'public' }, null, after, SHARED_PAGE_ROWS));
  const personal = (readerId: string) => personalWallPage(ctx, { sort, visibility: 'public', hiddenAuthorsOf: readerId }, readerId, after);
  return sharedOrOwnPage(ctx, shared, personal, viewer, filters.hiddenAuthorsOf, hidden);
}

async function publicWallTotal(ctx: WallContext): Promise<number> {
  const cached = ctx.cache.totals.get('public');
  if (cached !== null) return cached;
  const total = await repo.publicFeedCount(ctx.reader);
  ctx.cache.totals.set('public', total);
  return total;
}

async function assertGroupReadable(ctx: WallContext, groupId: string, viewer: Viewer | null): Promise<void> {
  const decision = await access.mayReadGroup(ctx.reader, groupId, viewer);
  if (decision === 'not-found') throw notFound(WALL_MESSAGES.groupNotFound);
  if (decision === 'forbidden') throw forbidden(WALL_MESSAGES.groupForbidden);
}

export async function getPost(ctx: WallContext, postId: string, viewer: Viewer | null): Promise<PostView> {
  const row = await repo.findPostCard(ctx.reader, postId, viewer);
  if (!row) throw notFound(WALL_MESSAGES.postNotFound);
  return presentPost(row);
}

/** A post as anybody may see it (a visitor's rules: public posts only), for a link preview; null otherwise. */
export async function findPublicPost(db: SqlRunner, postId: string): Promise<PostView | null> {
  const row = await repo.findPostCard(db, postId, null);
  return row ? presentPost(row) : null;
}

export async function listComments(ctx: WallContext, postId: string, viewer: Viewer | null): Promise<CommentList> {
  // The author of a post hidden by moderation still reads its page, comments included.
  if (!(await access.mayReadPostPage(ctx.reader, postId, viewer))) throw notFound(WALL_MESSAGES.postNotFound);
  const [rows, commentCount] = await Promise.all([
    repo.listComments(ctx.reader, postId, viewer, WALL_LIMITS.commentsLoaded),
    repo.visibleCommentCount(ctx.reader, postId),
  ]);
  return { comments: presentThread(rows), commentCount };
}

// --- Posts ----------------------------------------------------------------------------------------

/**
 * Publishes a post: text and up to 10 images (already limited while streaming). Text rules first,
 * then each image through the pipeline, then one transaction for the post, its media and their
 * rows. A failure after images were stored discards the files no row names: nothing is left behind.
 */
export async function createPost(ctx: WallContext, writer: Writer, input: UploadInput): Promise<PostView> {
  const images = input.files.filter((f) => f.field === 'images');
  if (images.length > WALL_LIMITS.postImages) throw badRequest(WALL_MESSAGES.tooManyFiles);
  const { content, groupId, visibility } = await postTarget(ctx, writer, input.fields, images.length);
  const alts = altTexts(input.fields, images.length);

  const stored: StoredImage[] = [];
  let postId: string;
  let after: AfterCommit[];
  try {
    for (const image of images) stored.push(await ctx.media.ingest({ path: image.path, declaredType: image.declaredType }));
    ({ postId, after } = await ctx.db.transaction(async (tx) => {
      const media: repo.NewPostMedia[] = [];
      for (const [i, image] of stored.entries()) {
        const mediaId = await insertMedia(tx, image, writer.id);
        media.push({
          mediaType: 'image',
          mediaId,
          url: image.url,
          thumbnailUrl: image.thumbnailUrl,
          width: image.width,
          height: image.height,
          altText: alts[i] ?? null,
        });
      }
      const id = await repo.insertPost(tx, { userId: writer.id, groupId, content, visibility }, media);
      return { postId: id, after: await ctx.joinTransaction(drizzleRunner(tx), { kind: 'post-written', postId: id, actorId: writer.id, content }) };
    }));
  } catch (err) {
    await ctx.media.discard(stored).catch((discardErr: unknown) => ctx.log.warn({ err: discardErr }, 'discarding the images of a failed post failed'));
    throw err;
  }

  const view = await getPost(ctx, postId, writer);
  await announcePost(ctx, { postId, authorId: writer.id, groupId, visibility }, after);
  return view;
}

/** Where a new post goes and what it says (POST /api/posts and POST /api/posts/video alike). */
export interface PostTarget {
  /** Trimmed; empty only for a post with media. */
  content: string;
  groupId: string | null;
  visibility: PostVisibility;
}

/**
 * The text, group and visibility of a new post with `mediaCount` images or clips, by the spec's
 * rules: the text within its limit and not empty without media, the visibility 'group' with a
 * group and 'public' without one unless another is asked, and the writer a member of the group
 * (or an admin); refused with the spec's messages otherwise.
 */
export async function postTarget(ctx: WallContext, writer: Writer, fields: Record<string, string[]>, mediaCount: number): Promise<PostTarget> {
  const content = cleanText(single(fields, 'content') ?? '', WALL_LIMITS.postText, WALL_MESSAGES.postTooLong);
  if (!content && mediaCount === 0) throw badRequest(WALL_MESSAGES.empty);
  const groupId = single(fields, 'groupId')?.trim() || null;
  if (groupId !== null && !UUID.test(groupId)) throw badRequest('groupId must be a UUID');
  const requested = single(fields, 'visibility')?.trim() || null;
  if (requested !== null && !(POST_VISIBILITIES as readonly string[]).includes(requested)) {
    throw badRequest(`visibility must be one of ${POST_VISIBILITIES.join(', ')}`);
  }
  // The spec's default: group when a group is given, else public.
  const visibility = (requested ?? (groupId ? 'group' : 'public')) as PostVisibility;
  if (visibility === 'group' && !groupId) throw badRequest(WALL_MESSAGES.groupRequired);
  // Followers-only posts are read by the author's followers, wherever they are: never inside a group.
  if (visibility === 'followers' && groupId) throw badRequest(WALL_MESSAGES.followersNotInGroup);
  if (groupId) {
    const decision = await access.mayPostInGroup(ctx.reader, groupId, writer);
    if (decision === 'not-found') throw notFound(WALL_MESSAGES.groupNotFound);
    if (decision === 'forbidden') throw forbidden(WALL_MESSAGES.groupForbidden);
  }
  return { content, groupId, visibility };
}

/**
 * After a new post's commit (a post, or a clip once transcoded): the public wall's shared pages
 * are dropped and its readers told ('N publicaciones nuevas') when the post is on it; then the
 * participants' after-commit work (mention badges).
 */
export async function announcePost(
  ctx: WallContext,
  post: { postId: string; authorId: string; groupId: string | null; visibility: PostVisibility },
  after: AfterCommit[],
): Promise<void> {
  if (post.groupId === null && post.visibility === 'public') {
    ctx.cache.invalidate();
    await ctx.publish({ type: 'feed-post', topic: 'feed', postId: post.postId, authorId: post.authorId });
  }
  // A group's readers see 'N publicaciones nuevas' on its wall (the group topic's handler checks who
  // reads it); its shared pages are dropped here, and on the other instances by the group.live event.
  if (post.groupId !== null) {
    ctx.cache.invalidate();
    await ctx.publishGroup({ type: 'group-post', topic: groupTopic(post.groupId), groupId: post.groupId, postId: post.postId, authorId: post.authorId });
  }
  await afterWrite(ctx, after);
}

export async function editPost(ctx: WallContext, writer: Writer, postId: string, rawContent: string): Promise<PostView> {
  const content = cleanText(rawContent, WALL_LIMITS.postText, WALL_MESSAGES.postTooLong);
  if (!content) throw badRequest(WALL_MESSAGES.editEmpty);
  const { editedAt, after } = await ctx.db.transaction(async (tx) => {
    const post = await repo.lockPost(tx, postId, writer);
    // What the writer cannot see (hidden, or in a group they may not read) does not exist for them.
    if (!post || post.isHidden || !post.visible) throw notFound(WALL_MESSAGES.postNotFound);
    if (!access.mayModify(writer, post.userId, { admins: false })) throw forbidden(WALL_MESSAGES.notAuthorizedEditPost);
    const at = await repo.updatePostContent(tx, postId, content);
    return { editedAt: at, after: await ctx.joinTransaction(drizzleRunner(tx), { kind: 'post-written', postId, actorId: writer.id, content }) };
  });
  ctx.cache.invalidate(postId);
  await ctx.publish({ type: 'post-updated', topic: postTopic(postId), postId, content, editedAt });
  await afterWrite(ctx, after);
  return getPost(ctx, postId, writer);
}

/** Soft delete, by the owner, an admin, or the admins and moderators of the post's group. */
export async function deletePost(ctx: WallContext, writer: Writer, postId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const post = await repo.lockPost(tx, postId, writer);
    if (!post || post.isHidden || !post.visible) throw notFound(WALL_MESSAGES.postNotFound);
    if (!(await access.mayDeleteFromWall(drizzleRunner(tx), writer, { ownerId: post.userId, groupId: post.groupId }))) {
      throw forbidden(WALL_MESSAGES.notAuthorizedDeletePost);
    }
    await repo.hidePost(tx, postId);
  });
  ctx.cache.invalidate(postId);
  await ctx.publish({ type: 'post-deleted', topic: postTopic(postId), postId });
}

export async function reactToPost(ctx: WallContext, writer: Writer, postId: string, type: ReactionType): Promise<ReactionState> {
  // Batched with the same instant's taps (reactionWriter.ts); viewers get paced snapshots (live.ts).
  const { mine, counts } = await ctx.reactions.tap('post', { itemId: postId, userId: writer.id, isAdmin: writer.isAdmin, type });
  return { reactions: presentReactions(counts), myReaction: mine };
}

// --- Comments -------------------------------------------------------------------------------------

/** A comment or a reply (to a top-level comment of the same post only), with an optional image. */
export async function createComment(ctx: WallContext, writer: Writer, postId: string, input: UploadInput): Promise<CreatedComment> {
  const content = cleanText(single(input.fields, 'content') ?? '', WALL_LIMITS.commentText, WALL_MESSAGES.commentTooLong);
  if (!content) throw badRequest(WALL_MESSAGES.commentEmpty);
  const images = input.files.filter((f) => f.field === 'image');
  if (images.length > 1) throw badRequest(WALL_MESSAGES.commentOneImage);
  const [alt] = altTexts(input.fields, images.length);
  const parentCommentId = single(input.fields, 'parentCommentId')?.trim() || null;
  if (parentCommentId !== null && !UUID.test(parentCommentId)) throw badRequest('parentCommentId must be a UUID');

  if (!(await access.mayReadPost(ctx.reader, postId, writer))) throw notFound(WALL_MESSAGES.postNotFound);
  if (parentCommentId) await assertReplyable(ctx, postId, parentCommentId, writer);

  const stored: StoredImage[] = [];
  let commentId: string;
  let after: AfterCommit[];
  try {
    const image = images[0];
    if (image) stored.push(await ctx.media.ingest({ path: image.path, declaredType: image.declaredType }));
    ({ commentId, after } = await ctx.db.transaction(async (tx) => {
      const img = stored[0];
      const media = img ? { mediaId: await insertMedia(tx, img, writer.id), url: img.url, thumbnailUrl: img.thumbnailUrl, alt: alt ?? null } : null;
      const id = await repo.insertComment(tx, { postId, userId: writer.id, parentCommentId, content, media });
      const event: WallActivity = { kind: 'comment-created', commentId: id, postId, parentCommentId, actorId: writer.id, content };
      return { commentId: id, after: await ctx.joinTransaction(drizzleRunner(tx), event) };
    }));
  } catch (err) {
    await ctx.media.discard(stored).catch((discardErr: unknown) => ctx.log.warn({ err: discardErr }, 'discarding the image of a failed comment failed'));
    throw err;
  }

  const [row, commentCount] = await Promise.all([repo.findComment(ctx.reader, commentId, writer), repo.visibleCommentCount(ctx.reader, postId)]);
  const comment = presentComment(row!);
  await ctx.publish({ type: 'comment-created', topic: postTopic(postId), postId, comment: { ...comment, myReaction: null }, commentCount });
  await afterWrite(ctx, after);
  return { comment, commentCount };
}

/** The participants' after-commit work (live badges): best-effort, failures logged, never thrown back. */
const afterWrite = (ctx: WallContext, after: AfterCommit[]) => runAfterCommit(after, ctx.log, 'after-commit work of a wall write');

async function assertReplyable(ctx: WallContext, postId: string, parentCommentId: string, writer: Writer): Promise<void> {
  const parent = await repo.findCommentTarget(ctx.reader, parentCommentId);
  if (!parent || parent.isHidden || parent.postId !== postId) throw notFound(WALL_MESSAGES.parentNotFound);
  // A comment of somebody in a block with the writer (issue 29) is not there for them.
  if (parent.userId !== writer.id && (await access.blockedBetween(ctx.reader, writer.id, parent.userId))) throw notFound(WALL_MESSAGES.parentNotFound);
  // Replies are one level deep: a reply to a reply is refused.
  if (parent.parentCommentId !== null) throw badRequest(WALL_MESSAGES.replyDepth);
}

export async function editComment(ctx: WallContext, writer: Writer, commentId: string, rawContent: string): Promise<ReplyView> {
  const content = cleanText(rawContent, WALL_LIMITS.commentText, WALL_MESSAGES.commentTooLong);
  if (!content) throw badRequest(WALL_MESSAGES.commentEmpty);
  const { postId, editedAt, after } = await ctx.db.transaction(async (tx) => {
    const comment = await repo.lockComment(tx, commentId, writer);
    if (!comment || comment.isHidden || !comment.visible) throw notFound(WALL_MESSAGES.commentNotFound);
    if (!access.mayModify(writer, comment.userId, { admins: false })) throw forbidden(WALL_MESSAGES.notAuthorizedEditComment);
    const at = await repo.updateCommentContent(tx, commentId, content);
    const event: WallActivity = { kind: 'comment-edited', commentId, postId: comment.postId, actorId: writer.id, content };
    return { postId: comment.postId, editedAt: at, after: await ctx.joinTransaction(drizzleRunner(tx), event) };
  });
  await ctx.publish({ type: 'comment-updated', topic: postTopic(postId), postId, commentId, content, editedAt });
  await afterWrite(ctx, after);
  const row = await repo.findComment(ctx.reader, commentId, writer);
  return presentComment(row!);
}

export async function deleteComment(ctx: WallContext, writer: Writer, commentId: string): Promise<DeletedComment> {
  const postId = await ctx.db.transaction(async (tx) => {
    const comment = await repo.lockComment(tx, commentId, writer);
    if (!comment || comment.isHidden || !comment.visible) throw notFound(WALL_MESSAGES.commentNotFound);
    if (!(await access.mayDeleteFromWall(drizzleRunner(tx), writer, { ownerId: comment.userId, groupId: comment.groupId }))) {
      throw forbidden(WALL_MESSAGES.notAuthorizedDeleteComment);
    }
    await repo.hideComment(tx, commentId);
    return comment.postId;
  });
  const commentCount = await repo.visibleCommentCount(ctx.reader, postId);
  await ctx.publish({ type: 'comment-deleted', topic: postTopic(postId), postId, commentId, commentCount });
  return { commentCount };
}

export async function reactToComment(ctx: WallContext, writer: Writer, commentId: string, type: ReactionType): Promise<ReactionState> {
  const { mine, counts } = await ctx.reactions.tap('comment', { itemId: commentId, userId: writer.id, isAdmin: writer.isAdmin, type });
  return { reactions: presentReactions(counts), myReaction: mine };
}

// --- Moderation (issue 29: the moderation domain's actions on the wall, in its transactions) --------

/** A post or a comment of the wall. */
export interface WallItem {
  kind: 'post' | 'comment';
  id: string;
}

const tableOf = (item: WallItem) => (item.kind === 'post' ? 'posts' : 'comments');

/**
 * 'Ocultar' (`hidden`) inside the moderator's transaction `tx`: the item leaves every wall and
 * thread for everybody but its author, who reads it as 'Oculto por moderación'; or 'Restaurar': it is
 * shown again as before. Whether it changed (only a visible item is hidden, only a hidden one restored).
 * Readers are told after commit (removalEvent; a restored post reappears on their next read).
 */
export function setHiddenByModeration(tx: Tx, item: WallItem, hidden: boolean, at: Date): Promise<boolean> {
  return repo.setModerationHidden(tx, tableOf(item), item.id, hidden, at);
}

/** 'Eliminar' inside the moderator's transaction: the soft delete its author's own deletion does (deletePost, deleteComment). */
export async function deleteByModeration(tx: Tx, item: WallItem): Promise<void> {
  if (item.kind === 'post') await repo.hidePost(tx, item.id);
  else await repo.hideComment(tx, item.id);
}

/**
 * What the wall's readers hear, after commit, when an item left it (hidden or deleted by
 * moderation): the message its deletion sends on `post:{postId}`, so open walls and threads drop it
 * and every instance's shared pages and cards are dropped (published as the `wall.live` event).
 */
export async function removalEvent(db: SqlRunner, item: WallItem, postId: string): Promise<WallLiveEvent> {
  if (item.kind === 'post') return { type: 'post-deleted', topic: postTopic(postId), postId };
  return { type: 'comment-deleted', topic: postTopic(postId), postId, commentId: item.id, commentCount: await repo.visibleCommentCount(db, postId) };
}

/**
 * Posts and comments as their readers see them (images included, no reader's own reaction), whatever
 * their state (those hidden by moderation marked so): the moderation queue shows the reported ones.
 */
export async function moderatedItems(
  db: SqlRunner,
  postIds: string[],
  commentIds: string[],
): Promise<{ posts: Map<string, PostView>; comments: Map<string, CommentView> }> {
  const [posts, comments] = await Promise.all([repo.postCards(db, postIds), repo.commentsByIds(db, commentIds)]);
  return {
    posts: new Map(posts.map((row) => [row.id, presentPost(row)])),
    comments: new Map(comments.map((row) => [row.id, { ...presentComment(row), replies: [] }])),
  };
}
