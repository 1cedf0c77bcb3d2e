// The worker killed with -9 in the middle of its long jobs: a point award sweep (part of its rounds
// committed), a full report recompute (its transaction open) and two abuse scans (rows 'running').
// A new worker takes the stalled jobs again (BullMQ gives them back once their lock expires); each
// must end applied exactly once: points equal to their history without a duplicate award, report
// rows equal to a direct count, the scans 'done' with the right flags, none left 'running'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { ABUSE_LIMITS } from '@tribuna/contracts/abuseRules';
import { QUEUE_NAMES } from '@tribuna/contracts/jobs';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from './support/services.ts';
import { newRedisPrefix, startWorkerProcess, type ProcessEnvInput, type RunningProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';

/** The worker's default SHOW_TIMEZONE (processEnv sets none). */
const TIME_ZONE = 'America/Mexico_City';
const USERS = 6_000;
/** Votes spread over the 200 days before the sweep's window (reports and abuse scan volume). */
const OLD_VOTES = 150_000;
/** Days the award sweep looks at (worker/src/points/service.ts SWEEP_DAYS). */
const SWEEP_DAYS = 3;

let pg: TestPostgres;
let redis: TestRedis;
let input: ProcessEnvInput;
let database: Database;
let connection: Redis;
const queues = new Map<string, Queue>();
const workers: RunningProcess[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  redis = await startRedis();
  input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix(), extra: { LOG_LEVEL: 'info' } };
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  for (const name of Object.values(QUEUE_NAMES)) queues.set(name, new Queue(name, { connection, prefix: input.redisPrefix }));
});

afterAll(async () => {
  for (const worker of workers) await worker.kill9();
  for (const queue of queues.values()) await queue.close();
  connection?.disconnect();
  await database?.close();
  await redis?.destroy();
  await pg?.destroy();
});

async function startWorker(): Promise<RunningProcess> {
  const worker = await startWorkerProcess(input);
  workers.push(worker);
  await waitUntil(() => worker.output().includes('"worker ready"'), { timeoutMs: 90_000, what: 'the worker to be ready' });
  return worker;
}

/** No job waiting or running on any queue (the worker's start-up jobs are done). */
async function queuesIdle(): Promise<boolean> {
  for (const queue of queues.values()) {
    const counts = await queue.getJobCounts('active', 'wait', 'prioritized');
    if (counts.active! + counts.wait! + counts.prioritized! > 0) return false;
  }
  return true;
}

const one = async <T>(query: Promise<T[]>): Promise<T> => (await query)[0]!;

