import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { HttpError } from '../http/errors.ts';
import { VoteBatcher, type CommittedBatch, type VoteCommand, type VoteOutcome } from './batcher.ts';
import { applyBatch, openLedgers } from './ledger.ts';
import type { BatchWrite } from './repository.ts';
import { voteAnswer, writerError } from './service.ts';
import { PollCache, type VotingPoll } from '../polls/pollCache.ts';

const database = testDatabase();
const db = database.db;
const TZ = 'America/Mexico_City';

afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await truncateAll(database);
});

function command(userId: string, poll: VotingPoll, allocations: [string, number][]): VoteCommand {
  return {
    userId,
    poll,
    allocations: allocations.map(([optionId, points]) => ({ optionId, points })),
    deviceFingerprint: 'batch_test_fp',
    userAgent: 'vitest',
  };
}

async function pointsPoll(max = 10) {
  const built = await buildPoll(db, { options: 2, maxPointsPerUser: max });
  const poll = (await new PollCache(db).get(built.poll.id))!;
  return { poll, a: built.options[0]!.id, b: built.options[1]!.id };
}

/** Settles every submission (all submitted in the same tick, so they share a batch). */
const settleAll = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

/** A vote's outcome as the route answers it (service.ts): the user's votes, or the HttpError of a refusal. */
const answered = (outcome: Promise<VoteOutcome>) =>
  outcome.then(
    (o) => voteAnswer(o, TZ),
    (err: unknown) => {
      throw writerError(err);
    },
  );

describe('the points ledger', () => {
  it('replays the decisions on the standing read: each accepted vote answers the pair as the batch left it', () => {
    const [ana, luis, pollId, other, a, b] = ['u-ana', 'u-luis', 'p-points', 'p-other', 'o-a', 'o-b'];
    const poll: VotingPoll = {
      id: pollId,
      title: 'Puntos',
      status: 'active',
      endDate: null,
      isFeatured: false,
      showResults: true,
      pointsPerVote: 1,
      maxPointsPerUser: 10,
      dailyReset: false,
      bonusForSharing: 0,
      optionIds: new Set([a, b]),
      options: [],
    };
    const closed: VotingPoll = { ...poll, id: other };
    const commands = [command(ana, poll, [[a, 5]]), command(ana, poll, [[b, 4]]), command(ana, poll, [[b, 2]]), command(luis, closed, [[a, 1]])];
    const at = new Date('2025-06-01T12:00:00Z');
    const votedAt = new Date('2025-06-01T12:00:01Z');
    const written: BatchWrite = {
      now: votedAt,
      standing: [{ userId: ana, pollId, options: [{ optionId: a, points: 3, lastVotedAt: at }], windowSpent: null }],
      decisions: [
        { kind: 'decided', accepted: true, available: 7 },
        { kind: 'decided', accepted: false, available: 2 },
        { kind: 'decided', accepted: true, available: 2 },
        { kind: 'refused', reason: 'closed' },
      ],
      added: [
        { userId: ana, pollId, optionId: a, points: 5 },
        { userId: ana, pollId, optionId: b, points: 2 },
      ],
      removed: [],
      profiles: [{ userId: ana, displayName: 'Ana', avatarUrl: null, listed: true }],
    };

    const ledgers = openLedgers(commands, at);
    expect([...ledgers.values()].map((l) => l.key)).toEqual([
      { userId: ana, pollId },
      { userId: luis, pollId: other },
    ]);
    const result = applyBatch(commands, ledgers, written);

    const [first, refused, last, refusedClosed] = result.outcomes;
    expect(first).toBe(last);
    expect(first).toMatchObject({ kind: 'accepted', spent: 10, at });
    expect([...(first as { options: Map<string, unknown> }).options.values()]).toEqual([
      { optionId: a, points: 8, lastVotedAt: votedAt },
      { optionId: b, points: 2, lastVotedAt: votedAt },
    ]);
    expect(refused).toEqual({ kind: 'refused', reason: 'points', available: 2 });
    expect(refusedClosed).toEqual({ kind: 'refused', reason: 'closed' });
    expect(result.voters).toEqual([{ userId: ana, pollId }]);
    expect(result.votedAt).toBe(votedAt);
    expect(result.changes).toEqual([
      {
        pollId,
        committedAt: 0,
        removed: [],
        added: [
          { optionId: a, userId: ana, displayName: 'Ana', avatarUrl: null, points: 5 },
          { optionId: b, userId: ana, displayName: 'Ana', avatarUrl: null, points: 2 },
        ],
      },
    ]);
  });

  it("checks commands in order in one transaction: one user's overspend fails alone", async () => {
    const committed: CommittedBatch[] = [];
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ, onCommitted: (b) => void committed.push(b) });
    const { poll, a, b } = await pointsPoll(10);
    const ana = await buildUser(db);
    const luis = await buildUser(db);

    const results = await settleAll([
      answered(batcher.submit(command(ana.id, poll, [[a, 8]]))),
      answered(batcher.submit(command(luis.id, poll, [[b, 4]]))),
      answered(batcher.submit(command(ana.id, poll, [[b, 5]]))), // sees the 8 above: only 2 left
      answered(batcher.submit(command(ana.id, poll, [[b, 2]]))),
    ]);
    await batcher.close();

    expect(batcher.stats).toMatchObject({ batches: 1, commands: 4, largestBatch: 4, failedBatches: 0 });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refusal = (results[2] as PromiseRejectedResult).reason as HttpError;
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal.statusCode).toBe(400);
    expect(refusal.message).toBe(VOTE_MESSAGES.tooManyPoints(2));

    const rows = await db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => [r.userId, r.optionId, r.points]).sort()).toEqual(
      [
        [ana.id, a, 8],
        [ana.id, b, 2],
        [luis.id, b, 4],
      ].sort(),
    );
    // Every accepted answer reflects the state after the batch.
    expect((results[3] as PromiseFulfilledResult<{ availablePoints: { spent: number } }>).value.availablePoints.spent).toBe(10);

    expect(committed).toHaveLength(1);
    expect(committed[0]!.voters).toHaveLength(2);
    expect(committed[0]!.changes).toHaveLength(1);
    expect(committed[0]!.changes[0]!.added).toHaveLength(3);
  });

  it('replaces a single-choice vote once however many commands of the pair share a batch', async () => {
    const committed: CommittedBatch[] = [];
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ, onCommitted: (b) => void committed.push(b) });
    const built = await buildPoll(db, { options: 3 });
    const poll = (await new PollCache(db).get(built.poll.id))!;
    const user = await buildUser(db);
    await db.insert(schema.votes).values({ pollId: poll.id, optionId: built.options[0]!.id, userId: user.id, points: 1 });
    const results = await settleAll(built.options.map((o) => answered(batcher.submit(command(user.id, poll, [[o.id, 1]])))));
    await batcher.close();
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const rows = await db.select().from(schema.votes);
    expect(rows.map((r) => [r.optionId, r.points])).toEqual([[built.options[2]!.id, 1]]);
    expect(committed[0]!.changes[0]).toMatchObject({
      removed: [{ optionId: built.options[0]!.id, userId: user.id, points: 1 }],
      added: [{ optionId: built.options[2]!.id, userId: user.id, points: 1 }],
    });
  });
});
