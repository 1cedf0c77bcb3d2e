import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@tribuna/drizzle/client';
import { votes, voteTallies } from '@tribuna/drizzle/schema/index';
import { ballotOptionIds, countVotes, listOptions } from '../repository.ts';

/**
 * Vote rows per user on the options on a poll's ballot: the voters hash of the live totals. From
 * `vote_tallies` (vote rows per user and option, kept with the votes), so its cost follows the voters.
 */
export async function countRowsPerVoter(db: DbOrTx, pollId: string) {
  return db
    .select({ userId: voteTallies.userId, rows: sql<number>`sum(${voteTallies.votes})::int` })
    .from(voteTallies)
    .where(and(eq(voteTallies.pollId, pollId), inArray(voteTallies.optionId, ballotOptionIds(db, pollId))))
    .groupBy(voteTallies.userId);
}

/** When the newest vote of a poll was written (ms since epoch), 0 without votes. */
export async function findLastVoteAt(db: DbOrTx, pollId: string): Promise<number> {
  const [row] = await db
    .select({ at: sql<string | null>`(extract(epoch from max(${votes.createdAt})) * 1000)::bigint::text` })
    .from(votes)
    .where(eq(votes.pollId, pollId));
  return row?.at ? Number(row.at) : 0;
}

/**
 * Everything a rebuild of the live totals needs, read in one REPEATABLE READ snapshot so the option
 * totals, the voters and the last vote time agree with each other. The totals come from the same
 * aggregate query as the HTTP results endpoint.
 */
export async function loadLiveTotals(db: Db, pollId: string) {
  return db.transaction(
    async (tx) => {
      const options = await listOptions(tx, [pollId]);
      const counts = await countVotes(tx, pollId);
      const voters = await countRowsPerVoter(tx, pollId);
      const lastVoteAt = await findLastVoteAt(tx, pollId);
      return { optionIds: options.map((o) => o.id), counts, voters, lastVoteAt };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export type LiveTotalsRows = Awaited<ReturnType<typeof loadLiveTotals>>;
