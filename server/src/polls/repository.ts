import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { contestants, pollOptions, pollPointsConfig, polls, profiles, realities, seasons, voidedVotes, votes } from '@tribuna/drizzle/schema/index';

/** A poll with its season, reality and (possibly missing) points config, in one row. */
const pollColumns = {
  id: polls.id,
  title: polls.title,
  description: polls.description,
  status: polls.status,
  isFeatured: polls.isFeatured,
  startDate: polls.startDate,
  endDate: polls.endDate,
  createdAt: polls.createdAt,
  showResults: polls.showResults,
  seasonId: seasons.id,
  seasonNumber: seasons.number,
  seasonYear: seasons.year,
  realityId: realities.id,
  realityName: realities.name,
  pointsPerVote: pollPointsConfig.pointsPerVote,
  maxPointsPerUser: pollPointsConfig.maxPointsPerUser,
  dailyReset: pollPointsConfig.dailyReset,
  bonusForSharing: pollPointsConfig.bonusForSharing,
};

function selectPolls(db: DbOrTx) {
  return db
    .select(pollColumns)
    .from(polls)
    .innerJoin(seasons, eq(seasons.id, polls.seasonId))
    .innerJoin(realities, eq(realities.id, seasons.realityId))
    .leftJoin(pollPointsConfig, eq(pollPointsConfig.pollId, polls.id));
}

export type PollRow = NonNullable<Awaited<ReturnType<typeof findPublicPoll>>>;

/** Drafts are never public. */
export async function findPublicPoll(db: DbOrTx, pollId: string) {
  const [row] = await selectPolls(db)
    .where(and(eq(polls.id, pollId), ne(polls.status, 'draft')))
    .limit(1);
  return row ?? null;
}

/** The featured poll when it is open, else the newest open one: one ordered query. */
export async function findHomePoll(db: DbOrTx, now: Date) {
  const [row] = await selectPolls(db)
    .where(and(eq(polls.status, 'active'), or(isNull(polls.endDate), gt(polls.endDate, now))))
    .orderBy(desc(polls.isFeatured), desc(polls.createdAt), desc(polls.id))
    .limit(1);
  return row ?? null;
}

/** Active and closed polls, featured first, then newest first. */
export async function listPublicPolls(db: DbOrTx, limit: number) {
  return selectPolls(db)
    .where(inArray(polls.status, ['active', 'closed']))
    .orderBy(desc(polls.isFeatured), desc(polls.createdAt), desc(polls.id))
    .limit(limit);
}

/**
 * The options on a poll's ballot: an option an admin removed (it had votes) is left out of the
 * ballot, the results and the live totals; its votes stay in the database.
 */
export function ballotOptionIds(db: DbOrTx, pollId: string) {
  return db
    .select({ id: pollOptions.id })
    .from(pollOptions)
    .where(and(eq(pollOptions.pollId, pollId), isNull(pollOptions.removedAt)));
}

/** Options on the ballot of several polls at once (no N+1), with their contestant when there is one. */
export async function listOptions(db: DbOrTx, pollIds: string[]) {
  if (pollIds.length === 0) return [];
  return db
    .select({
      id: pollOptions.id,
      pollId: pollOptions.pollId,
      text: pollOptions.text,
      order: pollOptions.order,
      contestantId: contestants.id,
      contestantName: contestants.fullName,
      contestantPhotoUrl: contestants.photoUrl,
    })
    .from(pollOptions)
    .leftJoin(contestants, eq(contestants.id, pollOptions.contestantId))
    .where(and(inArray(pollOptions.pollId, pollIds), isNull(pollOptions.removedAt)))
    .orderBy(asc(pollOptions.pollId), asc(pollOptions.order));
}

export type OptionRow = Awaited<ReturnType<typeof listOptions>>[number];

/**
 * Vote rows and points per option plus, in the same snapshot, the poll-wide totals and distinct
 * voters (the grouping set `()` row, where `isTotal` is true).
 */
export async function countVotes(db: DbOrTx, pollId: string) {
  return db
    .select({
      optionId: votes.optionId,
      isTotal: sql<boolean>`grouping(${votes.optionId}) = 1`,
      totalVotes: sql<number>`count(*)::int`,
      totalPoints: sql<number>`coalesce(sum(${votes.points}), 0)::int`,
      totalVoters: sql<number>`count(distinct ${votes.userId})::int`,
    })
    .from(votes)
    .where(and(eq(votes.pollId, pollId), inArray(votes.optionId, ballotOptionIds(db, pollId))))
    .groupBy(sql`grouping sets ((${votes.optionId}), ())`);
}

export type VoteCountRow = Awaited<ReturnType<typeof countVotes>>[number];

/** Votes of the poll an admin voided after review (index voided_votes_poll_idx). */
export async function countVoidedVotes(db: DbOrTx, pollId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(voidedVotes).where(eq(voidedVotes.pollId, pollId));
  return row?.n ?? 0;
}

/** Per option, the users who voted for it with their summed points, most recent voter first. */
export async function listVoters(db: DbOrTx, pollId: string, perOption: number) {
  const perUser = db
    .select({
      optionId: votes.optionId,
      userId: votes.userId,
      points: sql<number>`sum(${votes.points})::int`.as('points'),
      rank: sql<number>`row_number() over (partition by ${votes.optionId} order by max(${votes.createdAt}) desc, ${votes.userId})`.as(
        'rank',
      ),
    })
    .from(votes)
    .where(and(eq(votes.pollId, pollId), inArray(votes.optionId, ballotOptionIds(db, pollId))))
    .groupBy(votes.optionId, votes.userId)
    .as('per_user');

  return db
    .select({
      optionId: perUser.optionId,
      userId: perUser.userId,
      points: perUser.points,
      displayName: profiles.displayName,
      avatarUrl: profiles.avatarUrl,
    })
    .from(perUser)
    .innerJoin(profiles, eq(profiles.id, perUser.userId))
    .where(lte(perUser.rank, perOption))
    .orderBy(asc(perUser.optionId), asc(perUser.rank));
}

export type VoterRow = Awaited<ReturnType<typeof listVoters>>[number];

/** What validating a vote needs to know about a poll (cached briefly in-process, see pollCache.ts). */
export async function findVotingPoll(db: DbOrTx, pollId: string) {
  const [rows, options] = await Promise.all([
    db
      .select({
        id: polls.id,
        title: polls.title,
        status: polls.status,
        endDate: polls.endDate,
        isFeatured: polls.isFeatured,
        showResults: polls.showResults,
        pointsPerVote: pollPointsConfig.pointsPerVote,
        maxPointsPerUser: pollPointsConfig.maxPointsPerUser,
        dailyReset: pollPointsConfig.dailyReset,
        bonusForSharing: pollPointsConfig.bonusForSharing,
      })
      .from(polls)
      .leftJoin(pollPointsConfig, eq(pollPointsConfig.pollId, polls.id))
      .where(and(eq(polls.id, pollId), ne(polls.status, 'draft')))
      .limit(1),
    ballotOptionIds(db, pollId),
  ]);
  const row = rows[0];
  return row ? { ...row, optionIds: options.map((o) => o.id) } : null;
}

export type VotingPollRow = NonNullable<Awaited<ReturnType<typeof findVotingPoll>>>;
