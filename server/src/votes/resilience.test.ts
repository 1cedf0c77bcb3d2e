import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../plugins/errors.ts';
import { QueueUnavailableError } from '../plugins/queues.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { useProxiedTestApp, type TcpProxy } from '../../../test/support/server/tcpProxy.ts';
import { POLL_CACHE_TTL_MS } from '../polls/pollCache.ts';

describe('votes when a dependency is down', () => {
  const database = testDatabase();
  let app: App;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;

  beforeAll(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await database.close();
  });
  // After the hooks above: started once the tables are empty, closed before the database.
  useProxiedTestApp({ REDIS_PREFIX: `${testConfig().redisPrefix}_resilience` }, (ready) => ({ app, pgProxy, redisProxy } = ready));

  it('still records and acknowledges votes while Redis is down (awards and live totals catch up later)', async () => {
    const user = await buildUser(database.db);
    const headers = asUser(await signIn(app, user));
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    await redisProxy.stop();
    try {
      const res = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers,
        payload: { allocations: [{ optionId: options[0]!.id, points: 2 }], deviceFingerprint: 'resilience_fp' },
      });
      expect(res.statusCode, res.body).toBe(201);
      // Acknowledged after COMMIT while Redis is still down (it comes back only below).
      expect(await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id))).toHaveLength(1);
    } finally {
      await redisProxy.start();
    }
  });

  it('skips the award jobs at once while the queue connection is down: nothing waits in memory for Redis', async () => {
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    const voters = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const user = await buildUser(database.db);
        return asUser(await signIn(app, user));
      }),
    );
    const jobCount = async () => Object.values(await app.queues.points.getJobCounts()).reduce((sum, n) => sum + n, 0);
    const jobsBefore = await jobCount();
    await redisProxy.stop();
    try {
      await vi.waitFor(() => expect(app.queuesReady()).toBe(false));
      // Every enqueue (shares' awards too) is refused at once rather than kept for later.
      await expect(app.enqueue('points.award-share', { shareId: '123e4567-e89b-42d3-a456-426614174000' })).rejects.toBeInstanceOf(QueueUnavailableError);
      for (const headers of voters) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/polls/${poll.id}/votes`,
          headers,
          payload: { allocations: [{ optionId: options[0]!.id, points: 1 }], deviceFingerprint: 'resilience_fp' },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      expect(await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id))).toHaveLength(voters.length);
      // The live totals' commands issued meanwhile are dropped by ioredis too, while Redis is still down.
      const offline = (app.redis as unknown as { offlineQueue: { length: number } }).offlineQueue;
      await vi.waitFor(() => expect(offline.length).toBe(0), { timeout: 15_000, interval: 100 });
    } finally {
      await redisProxy.start();
    }
    await vi.waitFor(() => expect(app.queuesReady()).toBe(true), { timeout: 10_000 });
    // Nothing was held back to be added now: those awards are the worker sweep's (points.sweep).
    expect(await jobCount()).toBe(jobsBefore);
  });

  it.each([
    ['with the poll cached', 0],
    ['with the poll to be read again', POLL_CACHE_TTL_MS + 50],
  ])('answers 503 Error al votar, writing nothing, while PostgreSQL is down (%s), and votes again once it is back', async (_, waitMs) => {
    const user = await buildUser(database.db);
    const headers = asUser(await signIn(app, user));
    const { poll, options } = await buildPoll(database.db);
    // Known to the server (signed-in session, and the poll unless its cache entry expires) before PostgreSQL goes away.
    const payload = { optionId: options[0]!.id, deviceFingerprint: 'resilience_fp' };
    const first = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload });
    expect(first.statusCode).toBe(201);
    await sleep(waitMs);
    await pgProxy.stop();
    try {
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload: { ...payload, optionId: options[1]!.id } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ message: VOTE_MESSAGES.voteFailed });
    } finally {
      await pgProxy.start();
    }
    let rows = await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => r.optionId)).toEqual([options[0]!.id]);

    // PostgreSQL is back: votes go through again within a couple of seconds (capped reconnect
    // backoff; the pool was not left with a dead connection).
    await vi.waitFor(
      async () => {
        const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload: { ...payload, optionId: options[1]!.id } });
        expect(res.statusCode).toBe(201);
      },
      { timeout: 5_000, interval: 100 },
    );
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload });
      expect(res.statusCode).toBe(201);
    }
    rows = await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => r.optionId)).toEqual([options[0]!.id]);
  });

  it('answers any other request needing PostgreSQL with 503 and a retry hint while it is down, never a 500', async () => {
    const { poll } = await buildPoll(database.db);
    await pgProxy.stop();
    try {
      const res = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}` });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ message: DATABASE_UNAVAILABLE_MESSAGE });
      expect(res.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    } finally {
      await pgProxy.start();
    }
    await vi.waitFor(async () => expect((await app.inject({ method: 'GET', url: `/api/polls/${poll.id}` })).statusCode).toBe(200), {
      timeout: 5_000,
      interval: 100,
    });
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
