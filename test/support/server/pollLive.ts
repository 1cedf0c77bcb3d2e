import { and, eq } from 'drizzle-orm';
import type { CommittedVotes, VoterChange } from '@tribuna/contracts/live';
import type { Db } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

/**
 * Test helpers of the live module: write vote rows as the votes service would (so PostgreSQL, the
 * source of truth, agrees with what the test then hands to recordVotes) and build the batch.
 */

export interface TestVoter {
  id: string;
  displayName: string | null;
  avatarUrl: string | null;
}

/** Inserts one vote row and returns its VoterChange. */
export async function insertVote(db: Db, pollId: string, optionId: string, user: TestVoter, points = 1): Promise<VoterChange> {
  await db.insert(schema.votes).values({ pollId, optionId, userId: user.id, points });
  return { optionId, userId: user.id, displayName: user.displayName ?? 'Anonymous', avatarUrl: user.avatarUrl, points };
}

/** A single-choice move: deletes the user's rows on `fromOptionId`, inserts one on `toOptionId`. */
export async function moveVote(db: Db, pollId: string, fromOptionId: string, toOptionId: string, user: TestVoter): Promise<CommittedVotes> {
  const deleted = await db
    .delete(schema.votes)
    .where(and(eq(schema.votes.pollId, pollId), eq(schema.votes.userId, user.id), eq(schema.votes.optionId, fromOptionId)))
    .returning({ points: schema.votes.points });
  const added = await insertVote(db, pollId, toOptionId, user);
  return {
    pollId,
    committedAt: Date.now(),
    added: [added],
    removed: deleted.map((row) => ({ optionId: fromOptionId, userId: user.id, points: row.points })),
  };
}

export function batch(pollId: string, added: VoterChange[], removed: CommittedVotes['removed'] = []): CommittedVotes {
  return { pollId, committedAt: Date.now(), added, removed };
}
