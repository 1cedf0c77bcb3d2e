// The worker stopped in the middle of its long jobs. Each job is held in its middle by a lock this
// test takes in PostgreSQL, and seen waiting on it in pg_stat_activity, never caught by polling
// (on a quiet machine the jobs finish before a poll sees them):
// - a (full) point award sweep: its first round of awards committed, the second round's statement waiting
//   on a voter's profile row (FOR UPDATE) that only that round touches;
// - a full report recompute: its transaction open with the range's report_active_users rewritten,
//   waiting to insert into report_user_numbers (held in SHARE mode);
// - an admin's abuse scan and a scheduled one: their rows 'running', their repeatable-read
//   transactions open, their read of votes queued behind this test's ACCESS EXCLUSIVE request on
//   votes, itself queued behind the recompute's read (PostgreSQL grants locks in queue order).
// 1. kill -9, then a new worker: BullMQ's stall recovery hands the jobs back and each is applied
//    exactly once: totals equal to their history without a duplicate award, report_daily equal to a
//    direct count, the admin's scan row done with the right flags, the dead scheduled row failed
//    ('Análisis interrumpido') and the retry's own row done.
// 2. SIGTERM while the sweep is held: the worker waits for it, exits 1 after its forced-exit grace
//    (worker/src/main.ts), and the next worker takes the job again and applies it exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { ABUSE_LIMITS, ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import { QUEUE_NAMES, type QueueName } from '@tribuna/contracts/jobs';
import { findMissingVoteAwards } from '../../worker/src/points/repository.ts';
import { SWEEP_CHUNK, SWEEP_DAYS } from '../../worker/src/points/service.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { openLockHolder, waitForBlocked, waitForNoBackends, type LockHolder } from '../support/locks.ts';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from './support/services.ts';
import { newRedisPrefix, startWorkerProcess, type ProcessEnvInput, type RunningProcess } from './support/processes.ts';
import { GiveUp, waitUntil } from './support/wait.ts';

const TIME_ZONE = 'America/Mexico_City';
const USERS = 2_500;
/** Votes spread over the 200 days before the sweep's window (report days, abuse flags). */
const OLD_VOTES = 40_000;
/**
 * A stalled job comes back once its lock has expired (BullMQ's lockDuration, 30 s: the worker
 * keeps the defaults) and a stalled check of the new worker has seen it twice (stalledInterval,
 * 30 s): about 90 s at most, then the job runs. Generous, for a loaded machine.
 */
const RECOVERY_TIMEOUT_MS = 300_000;

let pg: TestPostgres;
let redis: TestRedis;
let input: ProcessEnvInput;
let database: Database;
let connection: Redis;
const queues = new Map<QueueName, Queue>();
const workers: RunningProcess[] = [];
const holders: LockHolder[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  redis = await startRedis();
  input = {
    databaseUrl: pg.url('tribuna'),
    redisUrl: redis.url,
    redisPrefix: newRedisPrefix(),
    extra: { LOG_LEVEL: 'info', SHOW_TIMEZONE: TIME_ZONE },
  };
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  for (const name of Object.values(QUEUE_NAMES)) queues.set(name, new Queue(name, { connection, prefix: input.redisPrefix }));
});

afterAll(async () => {
  for (const worker of workers) await worker.kill9();
  for (const holder of holders) await holder.release();
  for (const queue of queues.values()) await queue.close();
  connection?.disconnect();
  await database?.close();
  await redis?.destroy();
  await pg?.destroy();
});

async function startWorker(): Promise<RunningProcess> {
  const worker = await startWorkerProcess(input);
  workers.push(worker);
  await waitUntil(
    () => {
      if (worker.child.exitCode !== null) throw new GiveUp(`worker exited: ${worker.output().slice(-2000)}`);
      return worker.output().includes('"worker ready"');
    },
    { timeoutMs: 90_000, what: 'the worker to be ready' },
  );
  return worker;
}

async function lockHolder(): Promise<LockHolder> {
  const holder = await openLockHolder(input.databaseUrl);
  holders.push(holder);
  return holder;
}

