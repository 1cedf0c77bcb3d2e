// Feed benchmark (feed.json): a seeded wall (100k posts, 1M reactions, 300k comments, 20k images),
// with 10,000 groups, 1,000,000 memberships and readers who each follow 1,000 people (issue 28),
// the real server and worker, 50 signed-in readers on first and deep cursor pages next to the
// GET /api/health baseline in the same run, a large group's wall and the 'Siguiendo' wall measured
// the same way in the same run, reaction toggles, an open-loop feed run, and the SQL statements one
// page costs (counted in-process with buildApp's onQuery on the same database).
import path from 'node:path';
import { loadConfig } from '@tribuna/contracts/config';
import { WALL_LIMITS } from '@tribuna/contracts/wallRules';
import { createDatabase } from '@tribuna/drizzle/client';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { buildApp } from '../server/src/app.ts';
import { sessionCookieName } from '../server/src/identity/sessions/cookies.ts';
import * as wallRepo from '../server/src/wall/repository.ts';
import { CpuMeter, postgresOf, postgresShared } from './lib/cpu.ts';
import { createFixtures, type BenchUser } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type BenchEnv, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { machineInfo } from './lib/machine.ts';
import { sleep, spawnTs, type BenchChild } from './lib/processes.ts';
import { median, medianBy, round } from './lib/stats.ts';
import { measureUntilQuiet } from './lib/steal.ts';
import { DEFAULT_WALL_SEED, seedWall, type WallSeedResult } from './lib/wallSeed.ts';
import { DEFAULT_MUTE_SEED, seedMutes, type MuteSeedResult } from './lib/muteSeed.ts';
import { DEFAULT_GROUP_SEED, seedGroupsAndFollows, type GroupSeedResult } from './lib/groupSeed.ts';
import { paramsFile, WORK_DIR } from './lib/workdir.ts';
import { OPEN_LOOP_WARMUP, type BenchOutcome } from './votes.ts';
import { sessionCookie } from './lib/sessionCookie.ts';
import { searchOpenLoopCapacity } from './lib/openLoop.ts';

const sumValues = (o: Record<string, number> | undefined) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);

export interface FeedOptions {
  rounds: number;
  durationS: number;
  /** Concurrent readers (connections), each request with a signed-in user's own session. */
  connections: number;
  /** Distinct users with a session, rotated over (the per-user limits stay as in production). */
  users: number;
  /** Deep pages replayed: pages deepFrom..deepTo of both sorts. */
  deepFrom: number;
  deepTo: number;
  /** Open-loop rate as a share of the closed-loop median feed req/s. */
  openLoopShare: number;
  /** The open-loop driver's connections (as in the votes bench: an audience is many clients). */
  openLoopConnections: number;
  warmupS: number;
}

export const DEFAULT_FEED_OPTIONS: FeedOptions = {
  rounds: 3,
  durationS: 15,
  connections: 50,
  users: 3000,
  deepFrom: 20,
  deepTo: 50,
  openLoopShare: 0.8,
  openLoopConnections: 256,
  warmupS: 3,
};

const TARGETS = { feedP99Ms: 50, feedVsHealthRatio: 0.4, groupWallVsPublic: 1.5, followingWallVsPublic: 1.5, mutedWallVsPublic: 1.2 };
const STEAL_LIMIT_CORES = 0.1;
const MAX_ROUND_RETRIES = 2;

type Kind = 'feed' | 'health' | 'react' | 'group' | 'following' | 'muted';
/** The walls measured like the public one (issue 28). */
type OtherWall = 'group' | 'following' | 'muted';

interface Latency {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  meanMs: number;
}

interface RoundResult {
  acknowledged: number;
  perSecond: number;
  windowMs: number;
  errors?: number;
  timeouts?: number;
  non2xx?: number;
  latency: Latency;
  first?: Latency & { count: number };
  deep?: Latency & { count: number };
  statusCounts?: Record<string, number>;
  errorSamples?: string[];
  [key: string]: unknown;
}

interface MeasuredRound {
  kind: Kind;
  round: number;
  result: RoundResult;
  cpuCores: Record<string, unknown>;
}

interface StatementCount {
  case: string;
  path: string;
  posts: number;
  statements: number;
  /** The statements (first 120 characters each). */
  sql: string[];
}

