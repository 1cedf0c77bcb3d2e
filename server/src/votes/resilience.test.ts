import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { asUser, signIn } from '../testing/sessions.ts';
import { useProxiedTestApp, type TcpProxy } from '../testing/tcpProxy.ts';

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
      const started = Date.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers,
        payload: { allocations: [{ optionId: options[0]!.id, points: 2 }], deviceFingerprint: 'resilience_fp' },
      });
      expect(res.statusCode, res.body).toBe(201);
      // Acknowledged after COMMIT, without waiting for Redis.
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id))).toHaveLength(1);
    } finally {
      await redisProxy.start();
    }
  });

  it('answers 503 Error al votar, writing nothing, while PostgreSQL is down', async () => {
    const user = await buildUser(database.db);
    const headers = asUser(await signIn(app, user));
    const { poll, options } = await buildPoll(database.db);
    // Known to the server (signed-in session and poll cached) before PostgreSQL goes away.
    const payload = { optionId: options[0]!.id, deviceFingerprint: 'resilience_fp' };
    const first = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload });
    expect(first.statusCode).toBe(201);
    await pgProxy.stop();
    try {
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload: { ...payload, optionId: options[1]!.id } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ message: VOTE_MESSAGES.voteFailed });
    } finally {
      await pgProxy.start();
    }
    let rows = await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => r.optionId)).toEqual([options[0]!.id]);

    // PostgreSQL is back: votes go through again (the pool was not left with a dead connection).
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 201; attempt++) {
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload: { ...payload, optionId: options[1]!.id } });
      status = res.statusCode;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload });
      expect(res.statusCode).toBe(201);
    }
    rows = await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => r.optionId)).toEqual([options[0]!.id]);
  });
});