/**
 * A worker started, then its schedules taken out of Redis (with their next runs) and its start-up
 * jobs finished: no scheduled run competes for the locks this test holds. The next worker to
 * start registers the schedules again.
 */
async function startQuietWorker(): Promise<RunningProcess> {
  const worker = await startWorker();
  for (const queue of queues.values()) {
    for (const scheduler of await queue.getJobSchedulers()) await queue.removeJobScheduler(scheduler.key);
  }
  await waitUntil(
    async () => {
      for (const queue of queues.values()) {
        const counts = await queue.getJobCounts('active', 'wait', 'prioritized', 'delayed');
        if (counts.active! + counts.wait! + counts.prioritized! + counts.delayed! > 0) return false;
      }
      return true;
    },
    { timeoutMs: 120_000, intervalMs: 250, what: "the worker's start-up jobs to finish" },
  );
  return worker;
}

const fresh = async (job: Job): Promise<Job> => (await queues.get(job.queueName as QueueName)!.getJob(job.id!))!;

/** Waits until every job is completed; a failed one fails the test at once with the worker's log. */
async function waitForCompleted(jobs: Record<string, Job>, worker: RunningProcess): Promise<void> {
  await waitUntil(
    async () => {
      const states = await Promise.all(Object.values(jobs).map(async (job) => (await fresh(job)).getState()));
      const failed = states.indexOf('failed');
      if (failed >= 0) throw new GiveUp(`job ${Object.keys(jobs)[failed]} failed: ${worker.output().slice(-3000)}`);
      return states.every((s) => s === 'completed');
    },
    { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 500, what: 'the jobs to be completed by the new worker' },
  );
}

const one = async <T>(query: Promise<T[]>): Promise<T> => (await query)[0]!;
const count = async (query: ReturnType<typeof sql>): Promise<number> => (await one(database.db.execute<{ n: number }>(query))).n;

/** Windows of the sweep: (user, poll, day) voted in its SWEEP_DAYS days without a vote award. */
const missingAwards = () =>
  count(sql`
    SELECT count(*)::int AS n FROM (
      SELECT DISTINCT user_id, poll_id, to_char(created_at AT TIME ZONE ${TIME_ZONE}, 'YYYY-MM-DD') AS day FROM votes
      WHERE created_at >= (((now() AT TIME ZONE ${TIME_ZONE})::date - ${SWEEP_DAYS - 1}::int)::timestamp AT TIME ZONE ${TIME_ZONE})
    ) v
    WHERE NOT EXISTS (SELECT 1 FROM user_points_history h WHERE h.user_id = v.user_id AND h.reason = 'vote'
      AND h.reference_id = 'vote:' || v.poll_id || ':' || v.day)`);
const voteAwards = () => count(sql`SELECT count(*)::int AS n FROM user_points_history WHERE reason = 'vote'`);

/**
 * Holds, in `holder`'s transaction, the profile row of a voter whose award is in the sweep's
 * second round and not its first (the sweep's own query and chunk size say which), so the first
 * round commits and the second waits.
 */
async function holdSecondSweepRound(holder: LockHolder): Promise<string> {
  const next = await findMissingVoteAwards(database.db, TIME_ZONE, SWEEP_DAYS, 2 * SWEEP_CHUNK);
  const firstRound = new Set(next.slice(0, SWEEP_CHUNK).map((k) => k.userId));
  const voter = next.slice(SWEEP_CHUNK).find((k) => !firstRound.has(k.userId));
  if (!voter) throw new Error(`no voter only in the sweep's second round (${next.length} awards missing)`);
  await holder.sql`SELECT 1 FROM profiles WHERE id = ${voter.userId} FOR UPDATE`;
  return voter.userId;
}

/** Every award exactly once: none missing, none twice, every total equal to its history. */
async function expectAwardsExactlyOnce(): Promise<void> {
  expect(await missingAwards()).toBe(0);
  expect(await database.db.execute(sql`SELECT user_id, reason, reference_id FROM user_points_history GROUP BY 1, 2, 3 HAVING count(*) > 1`)).toEqual([]);
  const drift = await database.db.execute(sql`
    SELECT p.id FROM profiles p LEFT JOIN (SELECT user_id, sum(points)::int AS points FROM user_points_history GROUP BY user_id) h ON h.user_id = p.id
    WHERE p.total_points <> coalesce(h.points, 0)`);
  expect(drift).toEqual([]);
}