export async function runFeedBenchmark(options: FeedOptions = DEFAULT_FEED_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  log('feed: creating the bench database and fixtures');
  const env = await createBenchEnv('_feed');
  let tribuna: Tribuna | null = null;
  const children: BenchChild[] = [];
  try {
    // createFixtures wants one poll; the feed does not use it.
    const fixtures = await createFixtures(env.databaseUrl, options.users, {
      unused: { title: 'Benchmark: feed (unused poll)', maxPointsPerUser: 1, dailyReset: false, options: 2 },
    });
    log(`feed: ${fixtures.users.length} users with sessions; seeding the wall (set-based SQL)`);
    const seed = await seedWall(env.databaseUrl, DEFAULT_WALL_SEED);
    log(`feed: seeded in ${seed.seconds} s ${JSON.stringify(seed.steps)}: ${JSON.stringify(seed.counts)}`);
    // Readers: every user but the two kept aside as the sparse and empty authors.
    const readers = fixtures.users.filter((u) => u.id !== seed.sparseAuthorId && u.id !== seed.emptyAuthorId);
    log('feed: seeding groups, memberships and follows (set-based SQL)');
    const groupSeed = await seedGroupsAndFollows(
      env.databaseUrl,
      readers.map((u) => u.id),
      DEFAULT_GROUP_SEED,
    );
    log(`feed: seeded in ${groupSeed.seconds} s ${JSON.stringify(groupSeed.steps)}: ${JSON.stringify(groupSeed.counts)}`);
    if (groupSeed.counts.memberships !== DEFAULT_GROUP_SEED.memberships) failures.push(`group seed: ${groupSeed.counts.memberships} memberships`);
    if (
      groupSeed.counts.followsPerReaderMin !== DEFAULT_GROUP_SEED.followsPerReader ||
      groupSeed.counts.followsPerReaderMax !== DEFAULT_GROUP_SEED.followsPerReader
    ) {
      failures.push(`group seed: readers follow ${groupSeed.counts.followsPerReaderMin}..${groupSeed.counts.followsPerReaderMax} people`);
    }
    const followingReaders = groupSeed.followingReaderIds.map((id) => readers.findIndex((u) => u.id === id));
    log('feed: seeding mutes (readers who each silenced 1,000 writers)');
    const muteSeed = await seedMutes(
      env.databaseUrl,
      readers.map((u) => u.id),
      groupSeed.followingReaderIds,
      DEFAULT_MUTE_SEED,
    );
    log(`feed: seeded in ${muteSeed.seconds} s: ${JSON.stringify(muteSeed.counts)}`);
    if (muteSeed.counts.mutesPerReaderMin !== DEFAULT_MUTE_SEED.mutesPerReader || muteSeed.counts.mutesPerReaderMax !== DEFAULT_MUTE_SEED.mutesPerReader) {
      failures.push(`mute seed: readers muted ${muteSeed.counts.mutesPerReaderMin}..${muteSeed.counts.mutesPerReaderMax} people`);
    }
    const mutingReaders = muteSeed.muterIds.map((id) => readers.findIndex((u) => u.id === id));
    // The public and group walls are read by readers who hide nobody (the muters have rounds of their own).
    const plainReaders = readers.map((_, i) => i).filter((i) => !mutingReaders.includes(i));

    log('feed: statements per page, in-process (buildApp onQuery) on the same database');
    const inProcess = await countStatements(env, readers, seed, options, groupSeed, muteSeed);
    const statementCounts = inProcess.counts;
    // Constant means: the same for every page of one kind of feed whatever it holds (10 posts, 3,
    // none) and however deep. The public wall (a shared page, the reader's reactions, the total) and
    // an author's list (the page with the reader's reactions inline, the total) are two kinds;
    // statementsPerPage is theirs. A group's wall and the 'Siguiendo' wall are two more, reported apart.
    const kindOf = (c: StatementCount) =>
      c.case.startsWith('group wall')
        ? 'group'
        : c.case.startsWith('following wall')
          ? 'following'
          : c.case.startsWith('muted wall')
            ? 'muted'
            : c.case.includes('author')
              ? 'author'
              : 'wall';
    const kinds = new Map<string, StatementCount[]>();
    for (const c of statementCounts) kinds.set(kindOf(c), [...(kinds.get(kindOf(c)) ?? []), c]);
    const constantOf = (group: StatementCount[] = []) => group.length > 0 && new Set(group.map((c) => c.statements)).size === 1;
    const maxOf = (group: StatementCount[] = []) => Math.max(...group.map((c) => c.statements));
    const constantPerKind = constantOf(kinds.get('wall')) && constantOf(kinds.get('author'));
    const statementsPerPage = Math.max(maxOf(kinds.get('wall')), maxOf(kinds.get('author')));
    const wallStatements = (wall: OtherWall) => ({ perPage: maxOf(kinds.get(wall)), constant: constantOf(kinds.get(wall)) });
    log(`feed: statements per page ${statementCounts.map((c) => `${c.case}=${c.statements} (${c.posts} posts)`).join(', ')}`);
    for (const c of inProcess.counts) if (c.posts === 0 && c.case !== 'empty author') failures.push(`statement count: ${c.case} returned no post`);
    const sqlTimings = await timeRepositoryStatements(env, readers[0]!.id, inProcess.deepPosition, groupSeed);
    log(`feed: repository statements alone (median of 15, ms): ${JSON.stringify(sqlTimings)}`);

    log('feed: starting server and worker');
    tribuna = await startTribuna(env);
    log(`feed: server pid ${tribuna.server.pid} on ${tribuna.baseUrl}, worker pid ${tribuna.worker.pid}`);

    // Sanity: the real server answers a first page with the seeded total.
    const check = await fetch(`${tribuna.baseUrl}/api/posts`, {
      headers: { cookie: sessionCookie(readers[0]!.token), 'x-forwarded-for': readers[0]!.address },
    });
    const checkBody = (await check.json()) as { posts: unknown[]; total: number; hasMore: boolean };
    if (check.status !== 200 || checkBody.posts.length !== WALL_LIMITS.feedPageSize || checkBody.total !== seed.counts.visiblePosts) {
      failures.push(
        `first page over HTTP: status ${check.status}, ${checkBody.posts?.length} posts, total ${checkBody.total} (expected ${seed.counts.visiblePosts})`,
      );
    }
    // And a first page of the large group's wall (with its pinned posts) and of a 'Siguiendo' wall.
    for (const [wall, path, user] of [
      ['group', inProcess.walls.group.firstPaths[0]!, readers[0]!],
      ['following', inProcess.walls.following.firstPaths[0]!, readers[followingReaders[0]!]!],
      ['muted', inProcess.walls.muted.firstPaths[0]!, readers[mutingReaders[0]!]!],
    ] as const) {
      const res = await fetch(`${tribuna.baseUrl}${path}`, { headers: { cookie: sessionCookie(user.token), 'x-forwarded-for': user.address } });
      const body = (await res.json()) as { posts: unknown[]; pinned?: unknown[] };
      const pinnedOk = wall !== 'group' || body.pinned?.length === DEFAULT_GROUP_SEED.pinned;
      if (res.status !== 200 || body.posts?.length !== WALL_LIMITS.feedPageSize || !pinnedOk) {
        failures.push(`${wall} wall first page over HTTP: status ${res.status}, ${body.posts?.length} posts, ${body.pinned?.length ?? 0} pinned`);
      }
    }

    const postIds = await samplePostIds(env, 20_000);
    const load = spawnTs(
      'feed-load',
      'bench/load/feed-load.ts',
      [
        paramsFile('feed-load', {
          baseUrl: tribuna.baseUrl,
          connections: options.connections,
          openLoopConnections: options.openLoopConnections,
          users: readers.map((u) => ({ token: u.token, address: u.address })),
          firstPaths: ['/api/posts', '/api/posts?sort=recent'],
          deepPaths: inProcess.deepPaths,
          postIds,
          publicReaders: plainReaders,
          walls: {
            group: { ...inProcess.walls.group, readers: plainReaders },
            following: { ...inProcess.walls.following, readers: followingReaders },
            muted: { ...inProcess.walls.muted, readers: mutingReaders },
          },
        }),
      ],
      { ipc: true },
    );
    children.push(load);
    await load.next('ready', 30_000);

    const meterFor = () =>
      new CpuMeter({
        server: () => [tribuna!.server.pid],
        worker: () => [tribuna!.worker.pid],
        postgres: postgresOf(env.name),
        postgresShared,
        redis: { comm: 'redis-server' },
        load: () => [load.pid],
        orchestrator: () => [process.pid],
      });
    const run = async (kind: string, durationS: number, extra: Record<string, unknown> = {}) =>
      ((await load.request({ type: 'run', kind, durationS, ...extra }, 'result', durationS * 1000 + 90_000)) as unknown as { result: RoundResult }).result;

    log(`feed: warm-up ${options.warmupS} s of each kind (not reported)`);
    const warmups = [await run('feed', options.warmupS), await run('health', options.warmupS), await run('react', options.warmupS)];
    const wallWarmups = [await run('group', options.warmupS), await run('following', options.warmupS), await run('muted', options.warmupS)];

    const measured: MeasuredRound[] = [];
    const discarded: { kind: Kind; round: number; perSecond: number; stealCores: number }[] = [];
    const measureRound = async (kind: Kind, index: number) => {
      const { result, cpuCores } = await measureUntilQuiet(
        async () => {
          const meter = meterFor();
          meter.start();
          const r = await run(kind, options.durationS);
          return { result: r, cpuCores: meter.stop() };
        },
        {
          limitCores: STEAL_LIMIT_CORES,
          // A react round is repeated too: its toggles are all tracked, so nothing is lost.
          maxRetries: MAX_ROUND_RETRIES,
          onNoisy: async (noisy, steal) => {
            discarded.push({ kind, round: index, perSecond: round(noisy.result.perSecond, 0), stealCores: steal });
            log(`feed: round ${index} ${kind}: ${round(noisy.result.perSecond, 0)}/s with ${steal} cores stolen; measuring it again`);
            await sleep(1000);
          },
        },
      );
      measured.push({ kind, round: index, result, cpuCores });
      const errs = (result.errors ?? 0) + (result.non2xx ?? 0);
      const perKind = result.first && result.deep ? `  first p99 ${result.first.p99Ms} ms  deep p99 ${result.deep.p99Ms} ms` : '';
      log(
        `feed: round ${index} ${kind.padEnd(6)} ${round(result.perSecond, 0)}/s  p50 ${round(result.latency.p50Ms, 2)} ms  p99 ${round(result.latency.p99Ms, 2)} ms${perKind}` +
          `${errs ? `  errors ${errs} ${JSON.stringify(result.statusCounts ?? {})}` : ''}  cpu ${JSON.stringify(cpuCores)}`,
      );
      await sleep(1000);
    };
    for (let i = 1; i <= options.rounds; i++) {
      // Interleaved so the machine's noise spreads over the kinds.
      const order: Kind[] =
        i % 2 === 1 ? ['feed', 'muted', 'group', 'following', 'health', 'react'] : ['react', 'health', 'following', 'group', 'muted', 'feed'];
      for (const kind of order) await measureRound(kind, i);
    }

    const feedRounds = measured.filter((m) => m.kind === 'feed');
    const healthRounds = measured.filter((m) => m.kind === 'health');
    const reactRounds = measured.filter((m) => m.kind === 'react');
    const medianFeed = medianBy(feedRounds, (m) => m.result.perSecond);
    const feedPerSecond = round(medianFeed.result.perSecond, 0);
    const healthPerSecond = round(median(healthRounds.map((m) => m.result.perSecond)), 0);
    const reactionsPerSecond = round(median(reactRounds.map((m) => m.result.perSecond)), 0);
    const medianReact = medianBy(reactRounds, (m) => m.result.perSecond);

    const openRate = Math.max(1, Math.round(feedPerSecond * options.openLoopShare));
    type OpenRun = {
      acknowledged: number;
      perSecond: number;
      errors: number;
      notSent: number;
      abandoned: number;
      malformed?: number;
      statusCounts: Record<string, number>;
      errorSamples: string[];
      maxSchedulerLagMs: number;
      latencyFromDue: Latency;
      first: Latency;
      deep: Latency;
    };
    const openRuns: { kind: 'feed' | 'react'; share: number; result: OpenRun; cpuCores: unknown }[] = [];
    // openLoopCapacityPerSecond for feed pages and for reaction toggles: 0.8x of the closed-loop
    // median first (openLoopP99MsAt80), then up or down by 0.1x (bench/lib/openLoop.ts).
    const searchCapacity = (kind: 'feed' | 'react', closedRate: number) =>
      searchOpenLoopCapacity(closedRate, async (ratePerSecond, share) => {
        const openMeter = meterFor();
        openMeter.start();
        const result = (await run(`${kind}-open`, options.durationS, { ratePerSecond })) as unknown as OpenRun;
        const cpuCores = openMeter.stop();
        openRuns.push({ kind, share, result, cpuCores });
        const failed = result.errors + sumValues(result.statusCounts) + result.notSent + result.abandoned + (result.malformed ?? 0);
        log(
          `feed: open loop ${kind} ${share}x = ${ratePerSecond}/s: ${round(result.perSecond, 0)}/s answered, p50 ${result.latencyFromDue.p50Ms} ms p99 ${result.latencyFromDue.p99Ms} ms from due time` +
            `${failed ? `, failed ${failed} ${JSON.stringify(result.statusCounts)} ${JSON.stringify(result.errorSamples)}` : ''}`,
        );
        await sleep(2000);
        return { p99Ms: result.latencyFromDue.p99Ms, answeredPerSecond: result.perSecond, failed };
      });
    log(`feed: open-loop capacity of feed pages (closed loop ${feedPerSecond}/s) and of reaction toggles (${reactionsPerSecond}/s)`);
    // The driver's warm-up of each kind (not reported; its toggles are checked like the others).
    const warmOpen = async (kind: 'feed' | 'react') => {
      const r = (await run(`${kind}-open`, OPEN_LOOP_WARMUP.durationS, { ratePerSecond: OPEN_LOOP_WARMUP.ratePerSecond })) as unknown as {
        acknowledged: number;
        errors: number;
      };
      if (r.errors > 0) failures.push(`open-loop warm-up ${kind}: ${r.errors} errors`);
      return r;
    };
    await warmOpen('feed');
    const feedCapacity = await searchCapacity('feed', feedPerSecond);
    const reactWarmup = await warmOpen('react');
    const reactCapacity = await searchCapacity('react', reactionsPerSecond);
    const open = openRuns.find((r) => r.kind === 'feed' && r.share === 0.8)!.result;
    const openCpu = openRuns.find((r) => r.kind === 'feed' && r.share === 0.8)!.cpuCores;
    const reactOpen = openRuns.find((r) => r.kind === 'react' && r.share === 0.8)!.result;

    // Integrity: no refused or failed read (a 429 would be cheap and inflate req/s), and every
    // acknowledged toggle's final answer is what the database holds.
    const errorsOf = (r: RoundResult) => (r.errors ?? 0) + (r.non2xx ?? 0);
    for (const m of measured) {
      if (errorsOf(m.result) > 0) {
        failures.push(
          `${m.kind} round ${m.round}: ${errorsOf(m.result)} errors or non-2xx answers ${JSON.stringify(m.result.statusCounts ?? {})} ${JSON.stringify(m.result.errorSamples ?? [])}`,
        );
      }
    }
    for (const r of openRuns) {
      // A refused read or toggle is reported with its step (the step did not hold); a transport
      // error or an unreadable answer is a failure of the run.
      if (r.result.errors > 0 || (r.result.malformed ?? 0) > 0) {
        failures.push(
          `open loop ${r.kind} ${r.share}x: ${r.result.errors} errors, ${r.result.malformed ?? 0} malformed ${JSON.stringify(r.result.errorSamples)}`,
        );
      }
    }
    const reactionIntegrity = await checkReactions(env, load, readers);
    const reactionsAcknowledged =
      [...reactRounds.map((m) => m.result), warmups[2]!].reduce((a, r) => a + r.acknowledged, 0) +
      openRuns.filter((r) => r.kind === 'react').reduce((a, r) => a + r.result.acknowledged, 0) +
      reactWarmup.acknowledged;
    failures.push(...reactionIntegrity.failures);

    const feedP99Ms = round(medianFeed.result.latency.p99Ms, 2);
    const feedVsHealthRatio = round(feedPerSecond / healthPerSecond, 3);
    // The other walls: their median round (by req/s), read next to the public wall's of the same run.
    const wallFigures = (wall: OtherWall) => {
      const med = medianBy(
        measured.filter((m) => m.kind === wall),
        (m) => m.result.perSecond,
      );
      const p99Ms = round(med.result.latency.p99Ms, 2);
      return {
        perSecond: round(med.result.perSecond, 0),
        p50Ms: round(med.result.latency.p50Ms, 2),
        p99Ms,
        firstPageP99Ms: med.result.first?.p99Ms,
        deepPageP99Ms: med.result.deep?.p99Ms,
        vsPublic: round(p99Ms / feedP99Ms, 3),
        statements: wallStatements(wall),
      };
    };
    const groupWall = wallFigures('group');
    const followingWall = wallFigures('following');
    const mutedWall = wallFigures('muted');
    const json: Record<string, unknown> = {
      feedPerSecond,
      feedP99Ms,
      healthPerSecond,
      reactionsPerSecond,
      statementsPerPage,
      feedVsHealthRatio,
      feedP50Ms: round(medianFeed.result.latency.p50Ms, 2),
      firstPageP99Ms: medianFeed.result.first?.p99Ms,
      deepPageP99Ms: medianFeed.result.deep?.p99Ms,
      firstPageP50Ms: medianFeed.result.first?.p50Ms,
      deepPageP50Ms: medianFeed.result.deep?.p50Ms,
      healthP99Ms: round(median(healthRounds.map((m) => m.result.latency.p99Ms)), 2),
      reactionsP99Ms: round(medianReact.result.latency.p99Ms, 2),
      statementsConstant: constantPerKind,
      groupWallP99Ms: groupWall.p99Ms,
      groupWallVsPublic: groupWall.vsPublic,
      groupWallPerSecond: groupWall.perSecond,
      groupWallP50Ms: groupWall.p50Ms,
      groupWallFirstPageP99Ms: groupWall.firstPageP99Ms,
      groupWallDeepPageP99Ms: groupWall.deepPageP99Ms,
      groupWallStatementsPerPage: groupWall.statements.perPage,
      groupWallStatementsConstant: groupWall.statements.constant,
      followingWallP99Ms: followingWall.p99Ms,
      followingWallVsPublic: followingWall.vsPublic,
      followingWallPerSecond: followingWall.perSecond,
      followingWallP50Ms: followingWall.p50Ms,
      followingWallFirstPageP99Ms: followingWall.firstPageP99Ms,
      followingWallDeepPageP99Ms: followingWall.deepPageP99Ms,
      followingWallStatementsPerPage: followingWall.statements.perPage,
      followingWallStatementsConstant: followingWall.statements.constant,
      mutedWallP99Ms: mutedWall.p99Ms,
      mutedWallVsPublic: mutedWall.vsPublic,
      mutedWallPerSecond: mutedWall.perSecond,
      mutedWallP50Ms: mutedWall.p50Ms,
      mutedWallFirstPageP99Ms: mutedWall.firstPageP99Ms,
      mutedWallDeepPageP99Ms: mutedWall.deepPageP99Ms,
      mutedWallStatementsPerPage: mutedWall.statements.perPage,
      mutedWallStatementsConstant: mutedWall.statements.constant,
      muteSeed: { seconds: muteSeed.seconds, counts: muteSeed.counts, options: DEFAULT_MUTE_SEED },
      statementCounts,
      repositoryStatementMs: sqlTimings,
      openLoopCapacityPerSecond: feedCapacity.capacityPerSecond,
      openLoopP99MsAt80: feedCapacity.at80.p99Ms,
      reactionsOpenLoopCapacityPerSecond: reactCapacity.capacityPerSecond,
      reactionsOpenLoopP99MsAt80: reactCapacity.at80.p99Ms,
      reactionsOpenLoopAt80PerSecond: round(reactOpen.perSecond, 0),
      openLoopSteps: { feed: feedCapacity.steps, reactions: reactCapacity.steps },
      openLoopRatePerSecond: openRate,
      openLoopAnsweredPerSecond: round(open.perSecond, 0),
      openLoopP50Ms: open.latencyFromDue.p50Ms,
      openLoopP99Ms: open.latencyFromDue.p99Ms,
      openLoopP999Ms: open.latencyFromDue.p999Ms,
      openLoopFirstP99Ms: open.first.p99Ms,
      openLoopDeepP99Ms: open.deep.p99Ms,
      openLoopMaxSchedulerLagMs: round(open.maxSchedulerLagMs, 2),
      reactionsAcknowledged: reactionsAcknowledged,
      reactionKeysChecked: reactionIntegrity.checked,
      reactionMismatches: reactionIntegrity.mismatches,
      seed: { seconds: seed.seconds, steps: seed.steps, counts: seed.counts, users: fixtures.users.length },
      groupSeed: { seconds: groupSeed.seconds, steps: groupSeed.steps, counts: groupSeed.counts, options: DEFAULT_GROUP_SEED },
      rounds: options.rounds,
      roundDurationS: options.durationS,
      connections: options.connections,
      openLoopConnections: options.openLoopConnections,
      distinctUsers: readers.length,
      deepPages: { from: options.deepFrom, to: options.deepTo, paths: inProcess.deepPaths.length },
      targets: TARGETS,
      meetsTargets: {
        feedP99Ms: feedP99Ms < TARGETS.feedP99Ms,
        feedVsHealthRatio: feedVsHealthRatio >= TARGETS.feedVsHealthRatio,
        statementsConstant: constantPerKind,
        groupWallVsPublic: groupWall.vsPublic <= TARGETS.groupWallVsPublic,
        followingWallVsPublic: followingWall.vsPublic <= TARGETS.followingWallVsPublic,
        groupWallStatementsConstant: groupWall.statements.constant,
        followingWallStatementsConstant: followingWall.statements.constant,
        mutedWallVsPublic: mutedWall.vsPublic <= TARGETS.mutedWallVsPublic,
        mutedWallStatementsConstant: mutedWall.statements.constant,
      },
      discardedRounds: discarded,
      method: {
        aggregation:
          'feedPerSecond, feedP50Ms, feedP99Ms and the first/deep p99 come from the median feed round (by req/s); healthPerSecond and reactionsPerSecond are medians of their rounds. Rounds are interleaved (feed, health, react, then react, health, feed, …); a round during which the host stole more than 0.1 core is measured again (discardedRounds).',
        feed: 'autocannon, closed loop, `connections` connections, pipelining 1; every request carries the session cookie of the next of the signed-in readers who hide nobody (distinctUsers less the 800 muters of the muted rounds; the reaction rounds rotate over all distinctUsers) (each with its X-Forwarded-For address, 50 users per address; the server trusts the loopback proxy) so the per-user limit wall.read (60 per 20 s) is never reached at these rates: production limits unchanged, no override. Requests alternate a first page (GET /api/posts and ?sort=recent in turn) and a deep page (a cursor of pages deepFrom..deepTo of either sort, collected beforehand by following nextCursor, replayed at random). req/s = 200 answers / round duration. Latency: autocannon histogram (all), and per kind our own hdr histogram from the request being built to its answer.',
        health: 'GET /api/health, same connections, same process, same round length.',
        otherWalls:
          "group and following rounds are feed rounds (same connections, same alternation of first pages of both sorts and deep pages 20–50 replayed at random, same histograms) on the large private group's wall (GET /api/posts?groupId=…, every reader a member, 5,000 posts, 3 pinned) and on the 'Siguiendo' wall (GET /api/posts?following=true) of the readers who each follow exactly 1,000 writers (800 of them, rotated: one reader alone would meet wall.read's 60 per 20 s); interleaved with the public wall's rounds (feed, group, following, health, react, then the reverse). groupWallVsPublic / followingWallVsPublic: that wall's median-round p99 ÷ feedP99Ms of the same run. The public wall's pages are shared by every reader for a second (pageCache.ts); a group's pages are shared the same way among its readers once access is asked; a reader's 'Siguiendo' page asks its own ids (with the reader's reactions) and takes the post cards from a per-post cache shared among readers for a second (cardCache.ts). muted rounds (issue 29) are feed rounds of the public wall (same first and deep paths) read with the sessions of 800 readers who each muted exactly 1,000 writers (bench/lib/muteSeed.ts); mutedWallVsPublic: their median-round p99 ÷ feedP99Ms (target ≤ 1.2).",
        reactions:
          'POST /api/posts/:postId/reactions {type} (a random type on one of 20,000 random visible posts), rotating over the same users (wall.react: 30 per 15 s per user, not reached). Toggles/s = 200 answers / (first request → last answer); at the deadline every connection finishes the request in flight and stops, so every toggle the server may have committed is answered.',
        openLoop:
          "Same load process, a fixed pool of openLoopConnections keep-alive connections opened (each answering one GET /api/health) before any schedule (bench/lib/keepAlivePool.ts); feed requests (first and deep in turn), or reaction toggles (as in the closed loop), due at fixed intervals, after an unmeasured warm-up of the driver for each kind (3 s at 100/s), a request due while every connection is busy waits in the driver's queue; latency from each request's due time (no coordinated omission). openLoopP99MsAt80 / reactionsOpenLoopP99MsAt80: the run at 0.8× the closed-loop median (openLoopP99Ms is the feed's). openLoopCapacityPerSecond / reactionsOpenLoopCapacityPerSecond: the highest rate of the search (0.8×, then up or down by 0.1× of the closed-loop median, each a whole run of roundDurationS) whose p99 from due time stayed under 100 ms with no error, refusal or unsent request; openLoopSteps lists every run. Toggles of the open loops are part of the reaction integrity check.",
        statements:
          "In-process buildApp(config, { onQuery }) on the same seeded database: after two warm first pages for the user, the statements of one GET each: first page (both sorts), a deep page (page deepTo), the sparse author (3 posts), the empty author (0 posts); the same four pages of the large group's wall and of a 'Siguiendo' wall (its reader warmed up likewise). Each request also passes the session lookup (cached after the warm-up).",
        seed: 'bench/lib/wallSeed.ts: INSERT … SELECT over generate_series (a handful of statements), VACUUM ANALYZE; seed.seconds includes it. groupSeed: bench/lib/groupSeed.ts, the same way, after it.',
      },
      roundsDetail: measured.map((m) => ({
        kind: m.kind,
        round: m.round,
        perSecond: round(m.result.perSecond, 0),
        latency: m.result.latency,
        first: m.result.first,
        deep: m.result.deep,
        errors: errorsOf(m.result),
        statusCounts: m.result.statusCounts,
        cpuCores: m.cpuCores,
      })),
      warmup: [...warmups, ...wallWarmups].map((w) => ({ perSecond: round(w.perSecond, 0), errors: errorsOf(w) })),
      openLoopCpuCores: openCpu,
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };

    const table: [string, string][] = [
      ['feed req/s (closed loop, median round)', `${feedPerSecond}`],
      ['feed p50 / p99 ms', `${json.feedP50Ms} / ${feedP99Ms}`],
      ['first page / deep page p99 ms', `${json.firstPageP99Ms} / ${json.deepPageP99Ms}`],
      [
        "group's wall req/s, p99 ms (first / deep), ÷ public p99",
        `${groupWall.perSecond}, ${groupWall.p99Ms} (${groupWall.firstPageP99Ms} / ${groupWall.deepPageP99Ms}), ${groupWall.vsPublic} (target ≤ ${TARGETS.groupWallVsPublic})`,
      ],
      [
        "'Siguiendo' wall req/s, p99 ms (first / deep), ÷ public p99",
        `${followingWall.perSecond}, ${followingWall.p99Ms} (${followingWall.firstPageP99Ms} / ${followingWall.deepPageP99Ms}), ${followingWall.vsPublic} (target ≤ ${TARGETS.followingWallVsPublic})`,
      ],
      [
        'public wall of fans who muted 1,000 people: req/s, p99 ms (first / deep), ÷ public p99',
        `${mutedWall.perSecond}, ${mutedWall.p99Ms} (${mutedWall.firstPageP99Ms} / ${mutedWall.deepPageP99Ms}), ${mutedWall.vsPublic} (target ≤ ${TARGETS.mutedWallVsPublic}), ${mutedWall.statements.perPage} statements a page (${mutedWall.statements.constant ? 'constant' : 'NOT constant'})`,
      ],
      [
        "statements per page: group's wall / 'Siguiendo' wall",
        `${groupWall.statements.perPage} (${groupWall.statements.constant ? 'constant' : 'NOT constant'}) / ${followingWall.statements.perPage} (${followingWall.statements.constant ? 'constant' : 'NOT constant'})`,
      ],
      ['GET /api/health req/s (baseline)', `${healthPerSecond}`],
      ['feed / health', `${feedVsHealthRatio} (target ≥ ${TARGETS.feedVsHealthRatio})`],
      [`feed open loop at ${openRate}/s (0.8x): p50 / p99 ms`, `${json.openLoopP50Ms} / ${json.openLoopP99Ms}`],
      ['feed open-loop capacity (p99 < 100 ms) req/s', `${feedCapacity.capacityPerSecond ?? 'below 0.2x'} (closed loop ${feedPerSecond})`],
      [`reactions open loop at ${reactCapacity.at80.ratePerSecond}/s (0.8x): p99 ms`, `${round(reactCapacity.at80.p99Ms, 2)}`],
      ['reactions open-loop capacity (p99 < 100 ms) toggles/s', `${reactCapacity.capacityPerSecond ?? 'below 0.2x'} (closed loop ${reactionsPerSecond})`],
      ['reaction toggles/s (median round)', `${reactionsPerSecond}`],
      [
        'statements per page',
        `${statementsPerPage} at most (${constantPerKind ? 'constant per kind of feed' : 'NOT constant'}: ${statementCounts.map((c) => `${c.case} ${c.statements}`).join(', ')})`,
      ],
      ['page / total statement alone, median ms', `${sqlTimings.pageActivityMs} / ${sqlTimings.totalMs}`],
      [
        'seed: groups / memberships / follows (each of the 800 readers follows)',
        `${groupSeed.counts.groups} / ${groupSeed.counts.memberships} / ${groupSeed.counts.follows} (${groupSeed.counts.followsPerReaderMin}) in ${groupSeed.seconds} s`,
      ],
      [
        'seed: posts / reactions / comments / media',
        `${seed.counts.posts} / ${seed.counts.postReactions} / ${seed.counts.comments} / ${seed.counts.media} in ${seed.seconds} s`,
      ],
      [
        'reaction toggles acknowledged / (post, user) checked / mismatched',
        `${reactionsAcknowledged} / ${reactionIntegrity.checked} / ${reactionIntegrity.mismatches}`,
      ],
    ];
    return { name: 'feed', json, table, failures };
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
    if (tribuna) await tribuna.stop();
    await destroyBenchEnv(env);
  }
}

