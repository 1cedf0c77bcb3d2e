import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { useQueueWorker } from '../../../test/support/worker.ts';
import { findDailyReport, listActiveUsers, TODAY_WATERMARK } from './repository.ts';
import { WATERMARK_OVERLAP_MINUTES } from '../watermarks.ts';

/**
 * A fixed-offset zone where it is about noon as the file loads: "today" (decided by PostgreSQL's
 * now()) cannot change during these tests, however slow the machine or close to midnight in
 * Mexico City the run. Etc/GMT-N is UTC+N (POSIX signs); both PostgreSQL and Intl read it.
 */
const LOADED_AT = new Date();
const OFFSET_HOURS = Math.min(14, Math.max(-12, Math.round(12 - (LOADED_AT.getUTCHours() + LOADED_AT.getUTCMinutes() / 60))));
const TIME_ZONE = OFFSET_HOURS === 0 ? 'Etc/GMT' : `Etc/GMT${OFFSET_HOURS > 0 ? '-' : '+'}${Math.abs(OFFSET_HOURS)}`;
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_aggregates`, SHOW_TIMEZONE: TIME_ZONE });
const database = testDatabase();
const db = database.db;
const harness = useQueueWorker(config, database, 'maintenance', 60_000);

const run = harness.run;

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
/** The calendar day of SHOW_TIMEZONE an instant falls on, computed by the JS runtime (not PostgreSQL). */
const localDay = (at: Date) => dayFormat.format(at);

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function allRows() {
  const daily = await db.execute(sql`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, active_users, new_users, total_votes, page_views
    FROM report_daily ORDER BY day`);
  const active = await db.execute(sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, user_id FROM report_active_users ORDER BY day, user_id`);
  return { daily: [...daily], active: [...active] };
}

