import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { QueueEvents } from 'bullmq';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { REPORT_MESSAGES } from '@tribuna/contracts/reportRules';
import type { Report } from '@tribuna/contracts/api/admin/reports';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../../test/support/factories.ts';
import { startWorker, type WorkerApp } from '../../../../worker/src/app.ts';
import { recomputeDays } from '../../../../worker/src/reports/repository.ts';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';
import { dayIn } from './periods.ts';
import { getReport, RECOMPUTE_JOB_ID } from './service.ts';

const TIME_ZONE = 'America/Mexico_City';
let app: App;
let database: Database;
useTestApp({ SHOW_TIMEZONE: TIME_ZONE }, (ready) => ({ app, database } = ready));

const db = () => database.db;

async function asAdmin() {
  const admin = await buildUser(db(), { role: 'admin' });
  const headers = asUser(await signIn(app, admin));
  const get = (query: string) => app.inject({ method: 'GET', url: `/api/admin/reports${query}`, headers });
  const recompute = () => app.inject({ method: 'POST', url: '/api/admin/reports/recompute', headers });
  return { admin, get, recompute };
}

const daily = (day: string, figures: Partial<{ activeUsers: number; newUsers: number; totalVotes: number; pageViews: number }>, computedAt?: Date) => ({
  day,
  activeUsers: 0,
  newUsers: 0,
  totalVotes: 0,
  pageViews: 0,
  ...figures,
  ...(computedAt ? { computedAt } : {}),
});

