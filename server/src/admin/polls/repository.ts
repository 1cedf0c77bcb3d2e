import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { contestants, pollOptions, pollPointsConfig, polls, pollVoteCounts, realities, seasons, voidedVotes, votes } from '@tribuna/drizzle/schema/index';
import { LOCK_KEYS, xactLock } from '@tribuna/drizzle/locks';

// Vote counts come from poll_vote_counts (a few rows per option, kept by triggers on `votes`, see
// migration 0010), never from counting `votes`. Measured on 1,000,000 votes of one poll: summing
// vote_tallies (one row per voter and option, no index leading with poll_id) took ~200 ms per poll
// on this machine, counting votes more; the counters are 8 rows per option, well under 1 ms for a
// whole list.

/** Vote rows and points per option, summed over its shards; `votes` may be joined on (poll_id, id). */
const optionCounts = (db: DbOrTx) =>
  db
    .select({
      pollId: pollVoteCounts.pollId,
      optionId: pollVoteCounts.optionId,
      votes: sql<number>`sum(${pollVoteCounts.votes})::int`.as('votes'),
    })
    .from(pollVoteCounts)
    .groupBy(pollVoteCounts.pollId, pollVoteCounts.optionId)
    .as('option_counts');

const adminPollColumns = {
  id: polls.id,
  title: polls.title,
  description: polls.description,
  seasonId: polls.seasonId,
  status: polls.status,
  isFeatured: polls.isFeatured,
  endDate: polls.endDate,
  pollMode: polls.pollMode,
  createdAt: polls.createdAt,
  updatedAt: polls.updatedAt,
  seasonNumber: seasons.number,
  realityName: realities.name,
  maxPointsPerUser: pollPointsConfig.maxPointsPerUser,
  dailyReset: pollPointsConfig.dailyReset,
};

/** Polls with their season, reality and points config, newest first (one statement for the whole list). */
export async function listAdminPolls(db: DbOrTx, filter: { seasonId?: string; pollId?: string } = {}) {
  const conditions = [filter.seasonId ? eq(polls.seasonId, filter.seasonId) : undefined, filter.pollId ? eq(polls.id, filter.pollId) : undefined].filter(
    (c) => c !== undefined,
  );
  return db
    .select(adminPollColumns)
    .from(polls)
    .innerJoin(seasons, eq(seasons.id, polls.seasonId))
    .innerJoin(realities, eq(realities.id, seasons.realityId))
    .leftJoin(pollPointsConfig, eq(pollPointsConfig.pollId, polls.id))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(polls.createdAt), desc(polls.id));
}

export type AdminPollRow = Awaited<ReturnType<typeof listAdminPolls>>[number];

/** Every option of the polls (removed ones too, flagged) with its contestant and vote count: one statement. */
export async function listAdminOptions(db: DbOrTx, pollIds: string[]) {
  if (pollIds.length === 0) return [];
  const counts = optionCounts(db);
  return db
    .select({
      id: pollOptions.id,
      pollId: pollOptions.pollId,
      contestantId: pollOptions.contestantId,
      text: pollOptions.text,
      order: pollOptions.order,
      removedAt: pollOptions.removedAt,
      contestantName: contestants.fullName,
      contestantPhotoUrl: contestants.photoUrl,
      voteCount: sql<number>`coalesce(${counts.votes}, 0)::int`,
    })
    .from(pollOptions)
    .leftJoin(contestants, eq(contestants.id, pollOptions.contestantId))
    .leftJoin(counts, and(eq(counts.pollId, pollOptions.pollId), eq(counts.optionId, pollOptions.id)))
    .where(inArray(pollOptions.pollId, pollIds))
    .orderBy(asc(pollOptions.pollId), asc(pollOptions.order));
}

export type AdminOptionRow = Awaited<ReturnType<typeof listAdminOptions>>[number];

/** Locks a poll for a change (edits, status, feature and delete of one poll are serialised). */
export async function lockPoll(tx: Tx, pollId: string) {
  const [row] = await tx.select({ id: polls.id }).from(polls).where(eq(polls.id, pollId)).for('update');
  return row ?? null;
}

