import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { BUS_ORIGINS, busChannel } from '@tribuna/contracts/events';
import { pointsJobIds } from '@tribuna/contracts/jobs';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../../../server/src/app.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { showDayOf } from '@tribuna/contracts/showDay';
import { useQueueWorker } from '../../../test/support/worker.ts';
import type { JobContext } from '../context.ts';
import { handlers } from '../handlers.ts';
import { createRegistry, InvalidJobPayloadError } from '../registry.ts';
import { pointsJobs } from './jobs.ts';
import * as repo from './repository.ts';
import { advanceWatermark } from '../watermarks.ts';
import { findMissingVoteAwards, grantVoteAwards } from './repository.ts';
import { sweep, SWEEP_CHUNK, SWEEP_DAYS, SWEEP_WATERMARKS, voteReference } from './service.ts';
import { WATERMARK_OVERLAP_MINUTES } from '../watermarks.ts';
import { openLockHolder, waitForBlocked } from '../../../test/support/locks.ts';

// Payloads are checked by the registry, once, before any handler runs (contracts/src/jobs.ts).
const registry = createRegistry(handlers);

// Own Redis namespace under the run's prefix: only this file's worker consumes these queues.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_points` });
const TZ = config.showTimezone;
const DAY = 24 * 3_600_000;
const database = testDatabase();
const db = database.db;
const logger = pino({ level: 'silent' });
const ctx: JobContext = { db, config, logger, publishEvent: async () => 0 };

const harness = useQueueWorker(config, database, 'points');

const run = harness.run;

async function history(userId: string) {
  return db.select().from(schema.userPointsHistory).where(eq(schema.userPointsHistory.userId, userId));
}

async function totalPoints(userId: string): Promise<number> {
  const [row] = await db.select({ total: schema.profiles.totalPoints }).from(schema.profiles).where(eq(schema.profiles.id, userId));
  return row!.total;
}

describe('points.award-vote', () => {
  it('awards points_per_vote once per user, poll and day, however often it runs', async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db, { title: 'Eliminación' });
    const payload = { userId: user.id, pollId: poll.id, day: '2025-01-15' };

    expect(await pointsJobs['points.award-vote'](payload, ctx)).toBe('awarded');
    expect(await pointsJobs['points.award-vote'](payload, ctx)).toBe('already-awarded');
    // Duplicated jobs running at the same moment.
    await Promise.all(Array.from({ length: 5 }, () => pointsJobs['points.award-vote'](payload, ctx)));

    const rows = await history(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ points: 1, reason: 'vote', referenceId: `vote:${poll.id}:2025-01-15`, description: 'Voto en «Eliminación»' });
    expect(await totalPoints(user.id)).toBe(1);

    // Another day of the same poll is another award.
    expect(await pointsJobs['points.award-vote']({ ...payload, day: '2025-01-16' }, ctx)).toBe('awarded');
    expect(await totalPoints(user.id)).toBe(2);
  });

  it('collapses duplicated jobs with the same id on the real queue', async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db);
    const payload = { userId: user.id, pollId: poll.id, day: '2025-02-01' };
    const jobId = pointsJobIds.awardVote(payload);
    const first = await harness.app.enqueue('points.award-vote', payload, jobId);
    const second = await harness.app.enqueue('points.award-vote', payload, jobId);
    expect(second.id).toBe(first.id);
    await first.waitUntilFinished(harness.events, 20_000);
    // Even a job id that BullMQ no longer remembers awards nothing twice.
    await run(harness.app.enqueue('points.award-vote', payload, `${jobId}.again`));
    expect(await history(user.id)).toHaveLength(1);
    expect(await totalPoints(user.id)).toBe(1);
  });

  it('skips a poll or user that no longer exists and refuses malformed payloads without retrying', async () => {
    const user = await buildUser(db);
    expect(await pointsJobs['points.award-vote']({ userId: user.id, pollId: '123e4567-e89b-42d3-a456-426614174000', day: '2025-01-15' }, ctx)).toBe('skipped');
    await expect(registry.dispatch('points.award-vote', { userId: user.id, pollId: 'x', day: '2025-01-15' }, ctx)).rejects.toBeInstanceOf(
      InvalidJobPayloadError,
    );
    await expect(registry.dispatch('points.award-vote', { userId: user.id, pollId: user.id, day: '2025-02-30' }, ctx)).rejects.toBeInstanceOf(
      InvalidJobPayloadError,
    );
    await expect(registry.dispatch('points.award-share', { shareId: 'nope' }, ctx)).rejects.toBeInstanceOf(InvalidJobPayloadError);
    expect(await history(user.id)).toHaveLength(0);
  });
});

