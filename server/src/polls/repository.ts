import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import {
  contestants,
  pollOptions,
  pollPointsConfig,
  polls,
  pollVoteCounts,
  profiles,
  realities,
  seasons,
  voidedVotes,
  voteTallies,
} from '@tribuna/drizzle/schema/index';

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

/**
 * The home poll: the featured one whatever its status (a closed one shows its final results, what
 * producers want on the landing after an elimination), else the newest open one: one ordered query.
 * A draft is never featured (polls_featured_not_draft); the filter keeps that true here too.
 */
export async function findHomePoll(db: DbOrTx, now: Date) {
  const open = and(eq(polls.status, 'active'), or(isNull(polls.endDate), gt(polls.endDate, now)));
  const featured = and(eq(polls.isFeatured, true), ne(polls.status, 'draft'));
  const [row] = await selectPolls(db).where(or(featured, open)).orderBy(desc(polls.isFeatured), desc(polls.createdAt), desc(polls.id)).limit(1);
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

interface VoteCounts {
  totalVotes: number;
  totalPoints: number;
  totalVoters: number;
}
/** One option's votes, points and voters. */
export type OptionVoteCount = VoteCounts & { optionId: string; isTotal: false };
/** The poll-wide row (totals and distinct voters), always present, zeros without votes. */
export type PollVoteTotal = VoteCounts & { optionId: null; isTotal: true };
export type VoteCountRow = OptionVoteCount | PollVoteTotal;
export const isOptionCount = (row: VoteCountRow): row is OptionVoteCount => !row.isTotal;

/**
 * Vote rows and points per option on the ballot (options without votes are left out) plus the
 * poll-wide totals and distinct voters (the row where `isTotal` is true), in one statement, so one
 * snapshot. Read from the counters the triggers on `votes` keep in the same transactions as the
 * votes (migrations 0004 and 0010): `poll_vote_counts` (summed over its shards) for the totals,
 * `vote_tallies` (one row per user and option while they hold votes) for the voters. The cost
 * follows the poll's voters, never its votes: counting `votes` itself grew with every vote of an
 * episode (seconds per read at millions of rows, every 30 s per watched poll in the reconcile), and
 * its long snapshot kept every update of those hot counters from being pruned meanwhile.
 */
export async function countVotes(db: DbOrTx, pollId: string): Promise<VoteCountRow[]> {
  const rows = await db.execute<{ option_id: string | null; is_total: boolean; votes: number; points: number; voters: number }>(sql`
    WITH ballot AS (
      SELECT ${pollOptions.id} AS id FROM ${pollOptions} WHERE ${pollOptions.pollId} = ${pollId} AND ${pollOptions.removedAt} IS NULL
    ),
    per_option AS (
      SELECT c.option_id, sum(c.votes) AS votes, sum(c.points) AS points
      FROM ${pollVoteCounts} c
      WHERE c.poll_id = ${pollId} AND c.option_id IN (SELECT id FROM ballot)
      GROUP BY c.option_id
      HAVING sum(c.votes) <> 0
    ),
    tally AS (
      SELECT t.option_id, t.user_id FROM ${voteTallies} t
      WHERE t.poll_id = ${pollId} AND t.option_id IN (SELECT id FROM ballot)
    )
    SELECT o.option_id, false AS is_total, o.votes::int AS votes, o.points::int AS points,
      (SELECT count(*) FROM tally WHERE tally.option_id = o.option_id)::int AS voters
    FROM per_option o
    UNION ALL
    SELECT NULL, true, coalesce(sum(votes), 0)::int, coalesce(sum(points), 0)::int,
      (SELECT count(DISTINCT user_id) FROM tally)::int
    FROM per_option`);
  return rows.map((r): VoteCountRow => {
    const counts = { totalVotes: r.votes, totalPoints: r.points, totalVoters: r.voters };
    return r.is_total ? { ...counts, optionId: null, isTotal: true } : { ...counts, optionId: r.option_id!, isTotal: false };
  });
}

/** Votes of the poll an admin voided after review (index voided_votes_poll_idx). */
export async function countVoidedVotes(db: DbOrTx, pollId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(voidedVotes)
    .where(eq(voidedVotes.pollId, pollId));
  return row?.n ?? 0;
}

/**
 * Per option, the users named in its voters list, most recent voter first: read from `vote_tallies`
 * (newest vote per user and option), so it costs the poll's voters, not its votes. Fans who chose
 * not to be listed (profiles.show_in_voter_lists) are left out before the cap, and no points are
 * read: the lists say who, never how much.
 */
export async function listVoters(db: DbOrTx, pollId: string, perOption: number) {
  const perUser = db
    .select({
      optionId: voteTallies.optionId,
      userId: voteTallies.userId,
      displayName: profiles.displayName,
      avatarUrl: profiles.avatarUrl,
      rank: sql<number>`row_number() over (partition by ${voteTallies.optionId} order by ${voteTallies.lastVotedAt} desc, ${voteTallies.userId})`.as('rank'),
    })
    .from(voteTallies)
    .innerJoin(profiles, eq(profiles.id, voteTallies.userId))
    .where(and(eq(voteTallies.pollId, pollId), inArray(voteTallies.optionId, ballotOptionIds(db, pollId)), eq(profiles.showInVoterLists, true)))
    .as('per_user');

  return db
    .select({
      optionId: perUser.optionId,
      userId: perUser.userId,
      displayName: perUser.displayName,
      avatarUrl: perUser.avatarUrl,
    })
    .from(perUser)
    .where(lte(perUser.rank, perOption))
    .orderBy(asc(perUser.optionId), asc(perUser.rank));
}

export type VoterRow = Awaited<ReturnType<typeof listVoters>>[number];

/** The options on a poll's ballot in order, named as the public sees them (link previews). */
function ballotOptions(db: DbOrTx, pollId: string) {
  return db
    .select({
      id: pollOptions.id,
      text: pollOptions.text,
      contestantName: contestants.fullName,
      contestantPhotoUrl: contestants.photoUrl,
    })
    .from(pollOptions)
    .leftJoin(contestants, eq(contestants.id, pollOptions.contestantId))
    .where(and(eq(pollOptions.pollId, pollId), isNull(pollOptions.removedAt)))
    .orderBy(asc(pollOptions.order));
}

export type BallotOptionRow = Awaited<ReturnType<typeof ballotOptions>>[number];

/**
 * What validating a vote (and a link preview) needs to know about a poll, cached briefly
 * in-process (see pollCache.ts).
 */
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
    ballotOptions(db, pollId),
  ]);
  const row = rows[0];
  return row ? { ...row, options } : null;
}

export type VotingPollRow = NonNullable<Awaited<ReturnType<typeof findVotingPoll>>>;
