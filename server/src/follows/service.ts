import type { FastifyBaseLogger } from 'fastify';
import type { FollowEntry, FollowPage, FollowState } from '@tribuna/contracts/api/profiles';
import { FOLLOW_LIMITS, FOLLOW_MESSAGES } from '@tribuna/contracts/followRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Db } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { runAfterCommit, type AfterCommit } from '../events/bus.ts';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import * as access from '../access/policy.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { decodeListCursor, encodeListCursor } from '../identity/profiles/tabs.ts';
import type { FollowChange } from './activity.ts';
import * as repo from './repository.ts';

// Follows (issue 28): 'Seguir' / 'Siguiendo' on a profile, and its followers and following lists.
// Who may read a followers-only post is the access policy's (access/predicates.ts readableBy).

export interface FollowsContext {
  /** For transactions. */
  db: Db;
  /** Reads outside transactions. */
  reader: SqlRunner;
  /** Runs the other domains' statements for a follow change inside its transaction (the notification); resolves to their after-commit work. */
  joinTransaction(tx: SqlRunner, change: FollowChange): Promise<AfterCommit[]>;
  log: FastifyBaseLogger;
}

/**
 * PUT /api/profiles/:userId/follow: follows the profile (idempotent: following again changes
 * nothing and tells nobody). Not oneself (400), nor an unknown or deleted account (404), nor
 * somebody in a block with the follower, either way (403).
 */
export async function follow(ctx: FollowsContext, followerId: string, followeeId: string): Promise<FollowState> {
  if (followerId === followeeId) throw badRequest(FOLLOW_MESSAGES.self);
  const { followersCount, after } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    // A block of the two (issue 29) waits for this follow, or this follow for the block: never both.
    await repo.lockRelation(runner, followerId, followeeId);
    const followee = await repo.lockFollowee(runner, followeeId);
    if (!followee || followee.deleted) throw notFound(FOLLOW_MESSAGES.userNotFound);
    if (await access.blockedBetween(runner, followerId, followeeId)) throw forbidden(MODERATION_MESSAGES.blockedUser);
    const began = await repo.insertFollow(runner, followerId, followeeId);
    const work = began ? await ctx.joinTransaction(runner, { followerId, followeeId, following: true }) : [];
    return { followersCount: await repo.followersCount(runner, followeeId), after: work };
  });
  await runAfterCommit(after, ctx.log, 'after-commit work of a follow');
  return { following: true, followersCount };
}

/** DELETE /api/profiles/:userId/follow: stops following (idempotent); its notification goes with it. */
export async function unfollow(ctx: FollowsContext, followerId: string, followeeId: string): Promise<FollowState> {
  const { followersCount, after } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    const ended = await repo.deleteFollow(runner, followerId, followeeId);
    if (!ended && !(await repo.profileExists(runner, followeeId))) throw notFound(FOLLOW_MESSAGES.userNotFound);
    const work = ended ? await ctx.joinTransaction(runner, { followerId, followeeId, following: false }) : [];
    return { followersCount: await repo.followersCount(runner, followeeId), after: work };
  });
  await runAfterCommit(after, ctx.log, 'after-commit work of an unfollow');
  return { following: false, followersCount };
}

/**
 * Serialises, until the transaction `tx` ends, every change of the relation between `a` and `b`:
 * a follow of either and a block (issue 29) never interleave.
 */
export function lockRelation(tx: SqlRunner, a: string, b: string): Promise<void> {
  return repo.lockRelation(tx, a, b);
}

/**
 * Ends the follows between `a` and `b`, both ways, inside a block's transaction `tx` (issue 29; take
 * lockRelation first): each ended follow is told to the other domains as an unfollow is
 * (`joinChange`: the `follows.changed` transactional event, whose notification goes with it).
 * Resolves to their after-commit work.
 */
export async function endFollowsBetween(
  tx: SqlRunner,
  a: string,
  b: string,
  joinChange: (tx: SqlRunner, change: FollowChange) => Promise<AfterCommit[]>,
): Promise<AfterCommit[]> {
  const work: AfterCommit[] = [];
  for (const ended of await repo.deleteFollowsBetween(tx, a, b)) work.push(...(await joinChange(tx, { ...ended, following: false })));
  return work;
}

function presentEntry(row: repo.FollowEntryRow): FollowEntry {
  return {
    user: { id: row.id, displayName: row.display_name, username: row.username, avatarUrl: row.avatar_url },
    since: row.since,
    viewerFollows: row.viewer_follows,
  };
}

/** GET /api/profiles/:userId/followers and /following: 30 a page, newest follow first (not found for somebody its owner blocked). */
export async function listFollows(
  ctx: FollowsContext,
  side: repo.FollowSide,
  userId: string,
  viewerId: string | null,
  cursor: string | undefined,
): Promise<FollowPage> {
  const after = cursor ? decodeListCursor(cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const size = FOLLOW_LIMITS.pageSize;
  const [relation, rows] = await Promise.all([
    access.profileRelation(ctx.reader, userId, viewerId),
    repo.followPage(ctx.reader, side, userId, viewerId, after, size + 1),
  ]);
  // A profile whose owner blocked the viewer does not exist for them; one the viewer blocked shows
  // them its header only (to unblock), its lists empty (issue 29).
  if (!relation || relation.blocksViewer) throw notFound(FOLLOW_MESSAGES.userNotFound);
  if (relation.viewerBlocked) return { items: [], nextCursor: null };
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(presentEntry),
    nextCursor: rows.length > size && last ? encodeListCursor({ atMicros: last.sort_micros, id: last.id }) : null,
  };
}
