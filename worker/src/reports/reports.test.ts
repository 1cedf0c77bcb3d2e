import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { sql } from 'drizzle-orm';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { useQueueWorker } from '../../../test/support/worker.ts';
import { findDailyReport, listActiveUsers } from './repository.ts';

// Own Redis namespace under the run's prefix (cleaned by the global teardown anyway).
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_reports` });
const database = testDatabase();
const db = database.db;
const harness = useQueueWorker(config, database, 'maintenance');

const at = (iso: string) => new Date(iso);

const run = harness.run;

/** Today in the show's time zone, as the database would say it. */
function dayIn(timeZone: string, daysAgo: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const d = new Date(`${parts}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
}

/**
 * 2025-01-15 in America/Mexico_City (UTC-6 in winter) runs from 06:00 UTC on the 15th to
 * 06:00 UTC on the 16th. Rows are placed on both sides of each boundary.
 */
let ACTIVE_ON_15: string[] = [];

async function insertAroundJanuary15() {
  const a = await buildUser(db, { createdAt: at('2025-01-15T06:00:00Z') }); // first instant of the day
  const b = await buildUser(db, { createdAt: at('2025-01-15T05:59:59.999Z') }); // previous day
  const c = await buildUser(db, { createdAt: at('2025-01-16T05:59:59Z') }); // last second of the day
  const d = await buildUser(db, { createdAt: at('2025-01-16T06:00:00Z') }); // next day
  const { poll, options } = await buildPoll(db, { options: 2, maxPointsPerUser: 10 });
  const vote = (userId: string, createdAt: string, points = 1) => ({
    pollId: poll.id,
    optionId: options[0]!.id,
    userId,
    points,
    createdAt: at(createdAt),
  });
  await db
    .insert(schema.votes)
    .values([
      vote(a.id, '2025-01-15T06:00:00Z'),
      vote(b.id, '2025-01-15T05:59:00Z'),
      vote(c.id, '2025-01-15T12:00:00Z', 4),
      vote(c.id, '2025-01-16T05:59:59Z', 6),
      vote(d.id, '2025-01-16T06:00:00Z'),
    ]);
  const view = (userId: string | null, createdAt: string) => ({
    userId,
    pagePath: '/',
    sessionId: 'session-0001',
    deviceType: 'mobile' as const,
    createdAt: at(createdAt),
  });
  await db.insert(schema.pageViews).values([
    view(d.id, '2025-01-15T20:00:00Z'), // d is active on the 15th through a page view only
    view(null, '2025-01-15T10:00:00Z'),
    view(a.id, '2025-01-15T07:00:00Z'),
    view(null, '2025-01-15T05:59:59Z'), // previous day
    view(null, '2025-01-16T06:00:00Z'), // next day
  ]);
  ACTIVE_ON_15 = [a.id, c.id, d.id];
}

describe('reports.aggregate-day through a real queue and worker', () => {
  it('counts the rows of that calendar day in SHOW_TIMEZONE and nothing across its boundaries', async () => {
    await insertAroundJanuary15();
    await run(harness.app.enqueue('reports.aggregate-day', { day: '2025-01-15' }));

    const row = await findDailyReport(db, '2025-01-15');
    expect(row).toEqual({ day: '2025-01-15', activeUsers: 3, newUsers: 2, totalVotes: 3, pageViews: 3 });
    // The people behind activeUsers, written in the same transaction: a, c and d (d by a page view only).
    expect(await listActiveUsers(db, '2025-01-15')).toEqual([...ACTIVE_ON_15].sort());

    await run(harness.app.enqueue('reports.aggregate-day', { day: '2025-01-14' }));
    expect(await findDailyReport(db, '2025-01-14')).toEqual({
      day: '2025-01-14',
      activeUsers: 1,
      newUsers: 1,
      totalVotes: 1,
      pageViews: 1,
    });
  });

  it('is idempotent: running it twice leaves the same single row', async () => {
    await insertAroundJanuary15();
    await run(harness.app.enqueue('reports.aggregate-day', { day: '2025-01-15' }));
    const first = await findDailyReport(db, '2025-01-15');
    await run(harness.app.enqueue('reports.aggregate-day', { day: '2025-01-15' }));
    const second = await findDailyReport(db, '2025-01-15');
    expect(second).toEqual(first);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.reportDaily);
    expect(count!.n).toBe(1);
  });

  it('corrects an existing row when rows change (recomputes, does not add)', async () => {
    await insertAroundJanuary15();
    await db.insert(schema.reportDaily).values({ day: '2025-01-15', activeUsers: 99, newUsers: 99, totalVotes: 99, pageViews: 99 });
    await run(harness.app.enqueue('reports.aggregate-day', { day: '2025-01-15' }));
    expect(await findDailyReport(db, '2025-01-15')).toMatchObject({ activeUsers: 3, totalVotes: 3 });
  });

  it('writes zeros for a day without activity', async () => {
    await run(harness.app.enqueue('reports.aggregate-day', { day: '2024-06-01' }));
    expect(await findDailyReport(db, '2024-06-01')).toEqual({
      day: '2024-06-01',
      activeUsers: 0,
      newUsers: 0,
      totalVotes: 0,
      pageViews: 0,
    });
  });

  it('fails a malformed day at once, without retries', async () => {
    const job = await harness.app.enqueue('reports.aggregate-day', { day: '2025-02-30' });
    await expect(job.waitUntilFinished(harness.events, 20_000)).rejects.toThrow(/Invalid payload for job "reports.aggregate-day": \/day .*calendar-day/);
    const failed = await harness.app.queues.get('maintenance')!.getJob(job.id!);
    expect(failed?.opts.attempts).toBeGreaterThan(1);
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe('failed');
  });

  it('fails a job name without handler with a clear error', async () => {
    const job = await harness.app.queues.get('maintenance')!.add('reports.unknown', {});
    await expect(job.waitUntilFinished(harness.events, 20_000)).rejects.toThrow('No handler for job "reports.unknown"');
  });
});

describe('reports.aggregate-recent-days', () => {
  it('aggregates today and yesterday as the show time zone sees them when it runs', async () => {
    const user = await buildUser(db);
    const { poll, options } = await buildPoll(db);
    await db.insert(schema.votes).values({ pollId: poll.id, optionId: options[0]!.id, userId: user.id });

    await run(harness.app.enqueue('reports.aggregate-recent-days', { days: 2 }));

    const today = dayIn(config.showTimezone, 0);
    const yesterday = dayIn(config.showTimezone, 1);
    const rows = await db.select({ day: schema.reportDaily.day }).from(schema.reportDaily).orderBy(schema.reportDaily.day);
    expect(rows.map((r) => r.day)).toEqual([yesterday, today]);
    expect(await findDailyReport(db, today)).toMatchObject({ totalVotes: 1, newUsers: 1, activeUsers: 1 });
  });
});