describe('day boundaries in SHOW_TIMEZONE (America/Mexico_City)', () => {
  // Fixed dates, so the product's own zone: a worker of its own, on its own pool and Redis prefix.
  const mexico = useQueueWorker(
    testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_aggregates_mx`, SHOW_TIMEZONE: 'America/Mexico_City' }),
    testDatabase(),
    'maintenance',
    60_000,
  );

  it('puts a vote at 23:59 local time and one at 00:01 the next morning on different days', async () => {
    // 2025-03-10 23:59 in Mexico City (UTC-6, no DST since 2022) is 2025-03-11T05:59Z; 00:01 on the 11th is 06:01Z.
    const late = await buildUser(db, { createdAt: new Date('2025-01-01T12:00:00Z') });
    const early = await buildUser(db, { createdAt: new Date('2025-01-01T12:00:00Z') });
    const { poll, options } = await buildPoll(db);
    await db.insert(schema.votes).values([
      { pollId: poll.id, optionId: options[0]!.id, userId: late.id, createdAt: new Date('2025-03-11T05:59:00Z') },
      { pollId: poll.id, optionId: options[1]!.id, userId: early.id, createdAt: new Date('2025-03-11T06:01:00Z') },
    ]);
    await mexico.run(mexico.app.enqueue('reports.aggregate-day', { day: '2025-03-10' }));
    await mexico.run(mexico.app.enqueue('reports.aggregate-day', { day: '2025-03-11' }));

    expect(await findDailyReport(db, '2025-03-10')).toMatchObject({ totalVotes: 1, activeUsers: 1 });
    expect(await findDailyReport(db, '2025-03-11')).toMatchObject({ totalVotes: 1, activeUsers: 1 });
    expect(await listActiveUsers(db, '2025-03-10')).toEqual([late.id]);
    expect(await listActiveUsers(db, '2025-03-11')).toEqual([early.id]);
  });
});

describe('aggregates against the raw rows', () => {
  /**
   * Random users, votes and page views (a quarter anonymous) over the last 5 days, with a few
   * placed a millisecond either side of local midnights; the expected figures are counted here,
   * in JS, from the rows as inserted.
   */
  async function seedRandom(seed: number) {
    const rand = random(seed);
    const now = Date.now();
    const span = 5 * 24 * 3600 * 1000;
    const midnights: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const day = localDay(new Date(now - i * 24 * 3600 * 1000));
      // Local midnight of `day` (a fixed offset, no DST).
      midnights.push(Date.parse(`${day}T00:00:00Z`) - OFFSET_HOURS * 3600 * 1000);
    }
    const instant = () => {
      if (rand() < 0.15) {
        const m = midnights[Math.floor(rand() * midnights.length)]!;
        return new Date(m + (rand() < 0.5 ? -1 : 0));
      }
      return new Date(now - Math.floor(rand() * span));
    };
    const users: Awaited<ReturnType<typeof buildUser>>[] = [];
    for (let i = 0; i < 25; i++) users.push(await buildUser(db, { createdAt: instant() }));
    const { poll, options } = await buildPoll(db, { options: 3 });
    const votes = Array.from({ length: 300 }, () => ({
      pollId: poll.id,
      optionId: options[Math.floor(rand() * options.length)]!.id,
      userId: users[Math.floor(rand() * users.length)]!.id,
      createdAt: instant(),
    }));
    const views = Array.from({ length: 500 }, () => ({
      userId: rand() < 0.25 ? null : users[Math.floor(rand() * users.length)]!.id,
      pagePath: '/',
      sessionId: 'session-0001',
      deviceType: 'desktop' as const,
      createdAt: instant(),
    }));
    await db.insert(schema.votes).values(votes);
    await db.insert(schema.pageViews).values(views);

    const expected = new Map<string, { newUsers: number; totalVotes: number; pageViews: number; active: Set<string> }>();
    const on = (at: Date) => {
      const day = localDay(at);
      if (!expected.has(day)) expected.set(day, { newUsers: 0, totalVotes: 0, pageViews: 0, active: new Set() });
      return expected.get(day)!;
    };
    for (const u of users) on(u.createdAt).newUsers++;
    for (const v of votes) {
      const e = on(v.createdAt);
      e.totalVotes++;
      e.active.add(v.userId);
    }
    for (const v of views) {
      const e = on(v.createdAt);
      e.pageViews++;
      if (v.userId) e.active.add(v.userId);
    }
    return expected;
  }

  it('recompute-all (set-based) and the incremental per-day run both equal a direct count, day by day', async () => {
    const expected = await seedRandom(14);
    const days = [...expected.keys()].sort();
    expect(days.length).toBeGreaterThanOrEqual(5);

    await run(harness.app.enqueue('reports.recompute-all', {}));
    const full = await allRows();
    expect(full.daily.map((r) => r.day)).toEqual(days);
    for (const day of days) {
      const e = expected.get(day)!;
      expect(await findDailyReport(db, day)).toEqual({
        day,
        activeUsers: e.active.size,
        newUsers: e.newUsers,
        totalVotes: e.totalVotes,
        pageViews: e.pageViews,
      });
      expect(await listActiveUsers(db, day)).toEqual([...e.active].sort());
    }
    // The activity bitmaps count each person once over any span of days, exactly as the raw rows do.
    const bitsCount = async (from: string, to: string) =>
      (
        await db.execute<{ n: number }>(sql`
        SELECT coalesce(sum(bit_count(b)), 0)::int AS n FROM (
          SELECT bit_or(bits) AS b FROM report_active_bits WHERE day BETWEEN ${from}::date AND ${to}::date GROUP BY block) AS blocks`)
      )[0]!.n;
    const distinctOver = (span: string[]) => new Set(span.flatMap((day) => [...expected.get(day)!.active])).size;
    expect(await bitsCount(days[0]!, days.at(-1)!)).toBe(distinctOver(days));
    expect(await bitsCount(days[1]!, days[3]!)).toBe(distinctOver(days.slice(1, 4)));
    expect(distinctOver(days)).toBeLessThan(days.reduce((sum, day) => sum + expected.get(day)!.active.size, 0));

    // The per-day path (what the 5-minute schedule runs) writes exactly the same rows.
    await db.execute(sql`DELETE FROM report_daily`);
    await db.execute(sql`DELETE FROM report_active_users`);
    for (const day of days) await run(harness.app.enqueue('reports.aggregate-day', { day }));
    const perDay = await allRows();
    expect(perDay).toEqual(full);
  });

  it('is idempotent: running recompute-all and the recent-days job twice leaves the same rows in both tables', async () => {
    await seedRandom(7);
    await run(harness.app.enqueue('reports.recompute-all', {}));
    const first = await allRows();
    await run(harness.app.enqueue('reports.recompute-all', {}));
    expect(await allRows()).toEqual(first);
    await run(harness.app.enqueue('reports.aggregate-recent-days', { days: 3 }));
    await run(harness.app.enqueue('reports.aggregate-recent-days', { days: 3 }));
    expect(await allRows()).toEqual(first);
    // Today's run: full the first time (no watermark yet), incremental the second.
    await run(harness.app.enqueue('reports.aggregate-recent-days', { days: 1 }));
    await run(harness.app.enqueue('reports.aggregate-recent-days', { days: 1 }));
    expect(await allRows()).toEqual(first);
  });

  it('recompute-all replaces stale figures and drops days outside the data', async () => {
    const expected = await seedRandom(21);
    const days = [...expected.keys()].sort();
    const stranger = await buildUser(db, { createdAt: new Date() });
    // Stale rows: a wrong figure on a real day, a day long before any data, and an active user who did nothing that day.
    await db.insert(schema.reportDaily).values([
      { day: days[1]!, activeUsers: 999, newUsers: 999, totalVotes: 999, pageViews: 999 },
      { day: '2020-01-01', activeUsers: 5, newUsers: 5, totalVotes: 5, pageViews: 5 },
    ]);
    await db.insert(schema.reportActiveUsers).values([
      { day: days[1]!, userId: stranger.id },
      { day: '2020-01-01', userId: stranger.id },
    ]);
    await run(harness.app.enqueue('reports.recompute-all', {}));
    expect(await findDailyReport(db, '2020-01-01')).toBeNull();
    expect(await listActiveUsers(db, '2020-01-01')).toEqual([]);
    expect(await listActiveUsers(db, days[1]!)).toEqual([...expected.get(days[1]!)!.active].sort());
    expect(await findDailyReport(db, days[1]!)).toMatchObject({ totalVotes: expected.get(days[1]!)!.totalVotes });
  });

  describe("today's run ({days: 1}): incremental for the active users once today has a watermark", () => {
    const runToday = () => run(harness.app.enqueue('reports.aggregate-recent-days', { days: 1 }));
    async function watermark() {
      const [row] = await db.execute<{ ms: number; day: string }>(sql`
        SELECT (extract(epoch FROM value) * 1000)::float8 AS ms, to_char(value AT TIME ZONE ${TIME_ZONE}, 'YYYY-MM-DD') AS day
        FROM maintenance_watermarks WHERE name = ${TODAY_WATERMARK}`);
      return row;
    }
    /** A vote by `userId` at `createdAt` on a poll of its own. */
    async function voteAt(userId: string, createdAt: Date) {
      const { poll, options } = await buildPoll(db);
      await db.insert(schema.votes).values({ pollId: poll.id, optionId: options[0]!.id, userId, createdAt });
    }

    it('after a full run, the incremental run counts new votes and page views exactly as a direct count', async () => {
      const expected = await seedRandom(33);
      const today = localDay(new Date());
      await runToday(); // no watermark yet: the full recompute of today
      const first = await watermark();
      expect(first?.day).toBe(today);

      // New activity: a new user who votes, an old one who only views a page signed in, an anonymous view.
      const now = new Date();
      const e = expected.get(today) ?? { newUsers: 0, totalVotes: 0, pageViews: 0, active: new Set<string>() };
      expected.set(today, e);
      const newcomer = await buildUser(db, { createdAt: now });
      e.newUsers++;
      const [reader] = await db.execute<{ id: string }>(sql`SELECT id FROM profiles WHERE id <> ${newcomer.id} ORDER BY id LIMIT 1`);
      await voteAt(newcomer.id, now);
      e.totalVotes++;
      await db
        .insert(schema.pageViews)
        .values([reader!.id, null].map((userId) => ({ userId, pagePath: '/', sessionId: 'session-0002', deviceType: 'mobile' as const, createdAt: now })));
      e.pageViews += 2;
      e.active.add(newcomer.id).add(reader!.id);

      await runToday();
      expect((await watermark())!.ms).toBeGreaterThan(first!.ms);
      expect(await findDailyReport(db, today)).toEqual({
        day: today,
        activeUsers: e.active.size,
        newUsers: e.newUsers,
        totalVotes: e.totalVotes,
        pageViews: e.pageViews,
      });
      expect(await listActiveUsers(db, today)).toEqual([...e.active].sort());
      // The same rows (and bitmaps) as a full recompute of today.
      const bits = () => db.execute(sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, block, bits::text FROM report_active_bits ORDER BY day, block`);
      const incremental = { ...(await allRows()), bits: [...(await bits())] };
      await run(harness.app.enqueue('reports.aggregate-day', { day: today }));
      expect({ ...(await allRows()), bits: [...(await bits())] }).toEqual(incremental);
    });

    it('reads back the overlap before the watermark: a late-committed vote inside it counts, an older one does not', async () => {
      await seedRandom(34);
      const today = localDay(new Date());
      await runToday();
      const { ms } = (await watermark())!;
      const late = await buildUser(db, { createdAt: new Date(ms - 3600_000) });
      const older = await buildUser(db, { createdAt: new Date(ms - 3600_000) });
      await voteAt(late.id, new Date(ms - (WATERMARK_OVERLAP_MINUTES / 2) * 60_000));
      // Older than the overlap: not read by the incremental run (a commit that late is not expected).
      await voteAt(older.id, new Date(ms - (WATERMARK_OVERLAP_MINUTES + 5) * 60_000));

      await runToday();
      const active = await listActiveUsers(db, today);
      expect(active).toContain(late.id);
      expect(active).not.toContain(older.id);
      expect((await findDailyReport(db, today))!.activeUsers).toBe(active.length);
    });

    it('a watermark of another day makes the run a full recompute of today (a stale active user is dropped)', async () => {
      const expected = await seedRandom(35);
      const today = localDay(new Date());
      const stranger = await buildUser(db, { createdAt: new Date('2024-01-01T12:00:00Z') });
      await runToday();
      await db.insert(schema.reportActiveUsers).values({ day: today, userId: stranger.id });

      // Same day: incremental, the stale row stays (only a full recompute removes rows).
      await runToday();
      expect(await listActiveUsers(db, today)).toContain(stranger.id);

      await db.execute(sql`UPDATE maintenance_watermarks SET value = value - interval '1 day' WHERE name = ${TODAY_WATERMARK}`);
      await runToday();
      const active = [...(expected.get(today)?.active ?? [])].sort();
      expect(await listActiveUsers(db, today)).toEqual(active);
      expect((await findDailyReport(db, today))!.activeUsers).toBe(active.length);
      expect((await watermark())!.day).toBe(today);
    });
  });

  it('recompute-all on an empty database writes a single day of zeros: today', async () => {
    const result = (await run(harness.app.enqueue('reports.recompute-all', {}))) as { from: string; to: string; days: number };
    const today = localDay(new Date());
    expect(result).toMatchObject({ from: today, to: today, days: 1, activeUserRows: 0 });
    expect(await findDailyReport(db, today)).toEqual({ day: today, activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 });
  });
});
