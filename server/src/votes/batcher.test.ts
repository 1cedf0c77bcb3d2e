import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fileContext } from '../../../test/support/fileContext.ts';
import { eq, sql } from 'drizzle-orm';
import { createDatabase } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { HttpError } from '../http/errors.ts';
import { VoteBatcher, type VoteCommand, type VoteOutcome } from './batcher.ts';
import { voteAnswer, writerError } from './service.ts';
import { PollCache, type VotingPoll } from '../polls/pollCache.ts';
import { pipelinedTransaction } from '@tribuna/drizzle/pipelined';

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

describe('VoteBatcher', () => {
  it('fails every command of a transaction that fails, writing nothing', async () => {
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ });
    const { poll, a } = await pointsPoll(10);
    const user = await buildUser(db);
    // A fingerprint past the column's check: the insert breaks a constraint.
    const [result] = await settleAll([answered(batcher.submit({ ...command(user.id, poll, [[a, 1]]), deviceFingerprint: 'x'.repeat(200) }))]);
    await batcher.close();
    expect(result!.status).toBe('rejected');
    const error = (result as PromiseRejectedResult).reason as HttpError;
    expect([error.statusCode, error.message]).toEqual([503, VOTE_MESSAGES.voteFailed]);
    expect(await db.select().from(schema.votes)).toHaveLength(0);
    expect(batcher.stats.failedBatches).toBe(1);
  });

  it('settles commands one by one when a row breaks a constraint, so the others still land', async () => {
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ });
    const { poll, a, b } = await pointsPoll(10);
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    await db.delete(schema.pollOptions).where(eq(schema.pollOptions.id, a));
    const results = await settleAll([answered(batcher.submit(command(ana.id, poll, [[a, 1]]))), answered(batcher.submit(command(luis.id, poll, [[b, 3]])))]);
    await batcher.close();
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    // PostgreSQL refuses the deleted option like the poll cache would have.
    expect(((results[0] as PromiseRejectedResult).reason as HttpError).message).toBe(VOTE_MESSAGES.foreignOption);
    const rows = await db.select().from(schema.votes);
    expect(rows.map((r) => [r.userId, r.optionId, r.points])).toEqual([[luis.id, b, 3]]);
  });

  it('groups what queues up while a flush is in flight, and answers everything before close() resolves', async () => {
    const batcher = new VoteBatcher({ sql: database.sql, timeZone: TZ, maxBatchSize: 50 });
    const { poll, a } = await pointsPoll(1000);
    const users = await Promise.all(Array.from({ length: 40 }, () => buildUser(db)));
    const first = answered(batcher.submit(command(users[0]!.id, poll, [[a, 1]])));
    // Arrive while the first batch is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    const rest = users.slice(1).map((u) => answered(batcher.submit(command(u.id, poll, [[a, 2]]))));
    const closing = batcher.close();
    await closing;
    const settled = await settleAll([first, ...rest]);
    expect(settled.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(batcher.stats.commands).toBe(40);
    expect(batcher.stats.batches).toBeLessThan(40);
    await expect(answered(batcher.submit(command(users[0]!.id, poll, [[a, 1]])))).rejects.toMatchObject({ statusCode: 503 });
  });

  it('never overspends when two writers (two server instances) take votes of one user at once', async () => {
    const other = testDatabase();
    try {
      const writers = [new VoteBatcher({ sql: database.sql, timeZone: TZ }), new VoteBatcher({ sql: other.sql, timeZone: TZ })];
      const { poll, a, b } = await pointsPoll(10);
      const user = await buildUser(db);
      const submissions: Promise<unknown>[] = [];
      for (let round = 0; round < 10; round++) {
        for (const writer of writers) submissions.push(answered(writer.submit(command(user.id, poll, [[round % 2 ? a : b, 2]]))));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const results = await settleAll(submissions);
      await Promise.all(writers.map((w) => w.close()));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      const rows = await db.select().from(schema.votes);
      expect(rows.reduce((sum, r) => sum + r.points, 0)).toBe(10);
    } finally {
      await other.close();
    }
  });
});

describe('a batch waiting for a connection', () => {
  it('gives up when the pooled connection it waits on is terminated (postgres.js strands such a reserve)', async () => {
    // One connection: the batch's reserve queues behind it, then the server ends that connection.
    const pool = createDatabase(fileContext().databaseUrl, { max: 1 });
    try {
      const held = await pool.sql.reserve();
      const [row] = await held<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const batch = pipelinedTransaction(pool.sql, async (tx) => tx.commit(), { reserveTimeoutMs: 500 });
      const outcome = batch.then(
        () => 'committed',
        (err: { code?: string }) => err.code,
      );
      await db.execute(sql`select pg_terminate_backend(${row!.pid})`);
      expect(await outcome).toBe('CONNECTION_RESERVE_TIMEOUT');
    } finally {
      await pool.sql.end({ timeout: 1 });
    }
  });
});
