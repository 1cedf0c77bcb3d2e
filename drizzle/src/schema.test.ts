// Constraints PostgreSQL itself must enforce, whatever the application code does.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabase, truncateAll } from '../../test/support/db.ts';
import { buildPoll, buildSeason, buildUser } from '../../test/support/factories.ts';
import * as schema from './schema/index.ts';

const database = testDatabase();
const db = database.db;

afterAll(() => database.close());
beforeEach(() => truncateAll(database));

/** The SQLSTATE of a database error, dug out of drizzle's wrapper (err.cause) when present. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; constraint_name?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint_name === 'string' ? e.constraint_name : undefined };
    }
    current = e.cause;
  }
  return {};
}

const UNIQUE = '23505';
const CHECK = '23514';
const FOREIGN_KEY = '23503';

async function expectRefused(action: () => Promise<unknown>, code: string, constraint?: string): Promise<void> {
  let caught: unknown;
  try {
    await action();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'PostgreSQL accepted a row it should refuse').toBeDefined();
  const { code: actual, constraint: actualConstraint } = pgError(caught);
  expect(actual, String(caught)).toBe(code);
  if (constraint) expect(actualConstraint).toBe(constraint);
}

async function buildPost(userId: string) {
  const [post] = await db.insert(schema.posts).values({ userId, content: 'Hola muro' }).returning();
  return post!;
}

describe('one reaction per user per item', () => {
  it('refuses a second reaction by the same user on the same post', async () => {
    const user = await buildUser(db);
    const post = await buildPost(user.id);
    await db.insert(schema.postReactions).values({ postId: post.id, userId: user.id, reactionType: 'like' });
    await expectRefused(() => db.insert(schema.postReactions).values({ postId: post.id, userId: user.id, reactionType: 'love' }), UNIQUE);
    // Another user may react to the same post.
    const other = await buildUser(db);
    await db.insert(schema.postReactions).values({ postId: post.id, userId: other.id, reactionType: 'love' });
  });

  it('refuses a second reaction by the same user on the same comment', async () => {
    const user = await buildUser(db);
    const post = await buildPost(user.id);
    const [comment] = await db.insert(schema.comments).values({ postId: post.id, userId: user.id, content: '¡Sí!' }).returning();
    await db.insert(schema.commentReactions).values({ commentId: comment!.id, userId: user.id, reactionType: 'haha' });
    await expectRefused(() => db.insert(schema.commentReactions).values({ commentId: comment!.id, userId: user.id, reactionType: 'wow' }), UNIQUE);
  });

  it('keeps reaction counters only for items that exist, summed over their shards, and drops them with the item', async () => {
    const user = await buildUser(db);
    const post = await buildPost(user.id);
    const [comment] = await db.insert(schema.comments).values({ postId: post.id, userId: user.id, content: '¡Sí!' }).returning();
    const missing = '00000000-0000-4000-8000-000000000000';
    await expectRefused(() => db.insert(schema.postReactionCounts).values({ postId: missing, reactionType: 'like', shard: 0, reactions: 1 }), FOREIGN_KEY);
    await expectRefused(
      () => db.insert(schema.commentReactionCounts).values({ commentId: missing, reactionType: 'like', shard: 0, reactions: 1 }),
      FOREIGN_KEY,
    );
    // The triggers write one row per (item, type) of the writing connection's shard.
    await db.insert(schema.postReactions).values({ postId: post.id, userId: user.id, reactionType: 'like' });
    await db.insert(schema.commentReactions).values({ commentId: comment!.id, userId: user.id, reactionType: 'wow' });
    const [postRow] = await db.select().from(schema.postReactionCounts);
    expect(postRow).toMatchObject({ postId: post.id, reactionType: 'like', reactions: 1 });
    expect(postRow!.shard).toBeGreaterThanOrEqual(0);
    expect(postRow!.shard).toBeLessThan(schema.REACTION_COUNT_SHARDS);
    expect(await db.select().from(schema.commentReactionCounts)).toMatchObject([{ commentId: comment!.id, reactionType: 'wow', reactions: 1 }]);
    await db.delete(schema.posts).where(eq(schema.posts.id, post.id));
    expect(await db.select().from(schema.postReactionCounts)).toEqual([]);
    expect(await db.select().from(schema.commentReactionCounts)).toEqual([]);
  });

  it('refuses an unknown reaction type', async () => {
    const user = await buildUser(db);
    const post = await buildPost(user.id);
    await expectRefused(
      () => db.insert(schema.postReactions).values({ postId: post.id, userId: user.id, reactionType: 'meh' as never }),
      CHECK,
      'post_reactions_type',
    );
  });
});

describe('profiles', () => {
  it('refuses the same username twice', async () => {
    await buildUser(db, { username: 'maria_1' });
    await expectRefused(() => buildUser(db, { username: 'maria_1' }), UNIQUE, 'profiles_username_lower_uq');
  });

  it('refuses a username differing only in case (format check or unique index)', async () => {
    await buildUser(db, { username: 'fan_one' });
    let caught: unknown;
    try {
      await buildUser(db, { username: 'Fan_One' });
    } catch (err) {
      caught = err;
    }
    expect([UNIQUE, CHECK]).toContain(pgError(caught).code);
  });

  it('keeps usernames unique ignoring case even where the format check is not what stops it', async () => {
    // The unique index is on lower(username): it is what guards case-insensitivity.
    const rows = await database.sql<{ indexdef: string }[]>`
      SELECT indexdef FROM pg_indexes WHERE indexname = 'profiles_username_lower_uq'`;
    expect(rows[0]?.indexdef).toMatch(/UNIQUE INDEX .* \(lower\(username\)\)/);
  });

  it('allows several profiles without username (anonymised accounts)', async () => {
    await buildUser(db, { username: null });
    await buildUser(db, { username: null });
  });

  it('refuses bad usernames, long names and bios, and unknown roles', async () => {
    await expectRefused(() => buildUser(db, { username: 'ab' }), CHECK, 'profiles_username_format');
    await expectRefused(() => buildUser(db, { username: 'con espacio' }), CHECK, 'profiles_username_format');
    await expectRefused(() => buildUser(db, { displayName: 'x'.repeat(51) }), CHECK, 'profiles_display_name_len');
    await expectRefused(() => buildUser(db, { displayName: '' }), CHECK, 'profiles_display_name_len');
    await expectRefused(() => buildUser(db, { bio: 'x'.repeat(501) }), CHECK, 'profiles_bio_len');
    await expectRefused(() => buildUser(db, { role: 'root' as never }), CHECK, 'profiles_role');
    // The limits themselves are accepted.
    await buildUser(db, { displayName: 'x'.repeat(50), bio: 'x'.repeat(500), role: 'moderator' });
  });
});

describe('polls and seasons', () => {
  it('allows at most one featured poll', async () => {
    await buildPoll(db, { isFeatured: true });
    await buildPoll(db, { isFeatured: false });
    await buildPoll(db, { isFeatured: false });
    await expectRefused(() => buildPoll(db, { isFeatured: true }), UNIQUE, 'polls_one_featured_uq');
  });

  it('never features a draft, nor lets a featured poll go back to draft', async () => {
    await expectRefused(() => buildPoll(db, { status: 'draft', isFeatured: true }), CHECK, 'polls_featured_not_draft');
    const { poll } = await buildPoll(db, { status: 'closed', isFeatured: true });
    await expectRefused(() => db.update(schema.polls).set({ status: 'draft' }).where(eq(schema.polls.id, poll.id)), CHECK, 'polls_featured_not_draft');
  });

  it('allows at most one active season per reality', async () => {
    const { reality } = await buildSeason(db); // season 1, active
    await db.insert(schema.seasons).values({ realityId: reality.id, number: 2, year: 2026, active: false });
    await expectRefused(
      () => db.insert(schema.seasons).values({ realityId: reality.id, number: 3, year: 2026, active: true }),
      UNIQUE,
      'seasons_one_active_per_reality_uq',
    );
    // Another reality has its own active season.
    await buildSeason(db);
  });

  it('refuses a poll status outside draft/active/closed and a season year before 2000', async () => {
    const { season, reality } = await buildSeason(db);
    await expectRefused(() => db.insert(schema.polls).values({ title: 'X', seasonId: season.id, status: 'open' as never }), CHECK, 'polls_status');
    await expectRefused(() => db.insert(schema.seasons).values({ realityId: reality.id, number: 5, year: 1999 }), CHECK, 'seasons_year_range');
  });

  it('refuses an option that is both a contestant and a text', async () => {
    const { poll, options } = await buildPoll(db, { options: 1 });
    const [option] = await db.select().from(schema.pollOptions).where(eq(schema.pollOptions.id, options[0]!.id));
    await expectRefused(
      () => db.insert(schema.pollOptions).values({ pollId: poll.id, contestantId: option!.contestantId, text: 'Otro', order: 5 }),
      CHECK,
      'poll_options_contestant_or_text',
    );
  });

  it('deleting a poll removes its options, votes and points configuration', async () => {
    const user = await buildUser(db);
    const { poll, options } = await buildPoll(db, { options: 3 });
    await db.insert(schema.votes).values({ pollId: poll.id, optionId: options[1]!.id, userId: user.id });
    await db.insert(schema.shareHistory).values({ pollId: poll.id, userId: user.id, platform: 'whatsapp', shareDay: '2025-01-15' });

    await db.delete(schema.polls).where(eq(schema.polls.id, poll.id));

    const count = async (table: typeof schema.pollOptions | typeof schema.votes | typeof schema.pollPointsConfig | typeof schema.shareHistory) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(table)
          .where(eq(table.pollId, poll.id))
      )[0]!.n;
    expect(await count(schema.pollOptions)).toBe(0);
    expect(await count(schema.votes)).toBe(0);
    expect(await count(schema.pollPointsConfig)).toBe(0);
    expect(await count(schema.shareHistory)).toBe(0);
    // Contestants and the voter are not the poll's to delete.
    expect((await db.select().from(schema.profiles).where(eq(schema.profiles.id, user.id))).length).toBe(1);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(schema.contestants))[0]!.n).toBe(3);
  });
});

describe('votes, shares and points', () => {
  it('refuses a vote worth 0 points', async () => {
    const user = await buildUser(db);
    const { poll, options } = await buildPoll(db);
    await expectRefused(
      () => db.insert(schema.votes).values({ pollId: poll.id, optionId: options[0]!.id, userId: user.id, points: 0 }),
      CHECK,
      'votes_points_positive',
    );
  });

  it('refuses a vote for a poll that does not exist', async () => {
    const user = await buildUser(db);
    const { options } = await buildPoll(db);
    await expectRefused(
      () =>
        db.insert(schema.votes).values({
          pollId: '00000000-0000-4000-8000-000000000000',
          optionId: options[0]!.id,
          userId: user.id,
        }),
      FOREIGN_KEY,
    );
  });

  it('allows one share per poll per user per day', async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db);
    const share = (shareDay: string) => ({ pollId: poll.id, userId: user.id, platform: 'whatsapp' as const, pointsEarned: 5, shareDay });
    await db.insert(schema.shareHistory).values(share('2025-01-15'));
    await expectRefused(() => db.insert(schema.shareHistory).values(share('2025-01-15')), UNIQUE, 'share_history_once_per_day_uq');
    await db.insert(schema.shareHistory).values(share('2025-01-16'));
  });

  it('refuses the same award twice but allows several admin adjustments without reference', async () => {
    const user = await buildUser(db);
    const award = { userId: user.id, points: 1, reason: 'vote' as const, referenceId: 'vote:poll-1:2025-01-15' };
    await db.insert(schema.userPointsHistory).values(award);
    await expectRefused(() => db.insert(schema.userPointsHistory).values(award), UNIQUE, 'user_points_history_award_uq');
    // Same reference under another reason is another award.
    await db.insert(schema.userPointsHistory).values({ ...award, reason: 'share' });

    const adjustment = { userId: user.id, points: -3, reason: 'admin_adjustment' as const, referenceId: null };
    await db.insert(schema.userPointsHistory).values(adjustment);
    await db.insert(schema.userPointsHistory).values(adjustment);
    await expectRefused(() => db.insert(schema.userPointsHistory).values({ ...adjustment, points: 0 }), CHECK, 'user_points_history_points_nonzero');
  });
});

describe('wall and analytics', () => {
  it('refuses a post over 2000 characters and an empty comment', async () => {
    const user = await buildUser(db);
    await db.insert(schema.posts).values({ userId: user.id, content: 'x'.repeat(2000) });
    await expectRefused(() => db.insert(schema.posts).values({ userId: user.id, content: 'x'.repeat(2001) }), CHECK, 'posts_content_len');
    const post = await buildPost(user.id);
    await expectRefused(() => db.insert(schema.comments).values({ postId: post.id, userId: user.id, content: '' }), CHECK, 'comments_content_len');
  });

  it('refuses a group-only post without a group', async () => {
    const user = await buildUser(db);
    await expectRefused(() => db.insert(schema.posts).values({ userId: user.id, content: 'Solo grupo', visibility: 'group' }), CHECK, 'posts_group_visibility');
  });

  it('refuses a page view from a device type other than mobile or desktop', async () => {
    await expectRefused(
      () => db.insert(schema.pageViews).values({ pagePath: '/', sessionId: 'session-0001', deviceType: 'tablet' as never }),
      CHECK,
      'page_views_device_type',
    );
  });
});