describe('GET /api/admin/reports reads the aggregates only', () => {
  it('lists every day of the range newest first with zeros for days without a row, sums the totals, exact active users', async () => {
    const { get } = await asAdmin();
    const [ana, bea, carl] = [await buildUser(db()), await buildUser(db()), await buildUser(db())];
    await db()
      .insert(schema.reportDaily)
      .values([
        daily('2025-01-10', { activeUsers: 2, newUsers: 3, totalVotes: 10, pageViews: 100 }, new Date('2025-01-11T06:10:00Z')),
        daily('2025-01-12', { activeUsers: 2, newUsers: 1, totalVotes: 5, pageViews: 50 }, new Date('2025-01-13T06:05:00Z')),
        daily('2025-01-13', { activeUsers: 1, totalVotes: 1, pageViews: 7 }, new Date('2025-01-14T06:05:00Z')),
        // Outside the range: neither its figures nor its computed_at count.
        daily('2025-01-15', { activeUsers: 9, totalVotes: 99, pageViews: 999 }, new Date('2025-02-01T00:00:00Z')),
      ]);
    // Ana is active on all three days with activity: she counts once over the range.
    await db()
      .insert(schema.reportActiveUsers)
      .values([
        { day: '2025-01-10', userId: ana.id },
        { day: '2025-01-10', userId: bea.id },
        { day: '2025-01-12', userId: ana.id },
        { day: '2025-01-12', userId: bea.id },
        { day: '2025-01-13', userId: ana.id },
        { day: '2025-01-15', userId: carl.id },
      ]);
    // …and the same days as the worker's activity bitmaps (worker/src/reports/repository.ts).
    await db().execute(sql`INSERT INTO report_user_numbers (user_id) SELECT DISTINCT user_id FROM report_active_users ORDER BY user_id`);
    await db().execute(sql`
      INSERT INTO report_active_bits (day, block, bits)
      SELECT a.day, n.n / 8192, bit_or(B'1'::bit(8192) >> (n.n % 8192))
      FROM report_active_users a JOIN report_user_numbers n USING (user_id) GROUP BY 1, 2`);
    // Raw rows the worker has not aggregated are not read.
    const { poll, options } = await buildPoll(db());
    await db()
      .insert(schema.votes)
      .values({ pollId: poll.id, optionId: options[0]!.id, userId: carl.id, createdAt: new Date('2025-01-11T18:00:00Z') });

    const res = await get('?period=custom&from=2025-01-10&to=2025-01-14');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Report>()).toEqual({
      from: '2025-01-10',
      to: '2025-01-14',
      timeZone: TIME_ZONE,
      totals: { activeUsers: 2, newUsers: 4, totalVotes: 16, pageViews: 157 },
      days: [
        { day: '2025-01-14', activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 },
        { day: '2025-01-13', activeUsers: 1, newUsers: 0, totalVotes: 1, pageViews: 7 },
        { day: '2025-01-12', activeUsers: 2, newUsers: 1, totalVotes: 5, pageViews: 50 },
        { day: '2025-01-11', activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 },
        { day: '2025-01-10', activeUsers: 2, newUsers: 3, totalVotes: 10, pageViews: 100 },
      ],
      updatedAt: '2025-01-14T06:05:00.000Z',
    });
    // Summing the days would say 5 active users; the period had 2 people.
    expect(res.json<Report>().days.reduce((n, d) => n + d.activeUsers, 0)).toBe(5);
  });

  it('a period the worker never aggregated: zeros and updatedAt null', async () => {
    const { get } = await asAdmin();
    const res = await get('?period=custom&from=2020-02-27&to=2020-03-01');
    expect(res.statusCode).toBe(200);
    const report = res.json<Report>();
    expect(report.days.map((d) => d.day)).toEqual(['2020-03-01', '2020-02-29', '2020-02-28', '2020-02-27']);
    expect(report.totals).toEqual({ activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 });
    expect(report.updatedAt).toBeNull();
  });

  it('named periods are resolved on the server in SHOW_TIMEZONE (service at a fixed now; the route at the real now)', async () => {
    const now = new Date('2025-03-01T05:30:00Z'); // 2025-02-28 23:30 in Mexico City
    await db()
      .insert(schema.reportDaily)
      .values([daily('2025-02-28', { totalVotes: 4 }), daily('2025-03-01', { totalVotes: 50 })]);
    const today = await getReport(db(), { period: 'today' }, TIME_ZONE, now);
    expect(today).toMatchObject({ from: '2025-02-28', to: '2025-02-28', totals: { totalVotes: 4 } });
    const week = await getReport(db(), { period: 'week' }, TIME_ZONE, now);
    expect(week.days.map((d) => d.day)).toEqual(['2025-02-28', '2025-02-27', '2025-02-26', '2025-02-25', '2025-02-24', '2025-02-23', '2025-02-22']);

    const { get } = await asAdmin();
    const before = dayIn(TIME_ZONE, new Date());
    const res = await get('?period=week');
    const after = dayIn(TIME_ZONE, new Date());
    expect(res.statusCode).toBe(200);
    expect([before, after]).toContain(res.json<Report>().to);
    expect(res.json<Report>().days).toHaveLength(7);
  });

  it('refuses custom ranges with the screen messages', async () => {
    const { get } = await asAdmin();
    const cases: [string, string][] = [
      ['?period=custom', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&from=2025-01-01', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&to=2025-01-01', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&from=&to=2025-01-01', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&from=2025-1-1&to=2025-01-02', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&from=2025-02-30&to=2025-03-02', REPORT_MESSAGES.customDatesRequired],
      ['?period=custom&from=2025-01-02&to=2025-01-01', REPORT_MESSAGES.customOrder],
      ['?period=custom&from=2024-01-01&to=2025-02-04', REPORT_MESSAGES.customTooLong],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect({ query, status: res.statusCode, message: res.json().message }).toEqual({ query, status: 400, message });
    }
    expect((await get('?period=forever')).statusCode).toBe(400);
    expect((await get('')).statusCode).toBe(400);
    expect((await get('?period=custom&from=2024-01-01&to=2025-02-03')).statusCode).toBe(200);
  });
});

