import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { type ShareResponse } from '@tribuna/contracts/api/shares';
import { pointsJobIds } from '@tribuna/contracts/jobs';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { SUSPENDED_MESSAGE } from '../identity/plugin.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { showDayOf } from '@tribuna/contracts/showDay';

// Own Redis namespace: no worker of another test file consumes the jobs checked here.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_shares` });

describe('POST /api/polls/:pollId/shares', () => {
  let app: App;
  let database: Database;
  let queue: Queue;

  beforeAll(async () => {
    app = await buildApp(config);
    database = testDatabase();
    queue = new Queue('points', { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
  });
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await app.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await database.close();
  });

  const share = (pollId: string, headers: Record<string, string>, platform = 'whatsapp') =>
    app.inject({ method: 'POST', url: `/api/polls/${pollId}/shares`, headers, payload: { platform } });

  async function signedInUser(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  it('records the share with the default bonus and enqueues its award after the insert', async () => {
    const { user, headers } = await signedInUser();
    const { poll } = await buildPoll(database.db);
    const before = new Date();
    const res = await share(poll.id, headers);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<ShareResponse>();
    expect(body).toEqual({ pollId: poll.id, platform: 'whatsapp', pointsEarned: 5, bonusAwarded: true, noBonusReason: null, sharedAt: expect.any(String) });

    const [row] = await database.db.select().from(schema.shareHistory);
    expect(row).toMatchObject({ pollId: poll.id, userId: user.id, platform: 'whatsapp', pointsEarned: 5 });
    expect(row!.sharedAt.toISOString()).toBe(body.sharedAt);
    expect([showDayOf('America/Mexico_City', before), showDayOf('America/Mexico_City', new Date())]).toContain(row!.shareDay);

    const job = await queue.getJob(pointsJobIds.awardShare({ shareId: row!.id }));
    expect(job?.name).toBe('points.award-share');
    expect(job?.data).toEqual({ shareId: row!.id });
  });

  it("uses the poll's sharing bonus", async () => {
    const { headers } = await signedInUser();
    const { poll } = await buildPoll(database.db);
    await database.db.update(schema.pollPointsConfig).set({ bonusForSharing: 7 }).where(eq(schema.pollPointsConfig.pollId, poll.id));
    const res = await share(poll.id, headers, 'x');
    expect(res.statusCode).toBe(201);
    expect(res.json<ShareResponse>()).toMatchObject({ platform: 'x', pointsEarned: 7, bonusAwarded: true, noBonusReason: null });
  });

  it('records the share of a closed poll, or one past its end date, for nothing: no bonus, no award job', async () => {
    const { user, headers } = await signedInUser();
    const closed = await buildPoll(database.db, { status: 'closed' });
    const ended = await buildPoll(database.db, { endDate: new Date(Date.now() - 60_000) });
    for (const { poll } of [closed, ended]) {
      const res = await share(poll.id, headers, 'x');
      expect(res.statusCode).toBe(201);
      expect(res.json<ShareResponse>()).toMatchObject({ pollId: poll.id, platform: 'x', pointsEarned: 0, bonusAwarded: false, noBonusReason: 'poll-closed' });
    }
    const rows = await database.db.select().from(schema.shareHistory).where(eq(schema.shareHistory.userId, user.id));
    expect(rows.map((row) => row.pointsEarned)).toEqual([0, 0]);
    for (const row of rows) expect(await queue.getJob(pointsJobIds.awardShare({ shareId: row.id }))).toBeUndefined();
    // Still once a day.
    expect((await share(closed.poll.id, headers)).statusCode).toBe(409);
  });

  it('says why an active poll without a sharing bonus earns nothing', async () => {
    const { headers } = await signedInUser();
    const { poll } = await buildPoll(database.db);
    await database.db.update(schema.pollPointsConfig).set({ bonusForSharing: 0 }).where(eq(schema.pollPointsConfig.pollId, poll.id));
    expect((await share(poll.id, headers)).json<ShareResponse>()).toMatchObject({ pointsEarned: 0, bonusAwarded: false, noBonusReason: 'no-bonus' });
  });

  it('allows one share per poll per day: the second answers 409', async () => {
    const { headers } = await signedInUser();
    const first = await buildPoll(database.db);
    const second = await buildPoll(database.db);
    expect((await share(first.poll.id, headers)).statusCode).toBe(201);
    const again = await share(first.poll.id, headers, 'facebook');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ statusCode: 409, message: VOTE_MESSAGES.alreadyShared });
    expect((await share(second.poll.id, headers)).statusCode).toBe(201);
    expect(await database.db.select().from(schema.shareHistory)).toHaveLength(2);
  });

  it('allows a share on a new day', async () => {
    const { user, headers } = await signedInUser();
    const { poll } = await buildPoll(database.db);
    await database.db.insert(schema.shareHistory).values({
      pollId: poll.id,
      userId: user.id,
      platform: 'copy',
      pointsEarned: 5,
      shareDay: '2025-01-15',
      sharedAt: new Date('2025-01-15T18:00:00Z'),
    });
    expect((await share(poll.id, headers)).statusCode).toBe(201);
  });

  it('refuses visitors (401), suspended users (403), drafts and unknown polls (404), unknown platforms (400)', async () => {
    const { poll } = await buildPoll(database.db);
    const draft = await buildPoll(database.db, { status: 'draft' });
    const visitor = await share(poll.id, { 'x-requested-with': 'tribuna' });
    expect([visitor.statusCode, visitor.json().message]).toEqual([401, 'User not authenticated']);
    const suspended = await signedInUser({ isSuspended: true });
    const refused = await share(poll.id, suspended.headers);
    expect([refused.statusCode, refused.json().message]).toEqual([403, SUSPENDED_MESSAGE]);
    const { headers } = await signedInUser();
    expect((await share(draft.poll.id, headers)).json()).toMatchObject({ statusCode: 404, message: 'Poll not found' });
    expect((await share('123e4567-e89b-42d3-a456-426614174000', headers)).statusCode).toBe(404);
    expect((await share(poll.id, headers, 'myspace')).statusCode).toBe(400);
    expect(await database.db.select().from(schema.shareHistory)).toHaveLength(0);
  });
});