/**
 * The app built in-process on the bench database, counting statements per request; also follows
 * nextCursor of both sorts to collect the deep pages the load replays.
 */
async function countStatements(
  env: BenchEnv,
  readers: BenchUser[],
  seed: WallSeedResult,
  options: FeedOptions,
  groupSeed: GroupSeedResult,
  muteSeed: MuteSeedResult,
): Promise<{ counts: StatementCount[]; deepPaths: string[]; deepPosition: string; walls: Record<OtherWall, { firstPaths: string[]; deepPaths: string[] }> }> {
  const config = loadConfig({
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.redisPrefix,
    LOG_LEVEL: 'warn',
    MEDIA_DIR: path.join(WORK_DIR, 'media'),
    // app.inject's requests say `Host: localhost:80`: the only host this app answers (plain http,
    // so its session cookie has no __Host- prefix).
    PUBLIC_URL: 'http://localhost',
  });
  const statements: string[] = [];
  // Shared pages and totals off: every request pays its full cost (a cached page or total costs fewer).
  const app = await buildApp(config, { onQuery: (q) => void statements.push(q), wall: { pageTtlMs: 0, totalsTtlMs: 0 } });
  let nextReader = 0;
  const get = async (url: string, user?: BenchUser) => {
    const u = user ?? readers[nextReader++ % readers.length]!;
    const res = await app.inject({ method: 'GET', url, headers: { cookie: `${sessionCookieName(config.publicUrl)}=${u.token}` } });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res.json() as { posts: { id: string }[]; total: number; hasMore: boolean; nextCursor: string | null };
  };
  try {
    // Deep pages: follow nextCursor of each sort, rotating users (each page by another reader:
    // for the 'Siguiendo' wall, another of the readers who follow 1,000 people).
    const followers = groupSeed.followingReaderIds.map((id) => readers.find((u) => u.id === id)!);
    let nextFollower = 0;
    const collect = async (base: string, by?: () => BenchUser) => {
      const paths: string[] = [];
      let position = '';
      for (const sort of ['activity', 'recent'] as const) {
        let cursor: string | null = null;
        for (let page = 1; page <= options.deepTo; page++) {
          const url = `${base}${base.includes('?') ? '&' : '?'}sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`;
          if (page >= options.deepFrom) paths.push(url);
          if (page === options.deepTo && sort === 'activity') position = cursor ?? '';
          const body = await get(url, by?.());
          if (!body.nextCursor) throw new Error(`${base} (${sort}) ended at page ${page}`);
          cursor = body.nextCursor;
        }
      }
      return { paths, position };
    };
    const { paths: deepPaths, position: deepPosition } = await collect('/api/posts');
    const groupBase = `/api/posts?groupId=${groupSeed.largeGroupId}`;
    const followingBase = '/api/posts?following=true';
    const walls: Record<OtherWall, { firstPaths: string[]; deepPaths: string[] }> = {
      group: { firstPaths: [groupBase, `${groupBase}&sort=recent`], deepPaths: (await collect(groupBase)).paths },
      following: {
        firstPaths: [followingBase, `${followingBase}&sort=recent`],
        deepPaths: (await collect(followingBase, () => followers[nextFollower++ % followers.length]!)).paths,
      },
      // The public wall, read by fans who muted 1,000 people (its cursors are positions: anybody's).
      muted: { firstPaths: ['/api/posts', '/api/posts?sort=recent'], deepPaths },
    };

    const user = readers[readers.length - 1]!;
    const follower = followers[0]!;
    const muter = readers.find((u) => u.id === muteSeed.muterIds[0])!;
    for (const warm of [user, user, follower, follower, muter, muter]) await get('/api/posts', warm);
    const deepOf = (paths: string[], sort: string) => paths.filter((p) => p.includes(`sort=${sort}`)).at(-1)!;
    const cases: [string, string, BenchUser][] = [
      ['first page (activity)', '/api/posts', user],
      ['first page (recent)', '/api/posts?sort=recent', user],
      [`deep page ${options.deepTo} (activity)`, deepOf(deepPaths, 'activity'), user],
      [`deep page ${options.deepTo} (recent)`, deepOf(deepPaths, 'recent'), user],
      ['sparse author (3 posts)', `/api/posts?userId=${seed.sparseAuthorId}`, user],
      ['empty author', `/api/posts?userId=${seed.emptyAuthorId}`, user],
      ['group wall first page (activity, with its pinned posts)', groupBase, user],
      ['group wall first page (recent, with its pinned posts)', `${groupBase}&sort=recent`, user],
      [`group wall deep page ${options.deepTo} (activity)`, deepOf(walls.group.deepPaths, 'activity'), user],
      [`group wall deep page ${options.deepTo} (recent)`, deepOf(walls.group.deepPaths, 'recent'), user],
      ['following wall first page (activity)', followingBase, follower],
      ['following wall first page (recent)', `${followingBase}&sort=recent`, follower],
      [`following wall deep page ${options.deepTo} (activity)`, deepOf(walls.following.deepPaths, 'activity'), follower],
      [`following wall deep page ${options.deepTo} (recent)`, deepOf(walls.following.deepPaths, 'recent'), follower],
      ['muted wall first page (activity)', '/api/posts', muter],
      ['muted wall first page (recent)', '/api/posts?sort=recent', muter],
      [`muted wall deep page ${options.deepTo} (activity)`, deepOf(deepPaths, 'activity'), muter],
      [`muted wall deep page ${options.deepTo} (recent)`, deepOf(deepPaths, 'recent'), muter],
    ];
    const counts: StatementCount[] = [];
    for (const [name, url, who] of cases) {
      statements.length = 0;
      const body = await get(url, who);
      counts.push({
        case: name,
        path: url.replace(/cursor=[^&]+/, 'cursor=…'),
        posts: body.posts.length,
        statements: statements.length,
        sql: statements.map((s) => s.replace(/\s+/g, ' ').slice(0, 120)),
      });
    }
    return { counts, deepPaths, deepPosition, walls };
  } finally {
    await app.close();
  }
}

