// Reports benchmark (reports.json): one year of synthetic activity (100,000 users, 1,000,000 votes,
// 5,000,000 page views, generated with set-based SQL into the bench database), the real server
// and worker started as in production; the worker's incremental aggregation (today) next to a
// full recompute in the same run, report reads for 6 months and a custom year through the real
// route, the admin user search over the 100,000 users, and one abuse scan, each next to the
// GET /api/health baseline at the same concurrency.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { JobName, JobPayloads } from '@tribuna/contracts/jobs';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { countActiveUsers, listDays } from '../server/src/admin/reports/repository.ts';
import { addDays, dayIn, resolvePeriod } from '../server/src/admin/reports/periods.ts';
import { createFixtures, type BenchUser } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type BenchEnv, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { machineInfo } from './lib/machine.ts';
import { sleep } from './lib/processes.ts';
import { median, newHistogram, recordMs, round, summarize, type LatencySummary } from './lib/stats.ts';
import type { BenchOutcome } from './votes.ts';
import { sessionCookie } from './lib/sessionCookie.ts';

export interface ReportsOptions {
  users: number;
  votes: number;
  pageViews: number;
  /** Days of history, ending now. */
  days: number;
  /** Signed-in admins the reads rotate over, each with an address of its own (admin.read: 120/min per admin). */
  admins: number;
  /** Requests per measured round of each kind (closed loop), unless the round reaches maxRoundSeconds first. */
  requests: number;
  /** A round stops sending after this long (slow reads would otherwise take many minutes); the count is reported. */
  maxRoundSeconds: number;
  concurrency: number;
  rounds: number;
  /** Rounds of the full recompute (each rewrites every aggregate). */
  fullRounds: number;
  /** Open loop: report (6 months) requests due at this share of the closed-loop median rate. */
  openLoopShare: number;
}

export const DEFAULT_REPORTS_OPTIONS: ReportsOptions = {
  users: 100_000,
  votes: 1_000_000,
  pageViews: 5_000_000,
  days: 365,
  admins: 200,
  requests: 200,
  maxRoundSeconds: 40,
  concurrency: 4,
  rounds: 3,
  fullRounds: 3,
  openLoopShare: 0.5,
};

const TARGETS = { incrementalMs: 1000, reportP99Ms: 50, searchP99Ms: 50 };
const TIME_ZONE = 'America/Mexico_City';

const FIRST_NAMES = [
  'Ana',
  'Luis',
  'María',
  'José',
  'Carmen',
  'Jorge',
  'Lucía',
  'Pedro',
  'Sofía',
  'Diego',
  'Valeria',
  'Miguel',
  'Camila',
  'Javier',
  'Daniela',
  'Andrés',
  'Fernanda',
  'Ricardo',
  'Paola',
  'Héctor',
  'Gabriela',
  'Raúl',
  'Mariana',
  'Óscar',
  'Renata',
  'Tomás',
  'Ximena',
  'Emilio',
  'Regina',
  'Iván',
];
const SURNAMES = [
  'García',
  'Martínez',
  'López',
  'Hernández',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Cruz',
  'Flores',
  'Gómez',
  'Morales',
  'Vázquez',
  'Reyes',
  'Jiménez',
  'Torres',
  'Díaz',
  'Gutiérrez',
  'Ruiz',
  'Mendoza',
  'Aguilar',
  'Ortiz',
  'Moreno',
  'Castillo',
  'Romero',
  'Álvarez',
  'Méndez',
  'Chávez',
  'Rivera',
];
const PATHS = ['/', '/wall', '/ranking', '/profile', '/polls', '/contestants', '/results', '/login'];
/** Typed into the users search: parts of names, usernames and e-mails, 3+ characters, common and rare. */
const SEARCH_TERMS = [
  'garc',
  'maría',
  'lopez',
  'hernández',
  'fan_123',
  'fan_9876',
  'fan_5',
  'ana.',
  'sofia.r',
  'correo',
  '@correo.example',
  'ximena',
  'renata c',
  'iván',
  'torres1',
  'chávez 77',
  'fan_4321',
  'daniela.m',
  'rivera',
  'zzz',
];

const textArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

interface SeedResult {
  seconds: number;
  steps: Record<string, number>;
  counts: Record<string, number>;
}

/** One year of activity, set-based (a handful of INSERT … SELECT over generate_series), then VACUUM ANALYZE. */
async function seedActivity(database: Database, pollIds: string[], options: ReportsOptions): Promise<SeedResult> {
  const sql = database.sql;
  const steps: Record<string, number> = {};
  const started = performance.now();
  const step = async (name: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    steps[name] = round((performance.now() - t) / 1000, 1);
    log(`reports: seed ${name} ${steps[name]} s`);
  };
  const spanDays = options.days + 15;
  // Users: created evenly over the year and 15 days before it, the oldest first (n = 1).
  await step('users', () =>
    sql.unsafe(`
      INSERT INTO profiles (display_name, username, created_at, updated_at)
      SELECT (${textArray(FIRST_NAMES)})[1 + g % ${FIRST_NAMES.length}] || ' ' || (${textArray(SURNAMES)})[1 + (g / ${FIRST_NAMES.length}) % ${SURNAMES.length}] || ' ' || g,
             'fan_' || g,
             now() - interval '${spanDays} days' + (g::float8 / ${options.users}) * interval '${spanDays} days',
             now()
      FROM generate_series(1, ${options.users}) AS g`),
  );
  await step('accounts', async () => {
    await sql.unsafe(`
      CREATE TABLE bench_users AS
      SELECT row_number() OVER (ORDER BY created_at, id)::int AS n, id, created_at FROM profiles WHERE username LIKE 'fan\\_%'`);
    await sql.unsafe(`ALTER TABLE bench_users ADD PRIMARY KEY (n)`);
    await sql.unsafe(`
      INSERT INTO accounts (user_id, email, email_verified, oidc_issuer, oidc_subject, created_at)
      SELECT u.id, lower(unaccent_name) || u.n || '@correo.example', true, 'https://accounts.google.com', 'bench-' || u.n, u.created_at
      FROM bench_users u,
      LATERAL (SELECT translate(replace(split_part(p.display_name, ' ', 1) || '.' || split_part(p.display_name, ' ', 2), ' ', ''),
                                'áéíóúÁÉÍÓÚñÑ', 'aeiouAEIOUnN') AS unaccent_name
               FROM profiles p WHERE p.id = u.id) AS x`);
  });
  await sql.unsafe(`
    CREATE TABLE bench_options AS
    SELECT row_number() OVER (ORDER BY poll_id, id)::int AS k, poll_id, id AS option_id
    FROM poll_options WHERE poll_id IN (${pollIds.map((id) => `'${id}'`).join(',')})`);
  const [{ options: optionCount }] = (await sql.unsafe(`SELECT count(*)::int AS options FROM bench_options`)) as unknown as [{ options: number }];
  // An event at a uniform instant t of the year, by one of the users who existed at t, older
  // (earlier) users far more active than newer ones (random()^2 skews towards n = 1).
  const eventUser = (t: string) =>
    `1 + floor(random() ^ 2 * greatest(1, floor(${options.users} * extract(epoch FROM (${t} - (now() - interval '${spanDays} days'))) / (${spanDays} * 86400.0))))::int`;
  // Secondary indexes are dropped for the two big inserts and built again afterwards (same definitions, from pg_indexes).
  const withoutIndexes = async (table: string, run: () => Promise<unknown>) => {
    const defs = (await sql.unsafe(`
      SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = '${table}'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`)) as unknown as { indexname: string; indexdef: string }[];
    for (const d of defs) await sql.unsafe(`DROP INDEX "${d.indexname}"`);
    await run();
    for (const d of defs) await sql.unsafe(d.indexdef);
  };
  await step('votes', () =>
    withoutIndexes('votes', () =>
      sql.unsafe(`
      INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at)
      SELECT o.poll_id, o.option_id, u.id, 1,
             CASE WHEN e.r < 0.01 THEN 'shared-device-' || floor(e.r * 30000)::int
                  WHEN e.r < 0.05 THEN 'device-' || e.n || '-b'
                  ELSE 'device-' || e.n END,
             'Mozilla/5.0 (bench)', e.t
      FROM (
        SELECT s.t, ${eventUser('s.t')} AS n, 1 + floor(random() * ${optionCount})::int AS k, random() AS r
        FROM (SELECT now() - random() * interval '${options.days} days' AS t FROM generate_series(1, ${options.votes})) AS s
      ) AS e
      JOIN bench_users u ON u.n = e.n
      JOIN bench_options o ON o.k = e.k`),
    ),
  );
  await step('pageViews', () =>
    withoutIndexes('page_views', () =>
      sql.unsafe(`
      INSERT INTO page_views (user_id, page_path, session_id, device_type, created_at)
      SELECT u.id, (${textArray(PATHS)})[1 + floor(e.r * ${PATHS.length})::int], 'session-' || (e.g / 6), CASE WHEN e.r < 0.7 THEN 'mobile' ELSE 'desktop' END, e.t
      FROM (
        SELECT s.g, s.t, CASE WHEN random() < 0.3 THEN NULL ELSE ${eventUser('s.t')} END AS n, random() AS r
        FROM (SELECT g, now() - random() * interval '${options.days} days' AS t FROM generate_series(1, ${options.pageViews}) AS g) AS s
      ) AS e
      LEFT JOIN bench_users u ON u.n = e.n`),
    ),
  );
  await step('vacuumAnalyze', async () => {
    await sql.unsafe(`DROP TABLE bench_users, bench_options`);
    await sql.unsafe(`VACUUM ANALYZE`);
  });
  const [counts] = (await sql.unsafe(`
    SELECT (SELECT count(*) FROM profiles)::int AS users, (SELECT count(*) FROM accounts)::int AS accounts,
           (SELECT count(*) FROM votes)::int AS votes, (SELECT count(*) FROM page_views)::int AS "pageViews",
           (SELECT count(*) FROM page_views WHERE user_id IS NOT NULL)::int AS "signedInPageViews"`)) as unknown as [Record<string, number>];
  return { seconds: round((performance.now() - started) / 1000, 1), steps, counts: counts! };
}