/** A season polls may be created in: it exists and is not deleted. */
export async function findLiveSeason(db: DbOrTx, seasonId: string) {
  const [row] = await db
    .select({ id: seasons.id })
    .from(seasons)
    .innerJoin(realities, eq(realities.id, seasons.realityId))
    .where(and(eq(seasons.id, seasonId), isNull(seasons.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Of `ids`, the contestants of the season a poll may offer (not deleted, with one of `statuses`). */
export async function findVotableContestants(db: DbOrTx, seasonId: string, ids: string[], statuses: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: contestants.id })
    .from(contestants)
    .where(
      and(
        inArray(contestants.id, ids),
        eq(contestants.seasonId, seasonId),
        isNull(contestants.deletedAt),
        inArray(contestants.status, [...statuses] as (typeof contestants.status._.data)[]),
      ),
    );
}

export interface NewPoll {
  title: string;
  description: string | null;
  seasonId: string;
  status: 'draft' | 'active';
  endDate: Date | null;
  maxPointsPerUser: number;
  dailyReset: boolean;
}

export async function insertPoll(tx: Tx, poll: NewPoll, now: Date): Promise<string> {
  const [row] = await tx
    .insert(polls)
    .values({
      title: poll.title,
      description: poll.description,
      seasonId: poll.seasonId,
      status: poll.status,
      pollMode: poll.endDate ? 'countdown' : 'manual',
      startDate: now,
      endDate: poll.endDate,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: polls.id });
  await tx.insert(pollPointsConfig).values({
    pollId: row!.id,
    pointsPerVote: 1,
    maxPointsPerUser: poll.maxPointsPerUser,
    dailyReset: poll.dailyReset,
  });
  return row!.id;
}

export interface OptionValues {
  contestantId: string | null;
  text: string | null;
}

export async function insertOptions(tx: Tx, pollId: string, options: (OptionValues & { order: number })[]): Promise<void> {
  if (options.length === 0) return;
  await tx.insert(pollOptions).values(options.map((o) => ({ pollId, contestantId: o.contestantId, text: o.text, order: o.order })));
}

export async function updatePollFields(
  tx: Tx,
  pollId: string,
  fields: Partial<Pick<typeof polls.$inferInsert, 'title' | 'description' | 'endDate' | 'pollMode' | 'status'>>,
  now: Date,
): Promise<void> {
  await tx
    .update(polls)
    .set({ ...fields, updatedAt: now })
    .where(eq(polls.id, pollId));
}

export async function upsertPointsConfig(tx: Tx, pollId: string, maxPointsPerUser: number, dailyReset: boolean): Promise<void> {
  await tx
    .insert(pollPointsConfig)
    .values({ pollId, pointsPerVote: 1, maxPointsPerUser, dailyReset })
    .onConflictDoUpdate({ target: pollPointsConfig.pollId, set: { maxPointsPerUser, dailyReset } });
}

/**
 * Locks every option of the poll against new votes (a vote's foreign-key check takes KEY SHARE on
 * its option) and answers which have votes: an option found without votes here cannot get one
 * before this transaction ends, so deleting it never takes a vote with it.
 */
export async function lockOptionsWithVotes(tx: Tx, pollId: string): Promise<Map<string, boolean>> {
  const locked = await tx.select({ id: pollOptions.id }).from(pollOptions).where(eq(pollOptions.pollId, pollId)).for('update');
  if (locked.length === 0) return new Map();
  const voted = await tx
    .select({ optionId: pollOptions.id })
    .from(pollOptions)
    .where(
      and(eq(pollOptions.pollId, pollId), sql`EXISTS (SELECT 1 FROM ${votes} v WHERE v.poll_id = ${pollOptions.pollId} AND v.option_id = ${pollOptions.id})`),
    );
  const withVotes = new Set(voted.map((v) => v.optionId));
  return new Map(locked.map((o) => [o.id, withVotes.has(o.id)]));
}

/**
 * Rewrites the poll's options: `ballot` in order (existing ones keep their id, new ones are
 * inserted), `removed` (they have votes) leave the ballot with removed_at and go after it, `deleted`
 * (no votes) are deleted. Orders are first moved out of the way (poll_id, order is unique).
 */
export async function writeOptions(
  tx: Tx,
  pollId: string,
  changes: {
    ballot: (OptionValues & { id?: string })[];
    removed: string[];
    deleted: string[];
  },
  now: Date,
): Promise<void> {
  if (changes.deleted.length > 0) {
    await tx.delete(pollOptions).where(and(eq(pollOptions.pollId, pollId), inArray(pollOptions.id, changes.deleted)));
  }
  await tx
    .update(pollOptions)
    .set({ order: sql`${pollOptions.order} + 100000` })
    .where(eq(pollOptions.pollId, pollId));
  let order = 0;
  const inserts: (OptionValues & { order: number })[] = [];
  for (const option of changes.ballot) {
    if (option.id) {
      await tx
        .update(pollOptions)
        .set({ contestantId: option.contestantId, text: option.text, order, removedAt: null })
        .where(and(eq(pollOptions.pollId, pollId), eq(pollOptions.id, option.id)));
    } else {
      inserts.push({ ...option, order });
    }
    order++;
  }
  await insertOptions(tx, pollId, inserts);
  // Options removed earlier or now, after the ballot, in their previous order.
  const off = await tx
    .select({ id: pollOptions.id, removedAt: pollOptions.removedAt })
    .from(pollOptions)
    .where(and(eq(pollOptions.pollId, pollId), sql`${pollOptions.order} >= 100000`))
    .orderBy(asc(pollOptions.order));
  const removedNow = new Set(changes.removed);
  for (const option of off) {
    await tx
      .update(pollOptions)
      .set({ order, removedAt: option.removedAt ?? (removedNow.has(option.id) ? now : null) })
      .where(eq(pollOptions.id, option.id));
    order++;
  }
}

/** Options on the ballot (not removed). */
export async function countBallotOptions(tx: DbOrTx, pollId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(pollOptions)
    .where(and(eq(pollOptions.pollId, pollId), isNull(pollOptions.removedAt)));
  return row?.n ?? 0;
}

/**
 * Feature changes take one advisory lock, first thing in their transaction (before any poll row),
 * so two at once run one after the other (the second sees the first's flag and clears it) instead
 * of one failing on polls_one_featured_uq.
 */
export async function lockFeaturedFlag(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(LOCK_KEYS.featuredPolls)}`);
}

/** "Fijar en Landing": the single featured poll (under lockFeaturedFlag). Answers the polls whose flag was cleared. */
export async function setFeatured(tx: Tx, pollId: string, now: Date): Promise<{ id: string; status: 'draft' | 'active' | 'closed' }[]> {
  const cleared = await tx
    .update(polls)
    .set({ isFeatured: false, updatedAt: now })
    .where(and(eq(polls.isFeatured, true), ne(polls.id, pollId)))
    .returning({ id: polls.id, status: polls.status });
  await tx.update(polls).set({ isFeatured: true, updatedAt: now }).where(eq(polls.id, pollId));
  return cleared;
}

export async function deletePoll(tx: Tx, pollId: string): Promise<void> {
  await tx.delete(polls).where(eq(polls.id, pollId));
  // Voided votes have no foreign key to the poll (they are out of `votes`): deleted with it here.
  await tx.delete(voidedVotes).where(eq(voidedVotes.pollId, pollId));
}