/** The feed's two statements alone (server/src/wall/repository.ts), median of 15 runs each, in ms (and those of the other walls). */
async function timeRepositoryStatements(env: BenchEnv, viewerId: string, deepCursor: string, groupSeed: GroupSeedResult): Promise<Record<string, number>> {
  const { decodeCursor } = await import('../server/src/wall/cursor.ts');
  const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-sql' });
  const viewer = { id: viewerId, isAdmin: false };
  const follower = { id: groupSeed.followingReaderIds[0]!, isAdmin: false };
  const time = async (run: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await run();
      samples.push(performance.now() - t);
    }
    return round(median(samples), 2);
  };
  const reader = poolRunner(database.sql);
  try {
    const deep = decodeCursor('activity', deepCursor);
    return {
      pageActivityMs: await time(() => wallRepo.feedPage(reader, { sort: 'activity' }, viewer, null, WALL_LIMITS.feedPageSize + 1)),
      pageRecentMs: await time(() => wallRepo.feedPage(reader, { sort: 'recent' }, viewer, null, WALL_LIMITS.feedPageSize + 1)),
      pageDeepMs: await time(() => wallRepo.feedPage(reader, { sort: 'activity' }, viewer, deep, WALL_LIMITS.feedPageSize + 1)),
      totalMs: await time(() => wallRepo.feedTotal(reader, {}, viewer)),
      groupPageMs: await time(() =>
        wallRepo.feedPage(
          reader,
          { sort: 'activity', groupId: groupSeed.largeGroupId, unpinned: true },
          viewer,
          null,
          WALL_LIMITS.feedPageSize + 1,
          groupSeed.largeGroupId,
        ),
      ),
      groupTotalMs: await time(() => wallRepo.feedTotal(reader, { groupId: groupSeed.largeGroupId, unpinned: true }, viewer)),
      // The 'Siguiendo' page is its ids (the reader's statement) and then cards, shared among readers.
      followingPageMs: await time(() => wallRepo.followingPage(reader, follower.id, 'activity', undefined, null, WALL_LIMITS.feedPageSize + 1)),
      followingPageAndCardsMs: await time(async () =>
        wallRepo.postCards(
          reader,
          (await wallRepo.followingPage(reader, follower.id, 'activity', undefined, null, WALL_LIMITS.feedPageSize + 1)).map((e) => e.id),
        ),
      ),
      followingTotalMs: await time(() => wallRepo.followingTotal(reader, follower.id, undefined, WALL_LIMITS.followingTotalCap + 1)),
    };
  } finally {
    await database.close();
  }
}