/** A worker job through the real queue and worker; its duration is BullMQ's processedOn → finishedOn. */
async function runJob<N extends JobName>(
  queue: Queue,
  events: QueueEvents,
  name: N,
  data: JobPayloads[N],
  jobId: string,
): Promise<{ ms: number; result: unknown }> {
  // Wait for a quiet queue: a scheduled run (today's aggregation, an abuse scan) would share the CPU.
  for (let i = 0; i < 600 && (await queue.getActiveCount()) > 0; i++) await sleep(500);
  const job: Job = await queue.add(name, data, { jobId, attempts: 1, removeOnComplete: false, removeOnFail: false });
  const result = await job.waitUntilFinished(events, 15 * 60_000);
  const done = await queue.getJob(job.id!);
  return { ms: done!.finishedOn! - done!.processedOn!, result };
}

interface Admin {
  cookie: string;
  address: string;
}

interface RoundResult {
  requests: number;
  latency: LatencySummary;
  perSecond: number;
  errors: number;
  statusCounts: Record<string, number>;
  errorSamples: string[];
}

function get(agent: http.Agent, baseUrl: string, path: string, admin: Admin | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { agent, method: 'GET', headers: admin ? { cookie: admin.cookie, 'x-forwarded-for': admin.address } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Closed loop: `concurrency` requests in flight, `total` in all; latency per request, from send to the whole answer. */
async function closedLoop(
  baseUrl: string,
  paths: string[],
  admins: Admin[] | null,
  total: number,
  concurrency: number,
  cursor: { next: number },
  maxSeconds = Infinity,
): Promise<RoundResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const h = newHistogram();
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  const loop = async () => {
    while (issued < total && performance.now() < deadline) {
      const i = issued++;
      const admin = admins ? admins[cursor.next++ % admins.length]! : null;
      const path = paths[i % paths.length]!;
      const t = performance.now();
      try {
        const res = await get(agent, baseUrl, path, admin);
        recordMs(h, performance.now() - t);
        if (res.status !== 200) {
          statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
          if (errorSamples.length < 3) errorSamples.push(`${res.status} ${path}: ${res.body.slice(0, 160)}`);
        }
      } catch (err) {
        errors++;
        if (errorSamples.length < 3) errorSamples.push(`${path}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests: issued, latency: summarize(h), perSecond: round(issued / seconds, 1), errors, statusCounts, errorSamples };
}

/** Open loop: requests due every 1/rate s whatever the server does; latency counted from the due time. */
async function openLoop(
  baseUrl: string,
  path: string,
  admins: Admin[],
  requested: number,
  ratePerSecond: number,
  cursor: { next: number },
  maxSeconds: number,
): Promise<RoundResult & { maxSchedulerLagMs: number }> {
  const total = Math.max(1, Math.min(requested, Math.floor(ratePerSecond * maxSeconds)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const h = newHistogram();
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let maxLag = 0;
  const interval = 1000 / ratePerSecond;
  const start = performance.now() + 20;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    maxLag = Math.max(maxLag, performance.now() - due);
    const admin = admins[cursor.next++ % admins.length]!;
    pending.push(
      get(agent, baseUrl, path, admin).then(
        (res) => {
          recordMs(h, performance.now() - due);
          if (res.status !== 200) {
            statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
            if (errorSamples.length < 3) errorSamples.push(`${res.status}: ${res.body.slice(0, 160)}`);
          }
        },
        (err: Error) => {
          errors++;
          if (errorSamples.length < 3) errorSamples.push(err.message);
        },
      ),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    requests: total,
    latency: summarize(h),
    perSecond: round(total / seconds, 1),
    errors,
    statusCounts,
    errorSamples,
    maxSchedulerLagMs: round(maxLag, 2),
  };
}

/** The two statements of a report read alone (server/src/admin/reports/repository.ts), median of 5 runs, ms. */
async function timeStatements(database: Database, now: Date): Promise<Record<string, number>> {
  const time = async (run: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await run();
      samples.push(performance.now() - t);
    }
    return round(median(samples), 2);
  };
  const sixMonths = resolvePeriod({ period: '6months' }, TIME_ZONE, now);
  const today = dayIn(TIME_ZONE, now);
  const year = { from: addDays(today, -364), to: today };
  return {
    sixMonthsDaysMs: await time(() => listDays(database.db, sixMonths)),
    sixMonthsActiveUsersMs: await time(() => countActiveUsers(database.db, sixMonths)),
    yearDaysMs: await time(() => listDays(database.db, year)),
    yearActiveUsersMs: await time(() => countActiveUsers(database.db, year)),
  };
}

export async function runReportsBenchmark(options: ReportsOptions = DEFAULT_REPORTS_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  // The machine may be shared: its load average is reported next to the figures.
  const loadAtStart = os.loadavg().map((v) => round(v, 2));
  log('reports: creating the bench database and fixtures');
  const env: BenchEnv = await createBenchEnv('_reports');
  let tribuna: Tribuna | null = null;
  const database = createDatabase(env.databaseUrl, { max: 2, applicationName: 'tribuna-bench-reports' });
  let queue: Queue | null = null;
  let events: QueueEvents | null = null;
  try {
    const fixtures = await createFixtures(env.databaseUrl, options.admins, {
      a: { title: 'Benchmark: reports A', maxPointsPerUser: 1, dailyReset: true, options: 6 },
      b: { title: 'Benchmark: reports B', maxPointsPerUser: 1, dailyReset: true, options: 6 },
      c: { title: 'Benchmark: reports C', maxPointsPerUser: 10, dailyReset: true, options: 4 },
    });
    const adminIds = fixtures.users.map((u) => u.id);
    await database.sql`UPDATE profiles SET role = 'admin' WHERE id = ANY(${adminIds}::uuid[])`;
    // Each admin with an address of its own (admin.read is also limited per address).
    const admins: Admin[] = fixtures.users.map((u: BenchUser, i) => ({ cookie: sessionCookie(u.token), address: `10.250.${i >> 8}.${i & 255}` }));
    log(`reports: ${admins.length} admins with sessions; seeding one year of activity (set-based SQL)`);
    const seed = await seedActivity(
      database,
      Object.values(fixtures.polls).map((p) => p.id),
      options,
    );
    log(`reports: seeded in ${seed.seconds} s ${JSON.stringify(seed.counts)}`);

    log('reports: starting server and worker');
    tribuna = await startTribuna(env);
    log(`reports: server pid ${tribuna.server.pid} on ${tribuna.baseUrl}, worker pid ${tribuna.worker.pid}`);
    queue = new Queue('maintenance', { connection: { url: env.redisUrl, maxRetriesPerRequest: null }, prefix: env.redisPrefix });
    events = new QueueEvents('maintenance', { connection: { url: env.redisUrl, maxRetriesPerRequest: null }, prefix: env.redisPrefix });
    await events.waitUntilReady();

    // Aggregation: full recomputes (every day of the year), then incremental runs (today), through the worker.
    const fullRuns: { ms: number; result: unknown }[] = [];
    for (let i = 1; i <= options.fullRounds; i++) {
      const run = await runJob(queue, events, 'reports.recompute-all', {}, `bench-recompute-all-${i}`);
      fullRuns.push(run);
      log(`reports: full recompute ${i}: ${run.ms} ms ${JSON.stringify(run.result)}`);
    }
    const incrementalRuns: number[] = [];
    const finalizeRuns: number[] = [];
    for (let i = 1; i <= Math.max(5, options.rounds); i++) {
      const today = await runJob(queue, events, 'reports.aggregate-recent-days', { days: 1 }, `bench-today-${i}`);
      incrementalRuns.push(today.ms);
      const twoDays = await runJob(queue, events, 'reports.aggregate-recent-days', { days: 2 }, `bench-two-days-${i}`);
      finalizeRuns.push(twoDays.ms);
      log(`reports: incremental (today) ${today.ms} ms; midnight run (yesterday + today) ${twoDays.ms} ms`);
    }
    const incrementalMs = median(incrementalRuns);
    const fullRecomputeMs = median(fullRuns.map((r) => r.ms));

    // Integrity: the aggregates equal direct counts over the raw rows.
    const [check] = await database.sql<
      { votes: number; views: number; users: number; agg_votes: number; agg_views: number; agg_users: number; days: number }[]
    >`
      SELECT (SELECT count(*) FROM votes)::int AS votes, (SELECT count(*) FROM page_views)::int AS views, (SELECT count(*) FROM profiles)::int AS users,
             (SELECT sum(total_votes) FROM report_daily)::int AS agg_votes, (SELECT sum(page_views) FROM report_daily)::int AS agg_views,
             (SELECT sum(new_users) FROM report_daily)::int AS agg_users, (SELECT count(*) FROM report_daily)::int AS days`;
    if (check!.votes !== check!.agg_votes || check!.views !== check!.agg_views || check!.users !== check!.agg_users) {
      failures.push(`aggregates differ from the raw rows: ${JSON.stringify(check)}`);
    }
    const [activeCheck] = await database.sql<{ day: string; direct: number; aggregated: number }[]>`
      WITH d AS (SELECT (now() AT TIME ZONE ${TIME_ZONE})::date - 30 AS day)
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
        (SELECT count(*) FROM (
           SELECT user_id FROM votes WHERE (created_at AT TIME ZONE ${TIME_ZONE})::date = d.day
           UNION SELECT user_id FROM page_views WHERE user_id IS NOT NULL AND (created_at AT TIME ZONE ${TIME_ZONE})::date = d.day) x)::int AS direct,
        (SELECT active_users FROM report_daily r WHERE r.day = d.day) AS aggregated
      FROM d`;
    if (activeCheck!.direct !== activeCheck!.aggregated)
      failures.push(`active users of ${activeCheck!.day}: direct ${activeCheck!.direct}, aggregated ${activeCheck!.aggregated}`);
    const [activeRows] = await database.sql<{ n: number; per_day: number }[]>`
      SELECT count(*)::int AS n, (count(*) / greatest(count(DISTINCT day), 1))::int AS per_day FROM report_active_users`;

    const now = new Date();
    const today = dayIn(TIME_ZONE, now);
    const yearFrom = addDays(today, -364);
    const reportPaths = { sixMonths: '/api/admin/reports?period=6months', year: `/api/admin/reports?period=custom&from=${yearFrom}&to=${today}` };
    // Sanity over HTTP: the 6-month report answers, its totals from the aggregates.
    const probe = await get(new http.Agent(), tribuna.baseUrl, reportPaths.year, admins[0]!);
    if (probe.status !== 200) failures.push(`year report over HTTP: ${probe.status} ${probe.body.slice(0, 200)}`);
    const yearReport = probe.status === 200 ? (JSON.parse(probe.body) as { totals: Record<string, number>; days: unknown[] }) : null;
    const searchPaths = SEARCH_TERMS.map((q) => `/api/admin/users?q=${encodeURIComponent(q)}`);
    const searchProbe = await get(new http.Agent(), tribuna.baseUrl, searchPaths[0]!, admins[0]!);
    const searchAvailable = searchProbe.status === 200;
    if (!searchAvailable) log(`reports: the users search answers ${searchProbe.status}: ${searchProbe.body.slice(0, 200)}; searchP99Ms stays null`);
    const statementMs = await timeStatements(database, now);
    log(`reports: statements alone (median ms) ${JSON.stringify(statementMs)}`);

    // Reads: closed-loop rounds of each kind, interleaved, next to the health baseline.
    const cursor = { next: 0 };
    type Kind = 'report6m' | 'reportYear' | 'search' | 'health';
    const kinds: Kind[] = ['report6m', 'reportYear', ...(searchAvailable ? (['search'] as const) : []), 'health'];
    const pathsOf: Record<Kind, string[]> = { report6m: [reportPaths.sixMonths], reportYear: [reportPaths.year], search: searchPaths, health: ['/api/health'] };
    log(`reports: warm-up (not reported)`);
    for (const kind of kinds) await closedLoop(tribuna.baseUrl, pathsOf[kind], kind === 'health' ? null : admins, 20, options.concurrency, cursor);
    const measured: { kind: Kind; round: number; result: RoundResult }[] = [];
    for (let r = 1; r <= options.rounds; r++) {
      const order = r % 2 === 1 ? kinds : [...kinds].reverse();
      for (const kind of order) {
        const result = await closedLoop(
          tribuna.baseUrl,
          pathsOf[kind],
          kind === 'health' ? null : admins,
          options.requests,
          options.concurrency,
          cursor,
          options.maxRoundSeconds,
        );
        measured.push({ kind, round: r, result });
        log(
          `reports: round ${r} ${kind.padEnd(10)} ${result.requests} requests ${result.perSecond}/s p50 ${result.latency.p50Ms} ms p99 ${result.latency.p99Ms} ms${result.errors || Object.keys(result.statusCounts).length ? ` errors ${result.errors} ${JSON.stringify(result.statusCounts)} ${JSON.stringify(result.errorSamples)}` : ''}`,
        );
        await sleep(500);
      }
    }
    for (const m of measured) {
      if (m.result.errors || Object.keys(m.result.statusCounts).length)
        failures.push(
          `${m.kind} round ${m.round}: ${m.result.errors} errors, statuses ${JSON.stringify(m.result.statusCounts)} ${JSON.stringify(m.result.errorSamples)}`,
        );
    }
    const p99Of = (kind: Kind) => {
      const rounds = measured.filter((m) => m.kind === kind);
      return rounds.length ? round(median(rounds.map((m) => m.result.latency.p99Ms)), 2) : null;
    };
    const p50Of = (kind: Kind) => {
      const rounds = measured.filter((m) => m.kind === kind);
      return rounds.length ? round(median(rounds.map((m) => m.result.latency.p50Ms)), 2) : null;
    };
    const requestsOf = (kind: Kind) => measured.filter((m) => m.kind === kind).reduce((n, m) => n + m.result.requests, 0);
    const rateOf = (kind: Kind) => round(median(measured.filter((m) => m.kind === kind).map((m) => m.result.perSecond)), 1);
    const openRate = Math.max(1, round(rateOf('report6m') * options.openLoopShare, 1));
    log(`reports: open loop, 6-month report at ${openRate}/s`);
    const open = await openLoop(tribuna.baseUrl, reportPaths.sixMonths, admins, options.requests, openRate, cursor, options.maxRoundSeconds);
    if (open.errors || Object.keys(open.statusCounts).length)
      failures.push(`open loop: ${open.errors} errors, statuses ${JSON.stringify(open.statusCounts)} ${JSON.stringify(open.errorSamples)}`);
    log(`reports: open loop p50 ${open.latency.p50Ms} ms p99 ${open.latency.p99Ms} ms from due time`);

    // Abuse scan: the worker's job, when the abuse domain provides it.
    let abuseScanMs: number | null = null;
    let abuseScan: unknown = null;
    try {
      const scans: number[] = [];
      for (let i = 1; i <= options.rounds; i++) {
        const run = await runJob(queue, events, 'abuse.scan', {}, `bench-abuse-scan-${i}`);
        scans.push(run.ms);
        abuseScan = run.result;
        log(`reports: abuse scan ${i}: ${run.ms} ms ${JSON.stringify(run.result)}`);
      }
      abuseScanMs = median(scans);
    } catch (err) {
      log(`reports: abuse scan unavailable: ${(err as Error).message}`);
      abuseScan = { error: (err as Error).message };
    }

    const reportP99Ms = p99Of('report6m');
    const reportYearP99Ms = p99Of('reportYear');
    const searchP99Ms = searchAvailable ? p99Of('search') : null;
    const json: Record<string, unknown> = {
      incrementalMs,
      fullRecomputeMs,
      reportP99Ms,
      searchP99Ms,
      abuseScanMs,
      reportYearP99Ms,
      reportP50Ms: p50Of('report6m'),
      reportYearP50Ms: p50Of('reportYear'),
      searchP50Ms: searchAvailable ? p50Of('search') : null,
      healthP99Ms: p99Of('health'),
      healthP50Ms: p50Of('health'),
      reportPerSecond: rateOf('report6m'),
      reportYearPerSecond: rateOf('reportYear'),
      searchPerSecond: searchAvailable ? rateOf('search') : null,
      healthPerSecond: rateOf('health'),
      requestsMeasured: {
        report6m: requestsOf('report6m'),
        reportYear: requestsOf('reportYear'),
        search: searchAvailable ? requestsOf('search') : 0,
        health: requestsOf('health'),
        openLoop: open.requests,
      },
      loadAverage: { atStart: loadAtStart, atEnd: os.loadavg().map((v) => round(v, 2)) },
      midnightRunMs: median(finalizeRuns),
      incrementalRunsMs: incrementalRuns,
      fullRecomputeRunsMs: fullRuns.map((r) => r.ms),
      midnightRunsMs: finalizeRuns,
      fullRecompute: fullRuns.at(-1)?.result,
      reportStatementMs: statementMs,
      openLoop: {
        requests: open.requests,
        ratePerSecond: openRate,
        answeredPerSecond: open.perSecond,
        p50Ms: open.latency.p50Ms,
        p99Ms: open.latency.p99Ms,
        p999Ms: open.latency.p999Ms,
        maxSchedulerLagMs: open.maxSchedulerLagMs,
      },
      abuseScan,
      aggregates: {
        reportDailyRows: check!.days,
        activeUserRows: activeRows!.n,
        activeUsersPerDay: activeRows!.per_day,
        yearTotals: yearReport?.totals ?? null,
      },
      integrity: {
        votes: check!.votes,
        aggregatedVotes: check!.agg_votes,
        pageViews: check!.views,
        aggregatedPageViews: check!.agg_views,
        users: check!.users,
        aggregatedNewUsers: check!.agg_users,
        activeUsersDay: activeCheck,
      },
      seed,
      options,
      searchTerms: SEARCH_TERMS,
      targets: TARGETS,
      meetsTargets: {
        incrementalMs: incrementalMs < TARGETS.incrementalMs,
        reportP99Ms: reportP99Ms !== null && reportP99Ms < TARGETS.reportP99Ms,
        reportYearP99Ms: reportYearP99Ms !== null && reportYearP99Ms < TARGETS.reportP99Ms,
        searchP99Ms: searchP99Ms !== null && searchP99Ms < TARGETS.searchP99Ms,
      },
      method: {
        seed: `Set-based SQL (INSERT … SELECT over generate_series): ${options.users} users created evenly over ${options.days + 15} days (profiles + accounts with e-mails), ${options.votes} votes and ${options.pageViews} page views at uniform instants of the last ${options.days} days, each by a user who existed then, older users more active (random()^2); 30 % of page views anonymous; 1 % of votes from 300 shared devices, 4 % from a user's second device. VACUUM ANALYZE; seed.seconds includes it.`,
        aggregation: `Through the real worker (npm run start:worker, NODE_ENV=production) and BullMQ: 'reports.recompute-all' ${options.fullRounds}× then 'reports.aggregate-recent-days' {days:1} (the 5-minute run: today) and {days:2} (the 00:05 run) ${Math.max(5, options.rounds)}× each; duration = the job's processedOn → finishedOn; medians. Each job waits for a quiet queue (no scheduled run active). Integrity: sums of report_daily equal the raw counts; one day's active users equal a direct distinct count.`,
        reads: `Through the real server over HTTP (keep-alive, ${options.concurrency} in flight, closed loop, ${options.requests} requests per round or ${options.maxRoundSeconds} s, whichever comes first (requestsMeasured), ${options.rounds} rounds interleaved per kind, latency send → whole answer in an hdr histogram; the p99 reported is the median of the rounds' p99). Requests rotate over ${options.admins} admins with sessions, each with its own X-Forwarded-For (admin.read limits unchanged, not reached). report6m = GET /api/admin/reports?period=6months; reportYear = custom ${yearFrom}..${today}; search = GET /api/admin/users?q= over ${SEARCH_TERMS.length} terms in turn; health = GET /api/health (baseline, same concurrency). Report answers are cached by each server instance under the aggregates version (report_version, raised by every aggregation write): the first read of a period after a run reads the aggregates (their statements alone: reportStatementMs), the next ones cost one primary-key lookup. Open loop: the 6-month report due at fixed intervals at ${options.openLoopShare} × the closed-loop rate, latency from the due time.`,
        abuseScan: `'abuse.scan' {} through the worker (${options.rounds}×, median of processedOn → finishedOn), null if the job is missing or fails.`,
      },
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };
    const fmt = (v: unknown) => (v === null || v === undefined ? 'n/a' : String(v));
    const table: [string, string][] = [
      ['seed: users / votes / page views', `${seed.counts.users} / ${seed.counts.votes} / ${seed.counts.pageViews} in ${seed.seconds} s`],
      ['incremental run (today), median ms', `${incrementalMs} (target < ${TARGETS.incrementalMs})`],
      ['midnight run (yesterday + today), median ms', `${json.midnightRunMs}`],
      ['full recompute, median ms', `${fullRecomputeMs} (${check!.days} days, ${activeRows!.n} active-user rows)`],
      ['report 6 months p50 / p99 ms', `${fmt(json.reportP50Ms)} / ${fmt(reportP99Ms)} (target < ${TARGETS.reportP99Ms})`],
      ['report custom year p50 / p99 ms', `${fmt(json.reportYearP50Ms)} / ${fmt(reportYearP99Ms)}`],
      ['report 6 months open loop p99 ms', `${open.latency.p99Ms} at ${openRate}/s`],
      ['users search p50 / p99 ms', `${fmt(json.searchP50Ms)} / ${fmt(searchP99Ms)} (target < ${TARGETS.searchP99Ms})`],
      ['health p50 / p99 ms (baseline)', `${fmt(json.healthP50Ms)} / ${fmt(json.healthP99Ms)}`],
      ['active users statement alone, 6 months / year ms', `${statementMs.sixMonthsActiveUsersMs} / ${statementMs.yearActiveUsersMs}`],
      ['abuse scan, median ms', fmt(abuseScanMs)],
    ];
    return { name: 'reports', json, table, failures };
  } finally {
    await events?.close().catch(() => {});
    await queue?.close().catch(() => {});
    if (tribuna) await tribuna.stop();
    await database.close();
    await destroyBenchEnv(env);
  }
}
