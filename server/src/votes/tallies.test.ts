import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildPoll, buildUser, buildVotes } from '../../../test/support/factories.ts';

const database = testDatabase();
const db = database.db;

afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await truncateAll(database);
});

/** vote_tallies as they are, and as they should be from the votes themselves. */
async function tallies() {
  const stored = await database.sql<{ key: string; points: number; votes: number; last: string }[]>`
    SELECT user_id || '|' || poll_id || '|' || option_id AS key, points, votes, last_voted_at::text AS last
    FROM vote_tallies ORDER BY 1`;
  const expected = await database.sql<{ key: string; points: number; votes: number; last: string }[]>`
    SELECT user_id || '|' || poll_id || '|' || option_id AS key, sum(points)::int AS points, count(*)::int AS votes,
      max(created_at)::text AS last
    FROM votes GROUP BY 1 ORDER BY 1`;
  return { stored: [...stored], expected: [...expected] };
}

describe('vote_tallies', () => {
  it('follow every insert and delete of votes, whoever writes them', async () => {
    const { poll, options } = await buildPoll(db, { options: 3, maxPointsPerUser: 10 });
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    const at = (s: number) => new Date(Date.UTC(2025, 0, 15, 12, 0, s));
    await buildVotes(db, [
      { pollId: poll.id, optionId: options[0]!.id, userId: ana.id, points: 3, createdAt: at(1) },
      { pollId: poll.id, optionId: options[0]!.id, userId: ana.id, points: 2, createdAt: at(2) },
      { pollId: poll.id, optionId: options[1]!.id, userId: ana.id, points: 1, createdAt: at(3) },
    ]);
    await buildVotes(db, [{ pollId: poll.id, optionId: options[0]!.id, userId: luis.id, points: 4, createdAt: at(4) }]);
    let { stored, expected } = await tallies();
    expect(stored).toHaveLength(3);
    expect(stored).toEqual(expected);

    // Deleting the newest vote of an option moves its last vote back; deleting the last one removes the row.
    await db.delete(schema.votes).where(and(eq(schema.votes.userId, ana.id), eq(schema.votes.points, 2)));
    await db.delete(schema.votes).where(and(eq(schema.votes.userId, ana.id), eq(schema.votes.optionId, options[1]!.id)));
    ({ stored, expected } = await tallies());
    expect(stored).toEqual(expected);
    expect(stored.find((t) => t.key.startsWith(ana.id))).toMatchObject({ points: 3, votes: 1 });

    // A deleted option, user or poll takes its votes, and so its tallies, with it.
    await db.delete(schema.profiles).where(eq(schema.profiles.id, luis.id));
    ({ stored, expected } = await tallies());
    expect(stored).toEqual(expected);
    await db.delete(schema.polls).where(eq(schema.polls.id, poll.id));
    expect((await tallies()).stored).toEqual([]);
  });

  it('are emptied with a TRUNCATE of votes', async () => {
    const { poll, options } = await buildPoll(db);
    const user = await buildUser(db);
    await buildVotes(db, [{ pollId: poll.id, optionId: options[0]!.id, userId: user.id }]);
    await database.sql`TRUNCATE votes`;
    expect((await tallies()).stored).toEqual([]);
  });
});