describe('worker stopped in the middle of its jobs', () => {
  it("killed with -9: the award sweep, the report recompute and the abuse scans (an admin's and a scheduled one) are retried on a new worker, each applied exactly once", async () => {
    const first = await startQuietWorker();
    database = createDatabase(input.databaseUrl, { max: 4, applicationName: 'tribuna-faults-test' });
    const db = database.db;

    // --- Volume, written directly (no award jobs): old votes, a few from devices several
    // accounts share or by accounts with several devices (the abuse scan's flags), and every
    // user voting on both polls on each of the sweep's days, none of those awarded yet.
    const admin = await buildUser(db, { role: 'admin' });
    const polls = [await buildPoll(db, { options: 3 }), await buildPoll(db, { options: 3 })];
    const optionIds = polls.flatMap((p) => p.options.map((o) => o.id));
    const started = Date.now();
    await db.execute(sql`
        INSERT INTO profiles (display_name, username, created_at)
        SELECT 'Fan ' || g, 'crash_' || g, now() - ((g % 200) || ' days')::interval FROM generate_series(0, ${USERS - 1}) g`);
    await db.execute(sql`CREATE TABLE faults_users AS SELECT id, (substring(username from 7))::int AS n FROM profiles WHERE username LIKE 'crash\\_%'`);
    await db.execute(sql`CREATE INDEX ON faults_users (n)`);
    const options = sql`(ARRAY[${sql.join(
      optionIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}])`;
    const pollIds = sql`(ARRAY[${sql.join(
      polls.map((p) => sql`${p.poll.id}::uuid`),
      sql`, `,
    )}])`;
    await db.execute(sql`
        INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, created_at)
        SELECT ${pollIds}[1 + (g % 6) / 3], ${options}[1 + g % 6], u.id, 1,
          CASE WHEN g % 50 = 0 THEN 'shared_' || (g % 7)
               WHEN u.n % 40 = 0 THEN 'multi_' || u.n || '_' || (g % 4)
               ELSE 'own_' || u.n END,
          now() - ((${SWEEP_DAYS + 1} + g % 200) || ' days')::interval
        FROM generate_series(0, ${OLD_VOTES - 1}) g JOIN faults_users u ON u.n = g % ${USERS}`);
    await db.execute(sql`
        INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, created_at)
        SELECT ${pollIds}[p], ${options}[(p - 1) * 3 + 1 + u.n % 3], u.id, 1, 'own_' || u.n,
          -- Never before the first instant of its own local day d days ago: just after midnight in
          -- the show's time zone the jitter would otherwise move a vote into the day before.
          greatest(now() - (d || ' days')::interval - ((u.n % 600) || ' seconds')::interval,
                   ((now() AT TIME ZONE ${TIME_ZONE})::date - d)::timestamp AT TIME ZONE ${TIME_ZONE})
        FROM faults_users u, generate_series(1, 2) p, generate_series(0, ${SWEEP_DAYS - 1}) d`);
    // A stale aggregate of a day with no rows at all: the full recompute deletes it.
    await db.execute(sql`INSERT INTO report_daily (day, active_users, new_users, total_votes) VALUES ('2001-01-01', 1, 1, 1)`);
    await db.execute(sql`ANALYZE`);
    const toAward = await missingAwards();
    expect(toAward).toBe(USERS * 2 * SWEEP_DAYS);
    const reportDaysBefore = await count(sql`SELECT count(*)::int AS n FROM report_daily`);
    const figures: Record<string, unknown> = {
      users: USERS,
      votes: OLD_VOTES + toAward,
      awardsToGrant: toAward,
      reportDaysBefore,
      setupMs: Date.now() - started,
    };

    const holder = await lockHolder();
    const gate = await lockHolder();
    const jobs: Record<'sweep' | 'recompute' | 'abuse' | 'scheduledAbuse', Job> = {} as never;

    // --- The award sweep: its first round commits, its second waits on the held profile row.
    await holdSecondSweepRound(holder);
    // A full sweep: these votes were written with past created_at after the start-up sweep set
    // its watermark, so an incremental one would only look at the last minutes.
    jobs.sweep = await queues.get(QUEUE_NAMES.points)!.add('points.sweep', { full: true }, { jobId: 'faults-sweep', attempts: 3 });
    const [sweepPid] = await waitForBlocked(database.sql, {
      blockedBy: holder.pid,
      query: '%INSERT INTO "user_points_history"%',
      what: "the sweep's second round to wait on the held profile row",
    });
    expect(await voteAwards(), 'the first round committed, and only it').toBe(SWEEP_CHUNK);

    // --- The full recompute: past its deletes and the report_active_users rewrite, its
    // transaction open (the aggregates' advisory lock and a read lock on votes held).
    await holder.sql`LOCK TABLE report_user_numbers IN SHARE MODE`;
    jobs.recompute = await queues.get(QUEUE_NAMES.maintenance)!.add('reports.recompute-all', {}, { jobId: 'faults-recompute', attempts: 3 });
    const [recomputePid] = await waitForBlocked(database.sql, {
      blockedBy: holder.pid,
      query: '%INSERT INTO "report_user_numbers"%',
      what: 'the recompute to wait on report_user_numbers',
    });

    // --- The abuse scans: an exclusive request on votes queues behind the recompute's read,
    // and every later read of votes queues behind it (nothing of this test reads votes now).
    const gateRequest = gate.sql`LOCK TABLE votes IN ACCESS EXCLUSIVE MODE`.then(
      () => 'granted',
      (err: Error) => err.message,
    );
    await waitForBlocked(database.sql, {
      applicationName: 'tribuna-faults-locks',
      blockedBy: recomputePid!,
      query: '%LOCK TABLE votes%',
      what: "the test's exclusive request on votes to queue behind the recompute",
    });
    const [scan] = await db.execute<{ id: string }>(
      sql`INSERT INTO abuse_scans (status, progress, requested_by) VALUES ('queued', 0, ${admin.id}) RETURNING id`,
    );
    jobs.abuse = await queues.get(QUEUE_NAMES.maintenance)!.add('abuse.scan', { scanId: scan!.id }, { jobId: `abuse-scan.${scan!.id}`, attempts: 3 });
    // The hourly schedule's run: no row until it starts (it creates its own).
    jobs.scheduledAbuse = await queues.get(QUEUE_NAMES.maintenance)!.add('abuse.scan', {}, { jobId: 'faults-scheduled-scan', attempts: 3 });
    const scanPids = await waitForBlocked(database.sql, {
      blockedBy: gate.pid,
      query: '%CREATE TEMPORARY TABLE abuse_pairs%',
      count: 2,
      what: 'both scans to wait to read votes',
    });
    const running = await db.execute<{ id: string; requested_by: string | null }>(
      sql`SELECT id, requested_by FROM abuse_scans WHERE status = 'running' ORDER BY requested_by NULLS FIRST`,
    );
    expect(running.map((r) => r.requested_by)).toEqual([null, admin.id]);
    const deadScheduledScan = running[0]!.id;

    // Every job active, every one of them waiting on this test's locks: the middle of all four.
    for (const job of Object.values(jobs)) expect(await job.getState()).toBe('active');
    figures.heldBackends = { sweep: sweepPid, recompute: recomputePid, scans: scanPids };

    const killedAt = Date.now();
    await first.kill9();
    // The locks go; the dead worker's waiting statements run on (PostgreSQL notices the client
    // is gone only when it answers): the recompute and the scans roll back, the sweep's second
    // round may commit (one statement) or not. Then nothing of the first worker is left.
    await database.sql`SELECT pg_cancel_backend(${gate.pid})`;
    figures.gate = await gateRequest;
    await gate.release();
    await holder.release();
    await waitForNoBackends(database.sql, "the dead worker's statements to end");
    figures.awardedBeforeRestart = await voteAwards();
    expect(await db.execute(sql`SELECT id FROM abuse_scans WHERE status = 'running' ORDER BY requested_by NULLS FIRST`)).toEqual(
      running.map((r) => ({ id: r.id })),
    );
    figures.reportDaysAtKill = await count(sql`SELECT count(*)::int AS n FROM report_daily`);
    expect(figures.reportDaysAtKill, 'the recompute rolled back').toBe(reportDaysBefore);

    // --- A new worker: BullMQ hands the stalled jobs back once their locks expire.
    const second = await startWorker();
    await waitForCompleted(jobs, second);
    figures.recoveredAfterKillMs = Date.now() - killedAt;
    for (const [name, job] of Object.entries(jobs)) {
      // Taken again after the crash (a stall), not failed over to another attempt.
      expect((await fresh(job)).stalledCounter, `${name} stalled once`).toBe(1);
    }

    // (a) Awards: none missing, none twice, every total equal to its history.
    await expectAwardsExactlyOnce();
    expect(await voteAwards()).toBe(toAward);

    // (b) Reports: every day from the first row to the recompute's today equals a direct count;
    // nothing outside. Its today, not the check's: a run across midnight (SHOW_TIMEZONE) has no
    // row yet for the day that began after the recompute.
    const recomputedTo = ((await fresh(jobs.recompute)).returnvalue as { to: string }).to;
    expect(recomputedTo).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const mismatches = await db.execute(sql`
        WITH days AS (
          SELECT g::date AS day FROM generate_series(
            (SELECT least(min(created_at), (SELECT min(created_at) FROM profiles)) AT TIME ZONE ${TIME_ZONE} FROM votes)::date,
            ${recomputedTo}::date, interval '1 day') g
        ),
        v AS (SELECT (created_at AT TIME ZONE ${TIME_ZONE})::date AS day, count(*)::int AS votes, count(DISTINCT user_id)::int AS voters FROM votes GROUP BY 1),
        p AS (SELECT (created_at AT TIME ZONE ${TIME_ZONE})::date AS day, count(*)::int AS n FROM profiles GROUP BY 1)
        SELECT d.day, r.total_votes, r.active_users, r.new_users, coalesce(v.votes, 0) AS votes, coalesce(v.voters, 0) AS voters, coalesce(p.n, 0) AS new_users_counted
        FROM days d LEFT JOIN report_daily r ON r.day = d.day LEFT JOIN v ON v.day = d.day LEFT JOIN p ON p.day = d.day
        WHERE r.day IS NULL OR r.total_votes <> coalesce(v.votes, 0) OR r.active_users <> coalesce(v.voters, 0) OR r.new_users <> coalesce(p.n, 0)`);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(await count(sql`SELECT count(*)::int AS n FROM report_daily WHERE day = '2001-01-01'`), 'the stale day deleted').toBe(0);
    figures.reportDaysAfter = await count(sql`SELECT count(*)::int AS n FROM report_daily`);

    // (c) The abuse scans, against a direct count of the flags.
    const expected = await one(
      db.execute<{ devices: number; users: number; suspicious: number }>(sql`
          WITH pairs AS (SELECT user_id, device_fingerprint AS fp, count(*)::int AS votes FROM votes GROUP BY 1, 2),
          devices AS (SELECT fp FROM pairs WHERE fp IS NOT NULL GROUP BY fp HAVING count(*) >= ${ABUSE_LIMITS.accountsPerDevice}),
          users AS (SELECT user_id FROM pairs GROUP BY user_id HAVING count(fp) >= ${ABUSE_LIMITS.devicesPerUser})
          SELECT (SELECT count(*)::int FROM devices) AS devices, (SELECT count(*)::int FROM users) AS users,
            (SELECT coalesce(sum(votes), 0)::int FROM pairs WHERE fp IN (SELECT fp FROM devices) OR user_id IN (SELECT user_id FROM users)) AS suspicious`),
    );
    // Some accounts and devices flagged, most not: the figures discriminate.
    expect(expected.devices).toBeGreaterThan(0);
    expect(expected.users).toBeGreaterThan(0);
    expect(expected.users).toBeLessThan(USERS / 2);
    figures.abuse = expected;
    const flags = { status: 'done', flagged_devices: expected.devices, flagged_users: expected.users, suspicious_votes: expected.suspicious };
    // The admin's scan: its one row claimed again by the retry and done.
    expect(
      await db.execute(sql`SELECT id, status, flagged_devices, flagged_users, suspicious_votes FROM abuse_scans WHERE requested_by = ${admin.id}`),
    ).toEqual([{ id: scan!.id, ...flags }]);
    // The scheduled scan cut off: its row failed as interrupted, not left 'running' (the screen
    // would show a scan that never ends); the retry's own row done with the same flags.
    expect(await one(db.execute(sql`SELECT status, error FROM abuse_scans WHERE id = ${deadScheduledScan}`))).toEqual({
      status: 'failed',
      error: ABUSE_MESSAGES.scanInterrupted,
    });
    const scheduled = await db.execute<{ status: string; flagged_devices: number; flagged_users: number; suspicious_votes: number }>(
      sql`SELECT status, flagged_devices, flagged_users, suspicious_votes FROM abuse_scans WHERE requested_by IS NULL AND id <> ${deadScheduledScan}`,
    );
    figures.scheduledScanRows = scheduled.map((r) => r.status);
    expect(scheduled.filter((r) => r.status !== 'done')).toEqual([]);
    expect(scheduled).toContainEqual(flags);

    console.log(`[worker-crash] ${JSON.stringify(figures)}`);
    expect(await second.terminate()).toEqual({ code: 0, signal: null });
  }, 600_000);

  it('SIGTERM while the award sweep is held past the forced-exit grace: the worker exits 1, the next worker takes the job again and applies it exactly once', async () => {
    const db = database.db;
    const stopping = await startQuietWorker();
    // Today's votes on a new poll by every fan, not awarded yet: several rounds of an incremental
    // sweep (the votes are newer than its watermark).
    const poll = await buildPoll(db, { options: 2 });
    await db.execute(sql`
        INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint)
        SELECT ${poll.poll.id}, ${poll.options[0]!.id}, u.id, 1, 'own_' || u.n FROM faults_users u`);
    const awardsBefore = await voteAwards();
    expect(await missingAwards()).toBe(USERS);

    const holder = await lockHolder();
    await holdSecondSweepRound(holder);
    const job = await queues.get(QUEUE_NAMES.points)!.add('points.sweep', {}, { jobId: 'faults-sweep-sigterm', attempts: 3 });
    const [orphan] = await waitForBlocked(database.sql, {
      blockedBy: holder.pid,
      query: '%INSERT INTO "user_points_history"%',
      what: "the sweep's second round to wait on the held profile row",
    });
    expect(await voteAwards()).toBe(awardsBefore + SWEEP_CHUNK);

    stopping.child.kill('SIGTERM');
    await waitUntil(() => stopping.output().includes('"worker shutting down"'), { what: 'the worker to start its graceful stop' });
    // The worker waits for its job until the grace runs out, then exits non-zero (not a clean stop).
    const exit = await stopping.exited;
    expect(exit, stopping.output().slice(-3000)).toEqual({ code: 1, signal: null });
    expect(stopping.output()).toContain('forcing exit');
    expect(stopping.output()).not.toContain('"worker stopped"');
    // The held statement was still waiting when the worker went: the job never finished there.
    expect(await job.getState()).toBe('active');
    expect(
      await waitForBlocked(database.sql, { blockedBy: holder.pid, query: '%INSERT INTO "user_points_history"%', what: "the dead worker's statement" }),
    ).toContain(orphan);

    // The next worker, the lock still held: stall recovery gives it the job, which runs again.
    const next = await startWorker();
    await waitUntil(
      async () => {
        const current = await fresh(job);
        if ((await current.getState()) === 'failed') throw new GiveUp(`the sweep failed: ${next.output().slice(-3000)}`);
        return current.stalledCounter === 1 && (await current.getState()) === 'active';
      },
      { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 500, what: 'the new worker to take the stalled sweep' },
    );
    await holder.release();
    await waitForCompleted({ sweep: job }, next);

    await expectAwardsExactlyOnce();
    expect(await voteAwards()).toBe(awardsBefore + USERS);
    console.log(`[worker-crash] SIGTERM: exit ${exit.code} after the grace, ${USERS} awards applied once by the next worker`);
    expect(await next.terminate()).toEqual({ code: 0, signal: null });
  }, 600_000);
});