describe('points.award-votes', () => {
  it("grants a batch's awards in one job: each (user, poll, day) once, under duplicated jobs too", async () => {
    const ana = await buildUser(db);
    const luis = await buildUser(db);
    const { poll } = await buildPoll(db, { title: 'Gala 1' });
    const other = await buildPoll(db, { title: 'Gala 2' });
    const day = '2025-03-01';
    // Luis already has his award for the first poll (a single job or another instance got there first).
    expect(await pointsJobs['points.award-vote']({ userId: luis.id, pollId: poll.id, day }, ctx)).toBe('awarded');
    const payload = {
      day,
      voters: [
        { userId: ana.id, pollId: poll.id },
        { userId: ana.id, pollId: other.poll.id },
        { userId: luis.id, pollId: poll.id },
        { userId: ana.id, pollId: poll.id }, // twice in one job
        { userId: ana.id, pollId: '123e4567-e89b-42d3-a456-426614174000' }, // a poll that is gone
      ],
    };
    expect(await pointsJobs['points.award-votes'](payload, ctx)).toEqual({ awarded: 2, alreadyAwarded: 1, skipped: 1 });
    // The same job again, and three copies at once, through the real queue.
    await Promise.all(Array.from({ length: 3 }, () => run(harness.app.enqueue('points.award-votes', payload))));
    expect(await pointsJobs['points.award-votes'](payload, ctx)).toEqual({ awarded: 0, alreadyAwarded: 3, skipped: 1 });

    expect((await history(ana.id)).map((h) => [h.referenceId, h.description]).sort()).toEqual(
      [
        [`vote:${poll.id}:${day}`, 'Voto en «Gala 1»'],
        [`vote:${other.poll.id}:${day}`, 'Voto en «Gala 2»'],
      ].sort(),
    );
    expect(await totalPoints(ana.id)).toBe(2);
    expect(await history(luis.id)).toHaveLength(1);
    expect(await totalPoints(luis.id)).toBe(1);
  });

  it('refuses malformed payloads without retrying', async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db);
    const bad = [
      { day: '2025-02-30', voters: [{ userId: user.id, pollId: poll.id }] },
      { day: '2025-03-01', voters: [{ userId: user.id, pollId: 'x' }] },
      { day: '2025-03-01', voters: 'nope' },
      { day: '2025-03-01', voters: Array.from({ length: 1001 }, () => ({ userId: user.id, pollId: poll.id })) },
    ];
    for (const payload of bad) {
      await expect(registry.dispatch('points.award-votes', payload as never, ctx)).rejects.toBeInstanceOf(InvalidJobPayloadError);
    }
    expect(await history(user.id)).toHaveLength(0);
  });
});