describe('worker aggregates read through the route', () => {
  it('a vote at 23:59 and one at 00:01 local time land on different days; a user active on 3 days counts once', async () => {
    const { get } = await asAdmin();
    const fan = await buildUser(db(), { createdAt: new Date('2025-01-01T12:00:00Z') });
    const other = await buildUser(db(), { createdAt: new Date('2025-01-01T12:00:00Z') });
    const { poll, options } = await buildPoll(db());
    const vote = (userId: string, at: string) => ({ pollId: poll.id, optionId: options[0]!.id, userId, createdAt: new Date(at) });
    await db()
      .insert(schema.votes)
      .values([
        vote(fan.id, '2025-03-11T05:59:00Z'), // 2025-03-10 23:59 in Mexico City
        vote(other.id, '2025-03-11T06:01:00Z'), // 2025-03-11 00:01
        vote(fan.id, '2025-03-11T20:00:00Z'), // the 11th again
        vote(fan.id, '2025-03-12T18:00:00Z'), // the 12th
      ]);
    await db()
      .insert(schema.pageViews)
      .values({ userId: other.id, pagePath: '/', sessionId: 'session-0001', deviceType: 'mobile', createdAt: new Date('2025-03-12T05:00:00Z') });
    await recomputeDays(db(), '2025-03-09', '2025-03-13', TIME_ZONE);

    const res = await get('?period=custom&from=2025-03-10&to=2025-03-12');
    const report = res.json<Report>();
    expect(report.days).toEqual([
      { day: '2025-03-12', activeUsers: 1, newUsers: 0, totalVotes: 1, pageViews: 0 },
      { day: '2025-03-11', activeUsers: 2, newUsers: 0, totalVotes: 2, pageViews: 1 },
      { day: '2025-03-10', activeUsers: 1, newUsers: 0, totalVotes: 1, pageViews: 0 },
    ]);
    expect(report.totals).toEqual({ activeUsers: 2, newUsers: 0, totalVotes: 4, pageViews: 1 });
    expect(report.updatedAt).not.toBeNull();
    const single = (await get('?period=custom&from=2025-03-10&to=2025-03-10')).json<Report>();
    expect(single.totals).toMatchObject({ activeUsers: 1, totalVotes: 1 });
  });
});

describe('the report cache follows the aggregates version', () => {
  const version = async () => (await db().execute<{ version: number }>(sql`SELECT coalesce(max(version), 0)::int AS version FROM report_version`))[0]!.version;

  it('every change of report_daily or report_active_bits raises the version; the route answers the new figures at once', async () => {
    const { get } = await asAdmin();
    const query = '?period=custom&from=2025-05-01&to=2025-05-03';
    const totals = async () => (await get(query)).json<Report>().totals;
    expect(await totals()).toEqual({ activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 });

    let seen = await version();
    const changes: [string, () => Promise<unknown>, Partial<Report['totals']>][] = [
      [
        'insert',
        () =>
          db()
            .insert(schema.reportDaily)
            .values(daily('2025-05-02', { totalVotes: 3, pageViews: 9 })),
        { totalVotes: 3, pageViews: 9 },
      ],
      ['update', () => db().execute(sql`UPDATE report_daily SET total_votes = 7 WHERE day = '2025-05-02'`), { totalVotes: 7 }],
      ['bits only', () => db().execute(sql`INSERT INTO report_active_bits (day, block, bits) VALUES ('2025-05-01', 0, B'11'::bit(8192))`), { activeUsers: 2 }],
      ['delete', () => db().execute(sql`DELETE FROM report_daily WHERE day = '2025-05-02'`), { totalVotes: 0, pageViews: 0 }],
    ];
    for (const [name, change, expected] of changes) {
      await change();
      const next = await version();
      expect({ name, raised: next > seen }).toEqual({ name, raised: true });
      seen = next;
      expect({ name, totals: await totals() }).toMatchObject({ name, totals: expected });
    }
    // A statement that changes nothing still raises it (statement-level), never lowers it.
    await db().execute(sql`DELETE FROM report_daily WHERE day = '1999-01-01'`);
    expect(await version()).toBeGreaterThan(seen);
  });

  it('the worker’s aggregation run is seen by a report read just before it', async () => {
    const { get } = await asAdmin();
    const fan = await buildUser(db(), { createdAt: new Date('2025-06-01T12:00:00Z') });
    const { poll, options } = await buildPoll(db());
    const query = '?period=custom&from=2025-06-10&to=2025-06-10';
    expect((await get(query)).json<Report>().totals.totalVotes).toBe(0);
    await db()
      .insert(schema.votes)
      .values({ pollId: poll.id, optionId: options[0]!.id, userId: fan.id, createdAt: new Date('2025-06-10T18:00:00Z') });
    // Raw rows alone do not move the report (it reads the aggregates only)…
    expect((await get(query)).json<Report>().totals.totalVotes).toBe(0);
    // …the worker's run does, on the very next read.
    await recomputeDays(db(), '2025-06-10', '2025-06-10', TIME_ZONE);
    expect((await get(query)).json<Report>().totals).toMatchObject({ totalVotes: 1, activeUsers: 1 });
  });
});