describe('worker killed with -9 in the middle of its jobs', () => {
  it("retries the award sweep, the report recompute and the abuse scans (an admin's and a scheduled one) on a new worker, each applied exactly once", async () => {
    const first = await startWorker();
    database = createDatabase(pg.url('tribuna'), { max: 4, applicationName: 'tribuna-faults-test' });
    const db = database.db;
    await waitUntil(queuesIdle, { timeoutMs: 60_000, intervalMs: 250, what: "the worker's start-up jobs to finish" });

    // --- Volume, written directly (no award jobs): old votes, a few from devices several accounts
    // share or by accounts with several devices (the abuse scan's flags), and every user
    // voting on both polls on each of the sweep's days, none of those awarded yet.
    const admin = await buildUser(db, { role: 'admin' });
    const polls = [await buildPoll(db, { options: 3 }), await buildPoll(db, { options: 3 })];
    const optionIds = polls.flatMap((p) => p.options.map((o) => o.id));
    const started = Date.now();
    await db.execute(sql`
      INSERT INTO profiles (display_name, username, created_at)
      SELECT 'Fan ' || g, 'crash_' || g, now() - ((g % 200) || ' days')::interval FROM generate_series(0, ${USERS - 1}) g`);
    await db.execute(sql`CREATE TABLE crash_users AS SELECT id, (substring(username from 7))::int AS n FROM profiles WHERE username LIKE 'crash\\_%'`);
    await db.execute(sql`CREATE INDEX ON crash_users (n)`);
    const options = sql`(ARRAY[${sql.join(optionIds.map((id) => sql`${id}::uuid`), sql`, `)}])`;
    const pollIds = sql`(ARRAY[${sql.join(polls.map((p) => sql`${p.poll.id}::uuid`), sql`, `)}])`;
    await db.execute(sql`
      INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, created_at)
      SELECT ${pollIds}[1 + (g % 6) / 3], ${options}[1 + g % 6], u.id, 1,
        CASE WHEN g % 50 = 0 THEN 'shared_' || (g % 7)
             WHEN u.n % 40 = 0 THEN 'multi_' || u.n || '_' || (g % 4)
             ELSE 'own_' || u.n END,
        now() - ((${SWEEP_DAYS + 1} + g % 200) || ' days')::interval
      FROM generate_series(0, ${OLD_VOTES - 1}) g JOIN crash_users u ON u.n = g % ${USERS}`);
    await db.execute(sql`
      INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, created_at)
      SELECT ${pollIds}[p], ${options}[(p - 1) * 3 + 1 + u.n % 3], u.id, 1, 'own_' || u.n,
        greatest(now() - (d || ' days')::interval - ((u.n % 600) || ' seconds')::interval,
                 ((now() AT TIME ZONE ${TIME_ZONE})::date - ${SWEEP_DAYS - 1}::int)::timestamp AT TIME ZONE ${TIME_ZONE})
      FROM crash_users u, generate_series(1, 2) p, generate_series(0, ${SWEEP_DAYS - 1}) d`);
    await db.execute(sql`ANALYZE`);
    const missingAwards = async () =>
      (
        await one(
          db.execute<{ n: number }>(sql`
            SELECT count(*)::int AS n FROM (
              SELECT DISTINCT user_id, poll_id, to_char(created_at AT TIME ZONE ${TIME_ZONE}, 'YYYY-MM-DD') AS day FROM votes
              WHERE created_at >= (((now() AT TIME ZONE ${TIME_ZONE})::date - ${SWEEP_DAYS - 1}::int)::timestamp AT TIME ZONE ${TIME_ZONE})
            ) v
            WHERE NOT EXISTS (SELECT 1 FROM user_points_history h WHERE h.user_id = v.user_id AND h.reason = 'vote'
              AND h.reference_id = 'vote:' || v.poll_id || ':' || v.day)`),
        )
      ).n;
    const toAward = await missingAwards();
    const figures: Record<string, unknown> = { users: USERS, votes: OLD_VOTES + USERS * 2 * SWEEP_DAYS, awardsToGrant: toAward, setupMs: Date.now() - started };
    expect(toAward).toBe(USERS * 2 * SWEEP_DAYS);

    // --- The three jobs, as the schedule and the back-office queue them.
    const [scan] = await db.execute<{ id: string }>(sql`INSERT INTO abuse_scans (status, progress, requested_by) VALUES ('queued', 0, ${admin.id}) RETURNING id`);
    const jobs: Record<'sweep' | 'reports' | 'abuse' | 'scheduledAbuse', Job> = {
      sweep: await queues.get(QUEUE_NAMES.points)!.add('points.sweep', {}, { jobId: 'faults-sweep', attempts: 3 }),
      reports: await queues.get(QUEUE_NAMES.maintenance)!.add('reports.recompute-all', {}, { jobId: 'faults-recompute', attempts: 3 }),
      abuse: await queues.get(QUEUE_NAMES.maintenance)!.add('abuse.scan', { scanId: scan!.id }, { jobId: `abuse-scan.${scan!.id}`, attempts: 3 }),
      // The hourly schedule's run: no row until it starts (it creates its own).
      scheduledAbuse: await queues.get(QUEUE_NAMES.maintenance)!.add('abuse.scan', {}, { jobId: 'faults-scheduled-scan', attempts: 3 }),
    };
    const scheduledScansBefore = (
      await one(db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM abuse_scans WHERE requested_by IS NULL`))
    ).n;

    // --- The middle of all of them at once: some awards granted but not all, the recompute's
    // transaction open, both scans' rows 'running' (claimed or created, the report not written).
    const middle = { sweep: false, reports: false, abuse: false, scheduledAbuse: false };
    const enqueuedAt = Date.now();
    await waitUntil(
      async () => {
        const awarded = toAward - (await missingAwards());
        middle.sweep = awarded > 0 && awarded < toAward;
        const recompute = await db.execute(sql`
          SELECT 1 FROM pg_stat_activity
          WHERE application_name = 'tribuna-worker' AND xact_start IS NOT NULL AND query ILIKE '%report_%'`);
        middle.reports = recompute.length > 0;
        const row = await one(db.execute<{ status: string; progress: number }>(sql`SELECT status, progress FROM abuse_scans WHERE id = ${scan!.id}`));
        middle.abuse = row.status === 'running';
        const scheduled = await db.execute(sql`SELECT 1 FROM abuse_scans WHERE requested_by IS NULL AND status = 'running'`);
        middle.scheduledAbuse = scheduled.length > 0;
        return middle.sweep && middle.reports && middle.abuse && middle.scheduledAbuse;
      },
      { timeoutMs: 90_000, intervalMs: 50, what: 'the jobs in their middle at once' },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last seen: ${JSON.stringify(middle)}`);
    });
    await first.kill9();
    figures.killedAfterMs = Date.now() - enqueuedAt;
    for (const job of Object.values(jobs)) expect(await job.getState()).toBe('active');
    // A statement in flight when its client died may still commit; then nothing more moves.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    figures.awardedBeforeKill = toAward - (await missingAwards());
    const scanAtKill = await one(db.execute<{ status: string; progress: number }>(sql`SELECT status, progress FROM abuse_scans WHERE id = ${scan!.id}`));
    expect(scanAtKill.status).toBe('running');
    const reportRowsAtKill = (await one(db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM report_daily`))).n;

    // --- A new worker: BullMQ hands the stalled jobs back once their lock expires.
    const restartedAt = Date.now();
    const second = await startWorker();
    await waitUntil(
      async () => {
        const states = await Promise.all(Object.values(jobs).map(async (job) => (await queues.get(job.queueName)!.getJob(job.id!))!.getState()));
        const failed = states.indexOf('failed');
        if (failed >= 0) throw new Error(`job ${Object.keys(jobs)[failed]} failed: ${second.output().slice(-2000)}`);
        return states.every((s) => s === 'completed');
      },
      { timeoutMs: 120_000, intervalMs: 500, what: 'the jobs to be completed by the new worker' },
    );
    figures.recoveredAfterMs = Date.now() - restartedAt;
    for (const [name, job] of Object.entries(jobs)) {
      const done = (await queues.get(job.queueName)!.getJob(job.id!))!;
      // Taken again after the crash (a stall), not failed over to another attempt.
      expect(done.stalledCounter, `${name} stalled once`).toBe(1);
    }

    // (a) Awards: none missing, none twice, every total equal to its history.
    expect(await missingAwards()).toBe(0);
    const duplicates = await db.execute(sql`
      SELECT user_id, reason, reference_id FROM user_points_history GROUP BY 1, 2, 3 HAVING count(*) > 1`);
    expect(duplicates).toEqual([]);
    const drift = await db.execute(sql`
      SELECT p.id FROM profiles p LEFT JOIN (SELECT user_id, sum(points)::int AS points FROM user_points_history GROUP BY user_id) h ON h.user_id = p.id
      WHERE p.total_points <> coalesce(h.points, 0)`);
    expect(drift).toEqual([]);
    figures.awards = (await one(db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM user_points_history WHERE reason = 'vote'`))).n;
    expect(figures.awards).toBe(toAward);

    // (b) Reports: every day from the first row to today equals a direct count.
    const mismatches = await db.execute(sql`
      WITH days AS (
        SELECT g::date AS day FROM generate_series(
          (SELECT least(min(created_at), (SELECT min(created_at) FROM profiles)) AT TIME ZONE ${TIME_ZONE} FROM votes)::date,
          (now() AT TIME ZONE ${TIME_ZONE})::date, interval '1 day') g
      ),
      v AS (SELECT (created_at AT TIME ZONE ${TIME_ZONE})::date AS day, count(*)::int AS votes, count(DISTINCT user_id)::int AS voters FROM votes GROUP BY 1),
      p AS (SELECT (created_at AT TIME ZONE ${TIME_ZONE})::date AS day, count(*)::int AS n FROM profiles GROUP BY 1)
      SELECT d.day, r.total_votes, r.active_users, r.new_users, coalesce(v.votes, 0) AS votes, coalesce(v.voters, 0) AS voters, coalesce(p.n, 0) AS new_users_counted
      FROM days d LEFT JOIN report_daily r ON r.day = d.day LEFT JOIN v ON v.day = d.day LEFT JOIN p ON p.day = d.day
      WHERE r.day IS NULL OR r.total_votes <> coalesce(v.votes, 0) OR r.active_users <> coalesce(v.voters, 0) OR r.new_users <> coalesce(p.n, 0)`);
    expect(mismatches.slice(0, 5)).toEqual([]);
    figures.reportDays = { atKill: reportRowsAtKill, after: (await one(db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM report_daily`))).n };

    // (c) The abuse scan: its one row done, with the flags a direct count gives.
    const expected = await one(
      db.execute<{ devices: number; users: number; suspicious: number }>(sql`
        WITH pairs AS (SELECT user_id, device_fingerprint AS fp, count(*)::int AS votes FROM votes GROUP BY 1, 2),
        devices AS (SELECT fp FROM pairs WHERE fp IS NOT NULL GROUP BY fp HAVING count(*) >= ${ABUSE_LIMITS.accountsPerDevice}),
        users AS (SELECT user_id FROM pairs GROUP BY user_id HAVING count(fp) >= ${ABUSE_LIMITS.devicesPerUser})
        SELECT (SELECT count(*)::int FROM devices) AS devices, (SELECT count(*)::int FROM users) AS users,
          (SELECT coalesce(sum(votes), 0)::int FROM pairs WHERE fp IN (SELECT fp FROM devices) OR user_id IN (SELECT user_id FROM users)) AS suspicious`),
    );
    const scans = await db.execute<{ id: string; status: string; flagged_devices: number; flagged_users: number; suspicious_votes: number }>(
      sql`SELECT id, status, flagged_devices, flagged_users, suspicious_votes FROM abuse_scans WHERE requested_by = ${admin.id}`,
    );
    expect(scans).toEqual([
      { id: scan!.id, status: 'done', flagged_devices: expected.devices, flagged_users: expected.users, suspicious_votes: expected.suspicious },
    ]);
    // Some accounts and devices flagged, most not: the figures discriminate.
    expect(expected.devices).toBeGreaterThan(0);
    expect(expected.users).toBeGreaterThan(0);
    expect(expected.users).toBeLessThan(USERS / 2);
    figures.abuse = expected;
    // The scheduled scan cut off: its row is not left 'running' (the screen would show a scan that
    // never ends, and an admin's request would be answered with it); the retry's row is done.
    const scheduledScans = await db.execute<{ status: string; flagged_users: number }>(
      sql`SELECT status, flagged_users FROM abuse_scans WHERE requested_by IS NULL ORDER BY created_at, id OFFSET ${scheduledScansBefore}`,
    );
    figures.scheduledScanRows = scheduledScans.map((r) => r.status);
    expect(scheduledScans.filter((r) => r.status === 'running' || r.status === 'queued')).toEqual([]);
    expect(scheduledScans.filter((r) => r.status === 'done').map((r) => r.flagged_users)).toContain(expected.users);

    console.log(`[worker-crash] ${JSON.stringify(figures)}`);
  });
});