describe('points.award-share', () => {
  it("awards the share's points once, referenced by poll and day", async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db, { title: 'Gala 3' });
    const [share] = await db
      .insert(schema.shareHistory)
      .values({ pollId: poll.id, userId: user.id, platform: 'whatsapp', pointsEarned: 5, shareDay: '2025-01-15' })
      .returning();
    await run(harness.app.enqueue('points.award-share', { shareId: share!.id }, pointsJobIds.awardShare({ shareId: share!.id })));
    expect(await pointsJobs['points.award-share']({ shareId: share!.id }, ctx)).toBe('already-awarded');
    const rows = await history(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ points: 5, reason: 'share', referenceId: `share:${poll.id}:2025-01-15`, description: 'Compartiste «Gala 3»' });
    expect(await totalPoints(user.id)).toBe(5);
  });

  it('credits nothing for a share of a poll that was not active when shared, nor does the sweep', async () => {
    const user = await buildUser(db);
    const closed = await buildPoll(db, { status: 'closed' });
    const ended = await buildPoll(db, { endDate: new Date(Date.now() - DAY) });
    // Recorded with a bonus anyway (as the server did before it checked): the worker refuses it.
    const shares = await db
      .insert(schema.shareHistory)
      .values(
        [closed, ended].map(({ poll }) => ({
          pollId: poll.id,
          userId: user.id,
          platform: 'copy' as const,
          pointsEarned: 5,
          shareDay: showDayOf(TZ, new Date()),
        })),
      )
      .returning();
    for (const share of shares) {
      expect(await run(harness.app.enqueue('points.award-share', { shareId: share.id }, pointsJobIds.awardShare({ shareId: share.id })))).toBe('skipped');
    }
    expect(await sweep(ctx, { full: true })).toEqual({ voteAwards: 0, shareAwards: 0 });
    expect(await history(user.id)).toEqual([]);
    expect(await totalPoints(user.id)).toBe(0);
  });

  it('still credits a share of a poll closed after it was shared', async () => {
    const user = await buildUser(db);
    const { poll } = await buildPoll(db);
    const sharedAt = new Date(Date.now() - 60_000);
    const [share] = await db
      .insert(schema.shareHistory)
      .values({ pollId: poll.id, userId: user.id, platform: 'copy', pointsEarned: 5, shareDay: showDayOf(TZ, sharedAt), sharedAt })
      .returning();
    await db.update(schema.polls).set({ status: 'closed', updatedAt: new Date() }).where(eq(schema.polls.id, poll.id));
    expect(await run(harness.app.enqueue('points.award-share', { shareId: share!.id }, pointsJobIds.awardShare({ shareId: share!.id })))).toBe('awarded');
    expect(await totalPoints(user.id)).toBe(5);
  });
});

describe('points.sweep', () => {
  it('awards votes and shares of the last 3 days that have no award, and nothing twice', async () => {
    const ana = await buildUser(db);
    const luis = await buildUser(db);
    const { poll, options } = await buildPoll(db, { maxPointsPerUser: 10 });
    const now = Date.now();
    const vote = (userId: string, at: number, points = 1) => ({ pollId: poll.id, optionId: options[0]!.id, userId, points, createdAt: new Date(at) });
    await db.insert(schema.votes).values([
      vote(ana.id, now - 60_000, 3),
      vote(ana.id, now - 30_000, 2), // same day: still one award
      vote(ana.id, now - DAY),
      vote(luis.id, now - 60_000),
      vote(luis.id, now - 5 * DAY), // outside the window
    ]);
    // Luis's award for today already landed.
    const luisToday = showDayOf(TZ, new Date(now - 60_000));
    await pointsJobs['points.award-vote']({ userId: luis.id, pollId: poll.id, day: luisToday }, ctx);
    const [share] = await db
      .insert(schema.shareHistory)
      .values({ pollId: poll.id, userId: luis.id, platform: 'copy', pointsEarned: 5, shareDay: luisToday, sharedAt: new Date(now - 60_000) })
      .returning();

    const result = await run(harness.app.enqueue('points.sweep', {}));
    const anaDays = new Set([showDayOf(TZ, new Date(now - 60_000)), showDayOf(TZ, new Date(now - 30_000)), showDayOf(TZ, new Date(now - DAY))]);
    expect(result).toEqual({ voteAwards: anaDays.size, shareAwards: 1 });

    expect((await history(ana.id)).map((h) => h.referenceId).sort()).toEqual([...anaDays].map((d) => `vote:${poll.id}:${d}`).sort());
    expect(await totalPoints(ana.id)).toBe(anaDays.size);
    const luisRefs = (await history(luis.id)).map((h) => h.referenceId).sort();
    expect(luisRefs).toEqual([`share:${poll.id}:${share!.shareDay}`, `vote:${poll.id}:${luisToday}`].sort());
    expect(await totalPoints(luis.id)).toBe(6);

    expect(await run(harness.app.enqueue('points.sweep', {}))).toEqual({ voteAwards: 0, shareAwards: 0 });
    const [sums] = await db.execute<{ mismatched: number }>(sql`
      SELECT count(*)::int AS mismatched FROM profiles p
      WHERE p.total_points <> coalesce((SELECT sum(points) FROM user_points_history h WHERE h.user_id = p.id), 0)`);
    expect(sums!.mismatched).toBe(0);
  });
});

