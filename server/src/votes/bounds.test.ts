import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type postgres from 'postgres';
import { schema } from '@tribuna/drizzle';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, VoteBatcher, type VoteBatcherOptions, type VoteCommand, type VoteOutcome } from './batcher.ts';
import { voteAnswer, writerError } from './service.ts';
import { PollCache, type VotingPoll } from '../polls/pollCache.ts';

// The vote writer under overload, against a real PostgreSQL: a flush is held up by another
// connection keeping the (user, poll) advisory lock a batch needs, as a stuck writer would.

const database = testDatabase();
const db = database.db;
const TZ = 'America/Mexico_City';

afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await truncateAll(database);
});

const command = (userId: string, poll: VotingPoll, optionId: string): VoteCommand => ({
  userId,
  poll,
  allocations: [{ optionId, points: 1 }],
  deviceFingerprint: 'bounds_test_fp',
  userAgent: 'vitest',
});

async function setUp(users: number) {
  const built = await buildPoll(db, { options: 2, maxPointsPerUser: 10 });
  const poll = (await new PollCache(db).get(built.poll.id))!;
  const voters = await Promise.all(Array.from({ length: users }, () => buildUser(db)));
  return { poll, optionId: built.options[0]!.id, voters };
}

/** Holds, on its own connection, the advisory lock a batch takes for (user, poll), until released. */
async function holdVoterLock(userId: string, pollId: string) {
  const conn: postgres.ReservedSql = await database.sql.reserve();
  await conn`SELECT pg_advisory_lock(hashtextextended(${userId} || ':' || ${pollId}, 0))`;
  return {
    release: async () => {
      await conn`SELECT pg_advisory_unlock_all()`;
      conn.release();
    },
  };
}

/** Resolves once a batch is waiting for an advisory lock. */
const batchBlocked = () =>
  vi.waitFor(
    async () => {
      const [row] = await database.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      expect(row!.n).toBeGreaterThan(0);
    },
    { timeout: 5000, interval: 20 },
  );

/** A vote's outcome as the route answers it (service.ts): the user's votes, or the HttpError of a refusal. */
const answered = (outcome: Promise<VoteOutcome>) =>
  outcome.then(
    (o) => voteAnswer(o, TZ),
    (err: unknown) => {
      throw writerError(err);
    },
  );

/** Every submission settled as the route answers it, as [status, message] (201 for an accepted vote). */
async function outcomes(submissions: Promise<VoteOutcome>[]) {
  const settled = await Promise.allSettled(submissions.map(answered));
  return settled.map((r) => (r.status === 'fulfilled' ? [201, ''] : [(r.reason as { statusCode: number }).statusCode, (r.reason as Error).message]));
}

const storedUsers = async (pollId: string) =>
  (await db.select({ userId: schema.votes.userId }).from(schema.votes).where(eq(schema.votes.pollId, pollId))).map((r) => r.userId).sort();

const BUSY: [number, string] = [503, VOTE_MESSAGES.busy];

describe('vote writer bounds', () => {
  const writer = (options: Partial<VoteBatcherOptions>) =>
    new VoteBatcher({ sql: database.sql, timeZone: TZ, maxConcurrentFlushes: 1, maxBatchSize: 1, ...options });

  it('refuses a vote at once with 503 when the queue is full, writes none of the refused, and answers every vote', async () => {
    const { poll, optionId, voters } = await setUp(6);
    const batcher = writer({ maxQueuedCommands: 3, lockTimeoutMs: 10_000 });
    const lock = await holdVoterLock(voters[0]!.id, poll.id);
    const stuck = batcher.submit(command(voters[0]!.id, poll, optionId));
    await batchBlocked();
    const queued = voters.slice(1, 4).map((v) => batcher.submit(command(v.id, poll, optionId)));
    const overflow = voters.slice(4).map((v) => batcher.submit(command(v.id, poll, optionId)));

    // Refused while the flush is still stuck: nobody waits for the queue to move.
    expect(await outcomes(overflow)).toEqual([BUSY, BUSY]);
    await lock.release();
    expect(await outcomes([stuck, ...queued])).toEqual([
      [201, ''],
      [201, ''],
      [201, ''],
      [201, ''],
    ]);
    await batcher.close();
    expect(await storedUsers(poll.id)).toEqual(
      voters
        .slice(0, 4)
        .map((v) => v.id)
        .sort(),
    );
    expect(batcher.stats.refused).toBe(2);
  });

  it('refuses with 503 the votes that waited too long for their flush, even while the flush ahead stays stuck', async () => {
    const { poll, optionId, voters } = await setUp(3);
    const batcher = writer({ maxQueueWaitMs: 300, lockTimeoutMs: 10_000 });
    const lock = await holdVoterLock(voters[0]!.id, poll.id);
    const stuck = batcher.submit(command(voters[0]!.id, poll, optionId));
    await batchBlocked();
    const waiting = voters.slice(1).map((v) => batcher.submit(command(v.id, poll, optionId)));

    // Answered while the lock is still held: the queue's own timer refuses them.
    expect(await outcomes(waiting)).toEqual([BUSY, BUSY]);
    await lock.release();
    expect(await outcomes([stuck])).toEqual([[201, '']]);
    await batcher.close();
    expect(await storedUsers(poll.id)).toEqual([voters[0]!.id]);
  });

  it('gives up on a lock held past lockTimeoutMs: the whole batch answers 503 and writes nothing', async () => {
    const { poll, optionId, voters } = await setUp(2);
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ, lockTimeoutMs: 300 });
    const lock = await holdVoterLock(voters[0]!.id, poll.id);
    try {
      // Both in one batch: the one whose lock is free is refused with it (one transaction).
      const results = await outcomes(voters.map((v) => batcher.submit(command(v.id, poll, optionId))));
      expect(results).toEqual([BUSY, BUSY]);
      expect(await storedUsers(poll.id)).toEqual([]);
    } finally {
      await lock.release();
    }
    // The connection went back to the pool clean: the next batch goes through.
    expect(await outcomes([batcher.submit(command(voters[0]!.id, poll, optionId))])).toEqual([[201, '']]);
    await batcher.close();
    expect(await storedUsers(poll.id)).toEqual([voters[0]!.id]);
  });
});

describe('POST /api/polls/:pollId/votes while another writer holds the voter lock', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  it(`answers 503 busy with Retry-After once the lock wait passes ${DEFAULT_LOCK_TIMEOUT_MS} ms, writing nothing`, async () => {
    const { poll, optionId, voters } = await setUp(1);
    const headers = asUser(await signIn(app, voters[0]!));
    const lock = await holdVoterLock(voters[0]!.id, poll.id);
    try {
      const res = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers,
        payload: { allocations: [{ optionId, points: 1 }], deviceFingerprint: 'bounds_test_fp' },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ statusCode: 503, message: VOTE_MESSAGES.busy });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(await storedUsers(poll.id)).toEqual([]);
    } finally {
      await lock.release();
    }
  });
});