async function samplePostIds(env: BenchEnv, n: number): Promise<string[]> {
  const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench' });
  try {
    const rows = await database.sql<{ id: string }[]>`
      SELECT id FROM posts WHERE NOT is_hidden AND group_id IS NULL AND visibility = 'public' ORDER BY md5(id::text) LIMIT ${n}`;
    return rows.map((r) => r.id);
  } finally {
    await database.close();
  }
}

/** Every (post, user) an acknowledged toggle touched holds the reaction of its last answer. */
async function checkReactions(env: BenchEnv, load: BenchChild, readers: BenchUser[]): Promise<{ checked: number; mismatches: number; failures: string[] }> {
  const reply = (await load.request({ type: 'reactions' }, 'reactions', 60_000)) as unknown as { state: Record<string, string | null> };
  const entries = Object.entries(reply.state);
  const postIds = entries.map(([k]) => k.split(' ')[0]!);
  const userIds = entries.map(([k]) => readers[Number(k.split(' ')[1])]!.id);
  const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-check' });
  try {
    const stored = await database.sql<{ post_id: string; user_id: string; reaction_type: string | null }[]>`
      SELECT k.post_id, k.user_id, r.reaction_type
      FROM json_to_recordset(${JSON.stringify(postIds.map((p, i) => ({ post_id: p, user_id: userIds[i] })))}::json) AS k(post_id uuid, user_id uuid)
      LEFT JOIN post_reactions r ON r.post_id = k.post_id AND r.user_id = k.user_id`;
    const storedByKey = new Map(stored.map((r) => [`${r.post_id} ${r.user_id}`, r.reaction_type]));
    const mismatched: string[] = [];
    entries.forEach(([, expected], i) => {
      const got = storedByKey.get(`${postIds[i]} ${userIds[i]}`) ?? null;
      if (got !== expected) mismatched.push(`${postIds[i]}/${userIds[i]}: answered ${expected}, stored ${got}`);
    });
    const failures = mismatched.length
      ? [
          `reactions: ${mismatched.length} of ${entries.length} (post, user) pairs differ from their last acknowledged answer (e.g. ${mismatched.slice(0, 3).join('; ')})`,
        ]
      : [];
    return { checked: entries.length, mismatches: mismatched.length, failures };
  } finally {
    await database.close();
  }
}
