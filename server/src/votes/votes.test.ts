import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { VOTE_MESSAGES, type AvailablePoints, type MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { CommittedVotes } from '@tribuna/contracts/live';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import type { LiveStore } from '../polls/live/store.ts';
import { SUSPENDED_MESSAGE } from '../identity/plugin.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { nextMidnight, startOfToday } from '@tribuna/contracts/showDay';

const TZ = 'America/Mexico_City';
const FINGERPRINT = 'device_fp_0123456789';
const HOUR = 3_600_000;

describe('votes API', () => {
  let app: App;
  let database: Database;
  let live: LiveStore;

  beforeAll(async () => {
    app = await buildApp(testConfig());
    database = testDatabase();
    // The real live module (Redis totals and fan-out); the tests watch what the votes hand it.
    live = app.pollsLive.store;
  });
  beforeEach(async () => {
    await truncateAll(database);
    vi.restoreAllMocks();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  async function signedInUser(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const vote = (pollId: string, headers: Record<string, string>, payload: object) =>
    app.inject({ method: 'POST', url: `/api/polls/${pollId}/votes`, headers, payload });

  const single = (optionId: string) => ({ optionId, deviceFingerprint: FINGERPRINT });
  const points = (...allocations: [string, number][]) => ({
    allocations: allocations.map(([optionId, p]) => ({ optionId, points: p })),
    deviceFingerprint: FINGERPRINT,
  });

  const storedVotes = (pollId: string) => database.db.select().from(schema.votes).where(eq(schema.votes.pollId, pollId)).orderBy(schema.votes.id);

  function expectError(res: { statusCode: number; json(): unknown; body: string }, status: number, message: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ statusCode: status, message });
  }

  describe('who may vote, on what', () => {
    it('answers 401 User not authenticated to a visitor', async () => {
      const { poll, options } = await buildPoll(database.db);
      const res = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers: { 'x-requested-with': 'tribuna' },
        payload: single(options[0]!.id),
      });
      expectError(res, 401, 'User not authenticated');
    });

    it('answers 403 to a suspended user and writes nothing', async () => {
      const { poll, options } = await buildPoll(database.db);
      const { headers } = await signedInUser({ isSuspended: true });
      expectError(await vote(poll.id, headers, single(options[0]!.id)), 403, SUSPENDED_MESSAGE);
      expect(await storedVotes(poll.id)).toHaveLength(0);
    });

    it('answers 404 Poll not found for a draft and an unknown poll', async () => {
      const { headers } = await signedInUser();
      const draft = await buildPoll(database.db, { status: 'draft' });
      expectError(await vote(draft.poll.id, headers, single(draft.options[0]!.id)), 404, VOTE_MESSAGES.pollNotFound);
      expectError(await vote('123e4567-e89b-42d3-a456-426614174000', headers, single(draft.options[0]!.id)), 404, VOTE_MESSAGES.pollNotFound);
      expect(await storedVotes(draft.poll.id)).toHaveLength(0);
    });

    it('answers 409 La encuesta está cerrada for a closed poll and for an active one past its end date', async () => {
      const { headers } = await signedInUser();
      const closed = await buildPoll(database.db, { status: 'closed' });
      const expired = await buildPoll(database.db, { endDate: new Date(Date.now() - 1000) });
      expectError(await vote(closed.poll.id, headers, single(closed.options[0]!.id)), 409, VOTE_MESSAGES.pollClosed);
      expectError(await vote(expired.poll.id, headers, single(expired.options[0]!.id)), 409, VOTE_MESSAGES.pollClosed);
      const ending = await buildPoll(database.db, { endDate: new Date(Date.now() + HOUR), maxPointsPerUser: 5 });
      expect((await vote(ending.poll.id, headers, points([ending.options[0]!.id, 1]))).statusCode).toBe(201);
    });

    it('refuses an option of another poll with 400, in both modes', async () => {
      const { headers } = await signedInUser();
      const target = await buildPoll(database.db);
      const pointsPoll = await buildPoll(database.db, { maxPointsPerUser: 10 });
      const other = await buildPoll(database.db);
      const foreign = other.options[0]!.id;
      expectError(await vote(target.poll.id, headers, single(foreign)), 400, VOTE_MESSAGES.foreignOption);
      expectError(await vote(pointsPoll.poll.id, headers, points([pointsPoll.options[0]!.id, 2], [foreign, 1])), 400, VOTE_MESSAGES.foreignOption);
      expect(await database.db.select().from(schema.votes)).toHaveLength(0);
    });

    it('wants { optionId } on a single-choice poll and { allocations } on a points poll', async () => {
      const { headers } = await signedInUser();
      const singlePoll = await buildPoll(database.db);
      const pointsPoll = await buildPoll(database.db, { maxPointsPerUser: 10 });
      expectError(await vote(singlePoll.poll.id, headers, points([singlePoll.options[0]!.id, 1])), 400, VOTE_MESSAGES.selectOption);
      expectError(await vote(pointsPoll.poll.id, headers, single(pointsPoll.options[0]!.id)), 400, VOTE_MESSAGES.assignPoint);
      expect(await database.db.select().from(schema.votes)).toHaveLength(0);
    });

    it('validates the body: a fingerprint is required and unknown fields are refused', async () => {
      const { headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db);
      expect((await vote(poll.id, headers, { optionId: options[0]!.id })).statusCode).toBe(400);
      expect((await vote(poll.id, headers, { ...single(options[0]!.id), points: 5 })).statusCode).toBe(400);
      expect((await vote(poll.id, headers, { optionId: 'nope', deviceFingerprint: FINGERPRINT })).statusCode).toBe(400);
    });

    it('refuses a mutation without the X-Requested-With header (CSRF)', async () => {
      const { poll, options } = await buildPoll(database.db);
      const user = await buildUser(database.db);
      const { cookie } = await signIn(app, user);
      const res = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers: { cookie }, payload: single(options[0]!.id) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('single choice', () => {
    it('stores one 1-point vote with the device fingerprint and the user agent cut to 512', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db);
      const userAgent = `Mozilla/5.0 ${'x'.repeat(600)}`;
      const res = await vote(poll.id, { ...headers, 'user-agent': userAgent }, single(options[1]!.id));
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json<MyVotesResponse>();
      expect(body.votes).toEqual([{ optionId: options[1]!.id, points: 1, createdAt: expect.any(String) }]);
      expect(body.availablePoints).toEqual({ pollId: poll.id, maxPoints: 1, spent: 1, available: 1, dailyReset: false, resetsAt: null });

      const rows = await storedVotes(poll.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        userId: user.id,
        optionId: options[1]!.id,
        points: 1,
        deviceFingerprint: FINGERPRINT,
        userAgent: userAgent.slice(0, 512),
      });
      expect(rows[0]!.createdAt.toISOString()).toBe(body.votes[0]!.createdAt);
    });

    it('stores a user agent without control characters, and none when absent', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 5 });
      // A NUL would make PostgreSQL refuse the row (and the whole batch with it).
      expect((await vote(poll.id, { ...headers, 'user-agent': 'Evil\u0000Agent\u0007/1.0' }, points([options[0]!.id, 1]))).statusCode).toBe(201);
      const noAgent = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers: { ...headers, 'user-agent': '' },
        payload: points([options[1]!.id, 1]),
      });
      expect(noAgent.statusCode).toBe(201);
      const rows = await storedVotes(poll.id);
      expect(rows.map((r) => r.userAgent)).toEqual(['EvilAgent/1.0', null]);
      expect(rows.every((r) => r.userId === user.id)).toBe(true);
    });

    it("replaces the user's earlier vote on that poll, and only theirs", async () => {
      const { user, headers } = await signedInUser();
      const other = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { options: 3 });
      expect((await vote(poll.id, other.headers, single(options[0]!.id))).statusCode).toBe(201);
      expect((await vote(poll.id, headers, single(options[0]!.id))).statusCode).toBe(201);
      const res = await vote(poll.id, headers, single(options[2]!.id));
      expect(res.statusCode).toBe(201);
      expect(res.json<MyVotesResponse>().votes.map((v) => v.optionId)).toEqual([options[2]!.id]);

      const rows = await storedVotes(poll.id);
      expect(rows.map((r) => [r.userId, r.optionId, r.points])).toEqual([
        [other.user.id, options[0]!.id, 1],
        [user.id, options[2]!.id, 1],
      ]);
    });
  });

  describe('points', () => {
    it('stores one row per option, drops zero-point allocations, and sums repeated options', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { options: 3, maxPointsPerUser: 10 });
      const [a, b, c] = options.map((o) => o.id) as [string, string, string];
      const before = new Date();
      const res = await vote(poll.id, headers, points([a, 4], [b, 0], [c, 2], [a, 1]));
      const after = new Date();
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json<MyVotesResponse>();
      expect(body.availablePoints).toMatchObject({ maxPoints: 10, spent: 7, available: 3, dailyReset: true });
      // The server's midnight, whichever side of a midnight in SHOW_TIMEZONE the vote fell on.
      expect([before, after].map((at) => nextMidnight(TZ, at).toISOString())).toContain(body.availablePoints.resetsAt);
      expect(new Map(body.votes.map((v) => [v.optionId, v.points]))).toEqual(
        new Map([
          [a, 5],
          [c, 2],
        ]),
      );

      const rows = await storedVotes(poll.id);
      expect(rows.map((r) => [r.optionId, r.points]).sort()).toEqual(
        [
          [a, 5],
          [c, 2],
        ].sort(),
      );
      expect(rows.every((r) => r.userId === user.id && r.deviceFingerprint === FINGERPRINT)).toBe(true);

      // A second vote adds to what the user has; my-votes shows one entry per option.
      expect((await vote(poll.id, headers, points([b, 3]))).statusCode).toBe(201);
      const mine = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/my-votes`, headers });
      expect(mine.statusCode).toBe(200);
      const my = mine.json<MyVotesResponse>();
      expect(new Map(my.votes.map((v) => [v.optionId, v.points]))).toEqual(
        new Map([
          [a, 5],
          [b, 3],
          [c, 2],
        ]),
      );
      expect(my.availablePoints).toMatchObject({ spent: 10, available: 0 });
    });

    it('answers 400 Por favor asigna al menos 1 punto when every allocation is zero', async () => {
      const { headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
      expectError(await vote(poll.id, headers, points([options[0]!.id, 0], [options[1]!.id, 0])), 400, VOTE_MESSAGES.assignPoint);
      expect(await storedVotes(poll.id)).toHaveLength(0);
    });

    it('refuses more than the available points with the exact number, writing nothing', async () => {
      const { headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
      expect((await vote(poll.id, headers, points([options[0]!.id, 7]))).statusCode).toBe(201);
      const res = await vote(poll.id, headers, points([options[0]!.id, 2], [options[1]!.id, 2]));
      expectError(res, 400, 'No puedes asignar más de 3 puntos');
      expect(res.json<{ message: string }>().message).toBe(VOTE_MESSAGES.tooManyPoints(3));
      expect((await storedVotes(poll.id)).map((r) => r.points)).toEqual([7]);
      expectError(await vote(poll.id, headers, points([options[1]!.id, 11])), 400, VOTE_MESSAGES.tooManyPoints(3));
      expect((await vote(poll.id, headers, points([options[1]!.id, 3]))).statusCode).toBe(201);
      expectError(await vote(poll.id, headers, points([options[1]!.id, 1])), 400, VOTE_MESSAGES.tooManyPoints(0));
    });

    it("counts points spent since 00:00 SHOW_TIMEZONE today with daily reset: yesterday's 23:59 no longer counts", async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
      // The app's clock pinned to noon of the show day: no midnight passes for the app during the
      // test, however slow the machine (votes the database stamps later still fall after 00:00).
      const now = new Date(startOfToday(TZ, new Date()).getTime() + 12 * HOUR);
      vi.useFakeTimers({ toFake: ['Date'], now });
      const midnight = startOfToday(TZ, now);
      await database.db.insert(schema.votes).values([
        { pollId: poll.id, optionId: options[0]!.id, userId: user.id, points: 6, createdAt: new Date(midnight.getTime() - 60_000) },
        { pollId: poll.id, optionId: options[1]!.id, userId: user.id, points: 3, createdAt: midnight },
      ]);
      const available = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/available-points`, headers });
      expect(available.json<AvailablePoints>()).toEqual({
        pollId: poll.id,
        maxPoints: 10,
        spent: 3,
        available: 7,
        dailyReset: true,
        resetsAt: nextMidnight(TZ, now).toISOString(),
      });
      expectError(await vote(poll.id, headers, points([options[0]!.id, 8])), 400, VOTE_MESSAGES.tooManyPoints(7));
      expect((await vote(poll.id, headers, points([options[0]!.id, 7]))).statusCode).toBe(201);
    });

    it('counts every point ever spent without daily reset', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
      await database.db.update(schema.pollPointsConfig).set({ dailyReset: false }).where(eq(schema.pollPointsConfig.pollId, poll.id));
      const midnight = startOfToday(TZ, new Date());
      await database.db.insert(schema.votes).values([
        { pollId: poll.id, optionId: options[0]!.id, userId: user.id, points: 6, createdAt: new Date(midnight.getTime() - 60_000) },
        { pollId: poll.id, optionId: options[1]!.id, userId: user.id, points: 2, createdAt: new Date(midnight.getTime() - 30 * 24 * HOUR) },
      ]);
      const available = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/available-points`, headers });
      expect(available.json<AvailablePoints>()).toMatchObject({ spent: 8, available: 2, dailyReset: false, resetsAt: null });
      expectError(await vote(poll.id, headers, points([options[0]!.id, 3])), 400, VOTE_MESSAGES.tooManyPoints(2));
    });
  });

  describe('my votes and available points', () => {
    it('need a signed-in user and a public poll', async () => {
      const { poll } = await buildPoll(database.db);
      const draft = await buildPoll(database.db, { status: 'draft' });
      const { headers } = await signedInUser();
      for (const path of ['my-votes', 'available-points']) {
        expectError(await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/${path}` }), 401, 'User not authenticated');
        expectError(await app.inject({ method: 'GET', url: `/api/polls/${draft.poll.id}/${path}`, headers }), 404, 'Poll not found');
      }
      const mine = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/my-votes`, headers });
      expect(mine.json()).toEqual({
        votes: [],
        availablePoints: { pollId: poll.id, maxPoints: 1, spent: 0, available: 1, dailyReset: false, resetsAt: null },
      });
    });
  });

  describe('under concurrency', () => {
    it('never lets 20 parallel points votes of one user overspend', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { options: 3, maxPointsPerUser: 10 });
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(poll.id, headers, points([options[i % 3]!.id, 3]))));
      const accepted = responses.filter((r) => r.statusCode === 201);
      const refused = responses.filter((r) => r.statusCode !== 201);
      expect(accepted).toHaveLength(3);
      for (const res of refused) expectError(res, 400, VOTE_MESSAGES.tooManyPoints(1));
      const [stored] = await database.db
        .select({ total: sql<number>`sum(${schema.votes.points})::int` })
        .from(schema.votes)
        .where(and(eq(schema.votes.pollId, poll.id), eq(schema.votes.userId, user.id)));
      expect(stored!.total).toBe(9);
    });

    it('leaves exactly one row after 20 parallel single-choice votes of one user', async () => {
      const { user, headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db, { options: 4 });
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(poll.id, headers, single(options[i % 4]!.id))));
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
      const rows = await storedVotes(poll.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ userId: user.id, points: 1 });
    });

    it('keeps many users voting at once apart', async () => {
      const { poll, options } = await buildPoll(database.db, { options: 2, maxPointsPerUser: 5 });
      const voters = await Promise.all(Array.from({ length: 30 }, () => signedInUser()));
      const responses = await Promise.all(
        voters.flatMap(({ headers }) => [vote(poll.id, headers, points([options[0]!.id, 3])), vote(poll.id, headers, points([options[1]!.id, 3]))]),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(30);
      const perUser = await database.sql<{ total: number }[]>`
        SELECT sum(points)::int AS total FROM votes WHERE poll_id = ${poll.id} GROUP BY user_id`;
      expect(perUser).toHaveLength(30);
      expect(perUser.every((r) => r.total === 3)).toBe(true);
    });
  });

  describe('after commit', () => {
    it('hands the committed votes to the live module, with replaced single-choice rows as removed', async () => {
      const recordVotes = vi.spyOn(live, 'recordVotes');
      const { user, headers } = await signedInUser({ displayName: null, username: 'sin_nombre', avatarUrl: '/media/a.webp' });
      const { poll, options } = await buildPoll(database.db);
      expect((await vote(poll.id, headers, single(options[0]!.id))).statusCode).toBe(201);
      await vi.waitFor(() => expect(recordVotes).toHaveBeenCalledTimes(1));
      expect(recordVotes.mock.calls[0]![0]).toEqual<CommittedVotes>({
        pollId: poll.id,
        committedAt: expect.any(Number),
        // No display name: 'Anonymous', as the HTTP results name the same voter (spec: display_name default 'Anonymous').
        added: [{ optionId: options[0]!.id, userId: user.id, displayName: 'Anonymous', avatarUrl: '/media/a.webp', points: 1 }],
        removed: [],
      });

      const before = Date.now();
      expect((await vote(poll.id, headers, single(options[1]!.id))).statusCode).toBe(201);
      await vi.waitFor(() => expect(recordVotes).toHaveBeenCalledTimes(2));
      const second = recordVotes.mock.calls[1]![0];
      expect(second).toMatchObject({
        pollId: poll.id,
        added: [{ optionId: options[1]!.id, userId: user.id, points: 1 }],
        removed: [{ optionId: options[0]!.id, userId: user.id, points: 1 }],
      });
      expect(second.committedAt).toBeGreaterThanOrEqual(before);
      expect(second.committedAt).toBeLessThanOrEqual(Date.now());
    });

    it('names a voter as the results do: display name, else Anonymous', async () => {
      const recordVotes = vi.spyOn(live, 'recordVotes');
      const { headers } = await signedInUser({ displayName: 'Ana', username: 'ana_mx' });
      const nameless = await signedInUser({ displayName: null, username: null });
      const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 5 });
      await vote(poll.id, headers, points([options[0]!.id, 2]));
      await vote(poll.id, nameless.headers, points([options[1]!.id, 1]));
      await vi.waitFor(() => expect(recordVotes.mock.calls.flatMap((c) => c[0].added)).toHaveLength(2));
      const names = recordVotes.mock.calls.flatMap((c) => c[0].added.map((a) => a.displayName)).sort();
      expect(names).toEqual(['Ana', 'Anonymous']);
    });

    it('never fails a committed vote when the live module fails', async () => {
      vi.spyOn(live, 'recordVotes').mockRejectedValue(new Error('redis down'));
      const { headers } = await signedInUser();
      const { poll, options } = await buildPoll(database.db);
      expect((await vote(poll.id, headers, single(options[0]!.id))).statusCode).toBe(201);
      expect(await storedVotes(poll.id)).toHaveLength(1);
    });
  });
});