describe('POST /api/admin/reports/recompute', () => {
  let worker: WorkerApp | undefined;
  let events: QueueEvents | undefined;

  beforeEach(async () => {
    await app.queues.maintenance.obliterate({ force: true });
  });

  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await app?.queues.maintenance.obliterate({ force: true });
  });

  it('enqueues one recompute-all job, collapses repeated clicks while it is pending, audits each request; a finished run lets the next click run again', async () => {
    const { admin, recompute } = await asAdmin();
    const first = await recompute();
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ jobId: RECOMPUTE_JOB_ID });
    const second = await recompute();
    expect(second.json()).toEqual({ jobId: RECOMPUTE_JOB_ID });

    const queue = app.queues.maintenance;
    expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 1, active: 0, delayed: 0 });
    const job = await queue.getJob(RECOMPUTE_JOB_ID);
    expect(job?.name).toBe('reports.recompute-all');
    const audit = await db().select().from(schema.adminAuditLog);
    expect(audit.map((a) => [a.adminId, a.action, a.entityType])).toEqual([
      [admin.id, 'reports.recompute', 'report'],
      [admin.id, 'reports.recompute', 'report'],
    ]);

    // A real worker runs it: the aggregates of the vote's day appear.
    const user = await buildUser(db());
    const { poll, options } = await buildPoll(db());
    // The vote's own day, not the day the test asks after the job: a run across midnight in
    // SHOW_TIMEZONE still finds its row (the recompute covers every day up to today).
    const votedAt = new Date();
    await db().insert(schema.votes).values({ pollId: poll.id, optionId: options[0]!.id, userId: user.id, createdAt: votedAt });
    const config = testConfig({ SHOW_TIMEZONE: TIME_ZONE });
    events = new QueueEvents('maintenance', { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
    await events.waitUntilReady();
    worker = await startWorker({ config, db: db(), logger: pino({ level: 'silent' }), schedules: false });
    await job!.waitUntilFinished(events, 30_000);
    const votedDay = dayIn(TIME_ZONE, votedAt);
    const rows = await db().execute<{ total_votes: number; active_users: number }>(
      sql`SELECT total_votes, active_users FROM report_daily WHERE day = ${votedDay}::date`,
    );
    expect(rows[0]).toEqual({ total_votes: 1, active_users: 1 });

    // Completed: the next click is a new run, not swallowed by the finished one's id.
    const finishedAt = (await queue.getJob(RECOMPUTE_JOB_ID))!.finishedOn!;
    const third = await recompute();
    expect(third.statusCode).toBe(202);
    const again = await queue.getJob(RECOMPUTE_JOB_ID);
    await again!.waitUntilFinished(events, 30_000);
    expect((await queue.getJob(RECOMPUTE_JOB_ID))!.finishedOn!).toBeGreaterThanOrEqual(finishedAt);
    expect((await queue.getJob(RECOMPUTE_JOB_ID))!.timestamp).toBeGreaterThan(job!.timestamp);
  });
});