/** The sweep's watermarks: as Dates (ms) and as PostgreSQL writes them (exact). */
async function watermarks() {
  const rows = await db.execute<{ name: string; value: string; ms: number }>(
    sql`SELECT name, value::text AS value, (extract(epoch FROM value) * 1000)::float8 AS ms FROM maintenance_watermarks ORDER BY name`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, { text: r.value, at: new Date(r.ms) }]));
}

describe('points.sweep watermarks', () => {
  it('scans from the last complete sweep minus the overlap; a full sweep scans the whole window', async () => {
    const [dbNow] = await db.execute<{ ms: number }>(sql`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
    expect(await run(harness.app.enqueue('points.sweep', {}))).toEqual({ voteAwards: 0, shareAwards: 0 });
    const first = await watermarks();
    expect(Object.keys(first).sort()).toEqual([SWEEP_WATERMARKS.shares, SWEEP_WATERMARKS.votes]);
    const mark = first[SWEEP_WATERMARKS.votes]!.at;
    // The sweep's start on PostgreSQL's clock.
    expect(Math.abs(mark.getTime() - dbNow!.ms)).toBeLessThan(60_000);

    const { poll, options } = await buildPoll(db);
    const [behind, inOverlap, shareBehind, shareInOverlap] = await Promise.all([buildUser(db), buildUser(db), buildUser(db), buildUser(db)]);
    const minutesBefore = (minutes: number) => new Date(mark.getTime() - minutes * 60_000);
    // Awards lost before the watermark minus the overlap, and within the overlap (a transaction
    // that started before the last sweep and committed after it read the votes).
    const before = minutesBefore(WATERMARK_OVERLAP_MINUTES + 5);
    const within = minutesBefore(WATERMARK_OVERLAP_MINUTES / 2);
    const vote = (userId: string, createdAt: Date) => ({ pollId: poll.id, optionId: options[0]!.id, userId, points: 1, createdAt });
    await db.insert(schema.votes).values([vote(behind.id, before), vote(inOverlap.id, within)]);
    const share = (userId: string, sharedAt: Date) => ({
      pollId: poll.id,
      userId,
      platform: 'copy' as const,
      pointsEarned: 5,
      shareDay: showDayOf(TZ, sharedAt),
      sharedAt,
    });
    await db.insert(schema.shareHistory).values([share(shareBehind.id, before), share(shareInOverlap.id, within)]);

    // Incremental: only what is within the overlap.
    expect(await run(harness.app.enqueue('points.sweep', {}))).toEqual({ voteAwards: 1, shareAwards: 1 });
    expect((await history(inOverlap.id)).map((h) => h.referenceId)).toEqual([voteReference(poll.id, showDayOf(TZ, within))]);
    expect(await totalPoints(shareInOverlap.id)).toBe(5);
    expect(await history(behind.id)).toEqual([]);
    expect(await history(shareBehind.id)).toEqual([]);
    const second = await watermarks();
    for (const name of Object.values(SWEEP_WATERMARKS)) expect(second[name]!.at.getTime()).toBeGreaterThanOrEqual(first[name]!.at.getTime());

    // Full: the whole window, whatever the watermark.
    expect(await run(harness.app.enqueue('points.sweep', { full: true }))).toEqual({ voteAwards: 1, shareAwards: 1 });
    expect((await history(behind.id)).map((h) => h.referenceId)).toEqual([voteReference(poll.id, showDayOf(TZ, before))]);
    expect(await totalPoints(shareBehind.id)).toBe(5);
    expect(await run(harness.app.enqueue('points.sweep', { full: true }))).toEqual({ voteAwards: 0, shareAwards: 0 });

    // A payload that is not the contract fails the job for good.
    await expect(run(harness.app.enqueue('points.sweep', { full: 'yes' } as never))).rejects.toThrow(/Invalid payload/);
  });

  it('never moves a watermark backwards', async () => {
    await sweep(ctx);
    const ahead = new Date(Date.now() + DAY).toISOString();
    await advanceWatermark(db, SWEEP_WATERMARKS.votes, ahead);
    await sweep(ctx);
    expect((await watermarks())[SWEEP_WATERMARKS.votes]!.at.toISOString()).toBe(ahead);
  });

  it('keeps the watermark of a sweep cut short by an error, and moves it once a sweep completes', async () => {
    await sweep(ctx);
    const before = await watermarks();
    const user = await buildUser(db);
    const { poll, options } = await buildPoll(db);
    await db.insert(schema.votes).values({ pollId: poll.id, optionId: options[0]!.id, userId: user.id, points: 1 });

    const grant = vi.spyOn(repo, 'grantVoteAwards').mockRejectedValueOnce(new Error('connection lost'));
    try {
      await expect(sweep(ctx)).rejects.toThrow('connection lost');
      expect(grant).toHaveBeenCalledTimes(1);
    } finally {
      grant.mockRestore();
    }
    expect(await watermarks()).toEqual(before);
    expect(await history(user.id)).toEqual([]);

    expect(await sweep(ctx)).toEqual({ voteAwards: 1, shareAwards: 0 });
    const after = await watermarks();
    for (const name of Object.values(SWEEP_WATERMARKS)) expect(after[name]!.at.getTime()).toBeGreaterThan(before[name]!.at.getTime());
  });
});

describe('points.sweep racing another writer', () => {
  it("keeps going when a round's awards were granted meanwhile by someone else (an award job, a dead worker's last statement)", async () => {
    const { poll, options } = await buildPoll(db);
    await db.execute(sql`
      INSERT INTO profiles (display_name, username) SELECT 'Racer ' || g, 'sweep_race_' || g FROM generate_series(1, ${SWEEP_CHUNK + 200}) g`);
    await db.execute(sql`
      INSERT INTO votes (poll_id, option_id, user_id, points)
      SELECT ${poll.id}, ${options[0]!.id}, id, 1 FROM profiles WHERE username LIKE 'sweep\\_race\\_%'`);
    const missingBefore = (await findMissingVoteAwards(db, TZ, SWEEP_DAYS, 100_000)).length;
    expect(missingBefore).toBeGreaterThan(SWEEP_CHUNK);
    const firstRound = (await findMissingVoteAwards(db, TZ, SWEEP_DAYS, SWEEP_CHUNK)).map((k) => ({
      userId: k.userId,
      pollId: k.pollId,
      referenceId: voteReference(k.pollId, k.day),
    }));

    // Another writer grants the sweep's first round, held on one of its voters' rows until the
    // sweep has read that round as missing and waits behind it.
    const holder = await openLockHolder(config.databaseUrl);
    try {
      await holder.sql`SELECT 1 FROM profiles WHERE id = ${firstRound[0]!.userId} FOR UPDATE`;
      const other = grantVoteAwards(db, firstRound);
      const waiting = { applicationName: 'tribuna-test', query: '%INSERT INTO "user_points_history"%', timeoutMs: 30_000 };
      await waitForBlocked(database.sql, { ...waiting, blockedBy: holder.pid, what: 'the other writer to wait on the held row' });
      const swept = sweep(ctx);
      await waitForBlocked(database.sql, { ...waiting, count: 2, what: 'the sweep to wait behind the other writer' });
      await holder.release();

      expect(await other).toEqual({ eligible: SWEEP_CHUNK, credited: SWEEP_CHUNK });
      // Its first round found granted by the other writer, the sweep still awards the rest.
      expect(await swept).toEqual({ voteAwards: missingBefore - SWEEP_CHUNK, shareAwards: 0 });
      expect(await findMissingVoteAwards(db, TZ, SWEEP_DAYS, 100_000)).toEqual([]);
    } finally {
      await holder.release();
    }
  });
});

describe('points.daily-reset', () => {
  it('publishes the points.reset event for the new day on the event bus', async () => {
    const subscriber = new Redis(config.redisUrl);
    try {
      const channel = busChannel(config.redisPrefix);
      const received = new Promise<string>((resolve) => subscriber.on('message', (_from: string, message: string) => resolve(message)));
      await subscriber.subscribe(channel);
      const result = (await run(harness.app.enqueue('points.daily-reset', {}))) as { day: string };
      expect(result.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(JSON.parse(await received)).toEqual({ name: 'points.reset', origin: BUS_ORIGINS.worker, payload: { day: result.day } });
      expect([showDayOf(TZ, new Date(Date.now() - 60_000)), showDayOf(TZ, new Date())]).toContain(result.day);
    } finally {
      subscriber.disconnect();
    }
  });
});

describe('awards of votes and shares made through the API (server → BullMQ → worker)', () => {
  let app: App;

  beforeAll(async () => {
    app = await buildApp(config);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('awards 1 point per poll per day: a changed single-choice vote and more points earn nothing more', async () => {
    const user = await buildUser(db);
    const headers = asUser(await signIn(app, user));
    const single = await buildPoll(db, { options: 2 });
    const points = await buildPoll(db, { options: 2, maxPointsPerUser: 10 });
    const fingerprint = 'roundtrip_fp_01';
    const vote = (pollId: string, payload: object) =>
      app.inject({ method: 'POST', url: `/api/polls/${pollId}/votes`, headers, payload: { ...payload, deviceFingerprint: fingerprint } });

    expect((await vote(single.poll.id, { optionId: single.options[0]!.id })).statusCode).toBe(201);
    expect((await vote(single.poll.id, { optionId: single.options[1]!.id })).statusCode).toBe(201);
    expect((await vote(points.poll.id, { allocations: [{ optionId: points.options[0]!.id, points: 4 }] })).statusCode).toBe(201);
    expect((await vote(points.poll.id, { allocations: [{ optionId: points.options[1]!.id, points: 3 }] })).statusCode).toBe(201);

    await vi.waitFor(async () => expect(await history(user.id)).toHaveLength(2), { timeout: 15_000, interval: 100 });
    const [voted] = await db.select({ createdAt: schema.votes.createdAt }).from(schema.votes).where(eq(schema.votes.pollId, single.poll.id));
    const day = showDayOf(TZ, voted!.createdAt);
    const queue = harness.app.queues.get('points')!;
    // Each batch's first votes of the day went as one points.award-votes job.
    const completed = await queue.getJobs(['completed']);
    const awarded = completed
      .filter((j) => j.name === 'points.award-votes')
      .flatMap((j) => (j.data as { voters: { userId: string; pollId: string }[] }).voters)
      .filter((v) => v.userId === user.id);
    expect(awarded.map((v) => v.pollId).sort()).toEqual([single.poll.id, points.poll.id].sort());
    await vi.waitFor(async () => expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 }));

    expect((await history(user.id)).map((h) => [h.referenceId, h.points]).sort()).toEqual(
      [
        [`vote:${single.poll.id}:${day}`, 1],
        [`vote:${points.poll.id}:${showDayOf(TZ, voted!.createdAt)}`, 1],
      ].sort(),
    );
    expect(await totalPoints(user.id)).toBe(2);

    // A share of a closed poll through the API: recorded, answered, and worth nothing.
    const closed = await buildPoll(db, { status: 'closed' });
    const sharedClosed = await app.inject({ method: 'POST', url: `/api/polls/${closed.poll.id}/shares`, headers, payload: { platform: 'native' } });
    expect(sharedClosed.statusCode).toBe(201);
    expect(sharedClosed.json()).toMatchObject({ pointsEarned: 0, bonusAwarded: false, noBonusReason: 'poll-closed' });

    // A share of an active poll through the API: its bonus lands (and only its).
    const shared = await app.inject({ method: 'POST', url: `/api/polls/${single.poll.id}/shares`, headers, payload: { platform: 'native' } });
    expect(shared.statusCode).toBe(201);
    await vi.waitFor(async () => expect(await totalPoints(user.id)).toBe(7), { timeout: 15_000, interval: 100 });
    await vi.waitFor(async () => expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 }));
    expect(await sweep(ctx, { full: true })).toMatchObject({ shareAwards: 0 });
    expect(await totalPoints(user.id)).toBe(7);
    expect((await history(user.id)).filter((h) => h.reason === 'share').map((h) => h.referenceId)).toEqual([expect.stringContaining(single.poll.id)]);
  });
});
