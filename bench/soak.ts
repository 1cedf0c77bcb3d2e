// Soak benchmark (soak.json): a long episode against the production start. For `minutes` minutes
// (15 by default) after a warm-up: closed-loop votes, signed-in feed reads and reaction toggles,
// open-loop wall posts and `viewers` live viewers of the voted poll, all at once. Every
// SAMPLE_MS it samples the server's and the worker's memory (RSS), PostgreSQL's dead tuples of
// the tables the load writes, autovacuum and checkpoints, and Redis's memory. Per minute: vote
// rate and p99, feed and reaction rates and p99, posts acknowledged. Verdicts: the last minute's
// vote rate against the first's (≥ 0.9), p99 creep, memory flat after warm-up, dead tuples and
// Redis memory bounded; then the votes' integrity (acknowledged = stored, awards landed).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { CpuMeter, postgresOf, postgresShared, withChildren } from './lib/cpu.ts';
import { viewersClientFromEnv } from './lib/nativeViewers.ts';
import { createFixtures } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { machineInfo } from './lib/machine.ts';
import { rssBytes, sleep, spawnTs, type BenchChild } from './lib/processes.ts';
import { coefficientOfVariation, fittedEnds, median, round } from './lib/stats.ts';
import { SpeedProbe } from './lib/speed.ts';
import { seedWall } from './lib/wallSeed.ts';
import { paramsFile } from './lib/workdir.ts';
import { checkIntegrity, type BenchOutcome } from './votes.ts';

export interface SoakOptions {
  minutes: number;
  warmupS: number;
  users: number;
  viewers: number;
  voteConnections: number;
  feedConnections: number;
  postsPerSecond: number;
  /** Of each minute, this many seconds of feed reads, the rest reaction toggles (same connections). */
  feedShareS: number;
  /** The viewers' sockets: the C client (bench/load/viewers-native.c) or JavaScript ws clients. */
  viewersClient: 'native' | 'node';
}

export const DEFAULT_SOAK_OPTIONS: SoakOptions = {
  minutes: 15,
  warmupS: 60,
  // Enough fans that none reaches the poll's 1,000 points in 16 minutes of voting (~5,000 votes/s).
  users: 20_000,
  viewers: 2000,
  voteConnections: 32,
  feedConnections: 8,
  postsPerSecond: 5,
  feedShareS: 45,
  viewersClient: viewersClientFromEnv(),
};

const SAMPLE_MS = 5000;
/** Diagnostics (wait events, WAL, buffers, the worker's statements) are sampled every second. */
const PROBE_MS = 1000;
const COLD_START_LIMIT_MS = 5 * 60_000;
const TABLES = [
  'votes',
  'vote_tallies',
  'poll_vote_counts',
  'vote_requests',
  'posts',
  'post_reactions',
  'notifications',
  'user_points_history',
  'profiles',
  'sessions',
];
const TARGETS = { lastVsFirstVoteRate: 0.9, p99CreepMax: 1.5, memoryGrowthMax: 1.25 };

interface Latency {
  p50Ms: number;
  p99Ms: number;
}
interface LoadResult {
  perSecond: number;
  /** Votes only: the rate in each 10 s slice of the round. */
  perSecondByInterval?: number[];
  acknowledged?: number;
  ackedByUser?: number[];
  errors?: number;
  non2xx?: number;
  latency: Latency;
  statusCounts?: Record<string, number>;
}
/** One second of PostgreSQL's activity, to line dips of the vote rate up with their cause. */
interface Probe {
  t: number;
  /** WAL bytes written since the previous probe. */
  walBytes: number;
  /** Non-idle backends of the bench database by wait event ('CPU' when not waiting). */
  waits: Record<string, number>;
  /** What the checkpointer is doing ('CheckpointWriteDelay' while a checkpoint spreads its writes). */
  checkpointer: string | null;
  /** The worker's running statements, first 80 characters. */
  worker: string[];
  /** Deltas since the previous probe. */
  commits: number;
  blocksRead: number;
  buffersCheckpoint: number;
  buffersBackend: number;
  buffersClean: number;
}

interface ProbeRow extends Record<string, unknown> {
  wal: string;
  waits: Record<string, number> | null;
  checkpointer: string | null;
  worker: string[] | null;
  commits: string;
  blocks_read: string;
  buffers_checkpoint: string;
  buffers_backend: string;
  buffers_clean: string;
}

interface Sample {
  t: number;
  serverRssMb: number;
  workerRssMb: number;
  deadTuples: Record<string, number>;
  deadTuplesTotal: number;
  liveTuples: Record<string, number>;
  /** Heap pages per table: bloat shows here even when n_dead_tup is pruned back. */
  pages: Record<string, number>;
  autovacuums: number;
  checkpoints: number;
  redisUsedMb: number;
  redisKeys: number;
}

/**
 * The probes of [fromT, toT) in one line: rates per second, the mean number of backends per wait
 * event (the four largest), the seconds the checkpointer spent writing, and the worker's statements.
 */
function summarizeProbes(probes: Probe[], fromT: number, toT: number) {
  const inside = probes.filter((p) => p.t >= fromT && p.t < toT);
  const n = Math.max(1, inside.length);
  const sum = (f: (p: Probe) => number) => inside.reduce((a, p) => a + f(p), 0);
  const waits = new Map<string, number>();
  for (const p of inside) for (const [k, v] of Object.entries(p.waits)) waits.set(k, (waits.get(k) ?? 0) + v);
  const worker = new Map<string, number>();
  for (const p of inside) for (const q of new Set(p.worker)) worker.set(q, (worker.get(q) ?? 0) + 1);
  return {
    seconds: inside.length,
    walMbPerSecond: round(sum((p) => p.walBytes) / n / 2 ** 20, 2),
    commitsPerSecond: round(sum((p) => p.commits) / n, 0),
    blocksReadPerSecond: round(sum((p) => p.blocksRead) / n, 0),
    buffersBackendPerSecond: round(sum((p) => p.buffersBackend) / n, 0),
    buffersCheckpointPerSecond: round(sum((p) => p.buffersCheckpoint) / n, 0),
    checkpointWritingS: inside.filter((p) => p.checkpointer === 'CheckpointWriteDelay' || p.buffersCheckpoint > 0).length,
    waits: Object.fromEntries(
      [...waits]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, v]) => [k, round(v / n, 2)]),
    ),
    workerBusyS: Object.fromEntries([...worker].sort((a, b) => b[1] - a[1]).slice(0, 3)),
  };
}

export async function runSoakBenchmark(options: SoakOptions = DEFAULT_SOAK_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  log(`soak: creating the bench database and fixtures (${options.minutes} min, ${options.viewers} viewers)`);
  const env = await createBenchEnv('_soak');
  let tribuna: Tribuna | null = null;
  const children: BenchChild[] = [];
  const spawn = (name: string, script: string, params: unknown) => {
    const child = spawnTs(name, script, [paramsFile(name, params)], { ipc: true });
    children.push(child);
    return child;
  };
  let monitor: Database | null = null;
  let probeDb: Database | null = null;
  let redis: Redis | null = null;
  try {
    const fixtures = await createFixtures(env.databaseUrl, options.users, {
      episode: { title: 'Benchmark: soak (points)', maxPointsPerUser: 1000, dailyReset: false, options: 6 },
    });
    const poll = fixtures.polls.episode!;
    const wall = await seedWall(env.databaseUrl, {
      posts: 20_000,
      reactions: 100_000,
      comments: 30_000,
      replyShare: 0.3,
      images: 0,
      days: 30,
      hiddenShare: 0.01,
    });
    log(`soak: wall seeded in ${wall.seconds} s ${JSON.stringify(wall.counts)}`);
    tribuna = await startTribuna(env);
    log(`soak: server pid ${tribuna.server.pid} on ${tribuna.baseUrl}, worker pid ${tribuna.worker.pid}`);
    monitor = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-soak-monitor' });
    probeDb = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-soak-probe' });
    redis = new Redis(env.redisUrl, { maxRetriesPerRequest: 1 });
    // Autovacuum in particular: some CI machines turn it off, and then only page pruning keeps the
    // dead tuples bounded; the figures are read with that in mind.
    const postgresSettings = Object.fromEntries(
      (
        await monitor.sql<{ name: string; setting: string }[]>`
          SELECT name, setting FROM pg_settings
          WHERE name IN ('autovacuum', 'autovacuum_naptime', 'autovacuum_max_workers', 'shared_buffers', 'synchronous_commit', 'server_version')`
      ).map((r) => [r.name, r.setting]),
    );
    const postIds = (await monitor.sql<{ id: string }[]>`SELECT id FROM posts WHERE NOT is_hidden ORDER BY random() LIMIT 5000`).map((r) => r.id);

    const users = fixtures.users.map((u) => ({ token: u.token, fingerprint: u.fingerprint, address: u.address }));
    const votesLoad = spawn('soak-votes', 'bench/load/http-load.ts', {
      mode: 'votes',
      baseUrl: tribuna.baseUrl,
      connections: options.voteConnections,
      pollId: poll.id,
      optionIds: poll.optionIds,
      users,
    });
    const feedLoad = spawn('soak-feed', 'bench/load/feed-load.ts', {
      baseUrl: tribuna.baseUrl,
      connections: options.feedConnections,
      users: users.map((u) => ({ token: u.token, address: u.address })),
      firstPaths: ['/api/posts', '/api/posts?sort=recent'],
      deepPaths: ['/api/posts?sort=recent', '/api/posts'],
      postIds,
    });
    const side = spawn('soak-side', 'bench/load/soak-side.ts', {
      baseUrl: tribuna.baseUrl,
      origin: tribuna.publicUrl,
      pollId: poll.id,
      users: users.map((u) => ({ token: u.token, address: u.address })),
      native: options.viewersClient === 'native',
    });
    await Promise.all([votesLoad.next('ready', 30_000), feedLoad.next('ready', 30_000), side.next('ready', 30_000)]);
    const connected = (await side.request({ type: 'connect', viewers: options.viewers, batch: 100 }, 'connected', 10 * 60_000)) as Record<string, unknown>;
    log(`soak: viewers ${JSON.stringify(connected)}`);

    // Sampling, all along (warm-up included).
    const samples: Sample[] = [];
    const t0 = Date.now();
    const sample = async (): Promise<void> => {
      const rows = await monitor!.sql<{ relname: string; n_dead_tup: number; n_live_tup: number; pages: number }[]>`
        SELECT relname, n_dead_tup::int, n_live_tup::int, (pg_relation_size(relid) / 8192)::int AS pages
        FROM pg_stat_user_tables WHERE relname = ANY(${TABLES})`;
      const [vac] = await monitor!.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_progress_vacuum WHERE datname = current_database()`;
      const [cp] = await monitor!.sql<{ n: number }[]>`SELECT (checkpoints_timed + checkpoints_req)::int AS n FROM pg_stat_bgwriter`;
      const info = await redis!.info('memory');
      const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
      let keys = 0;
      let cursor = '0';
      do {
        const [next, found] = await redis!.scan(cursor, 'MATCH', `${env.redisPrefix}*`, 'COUNT', 1000);
        cursor = next;
        keys += found.length;
      } while (cursor !== '0');
      const dead = Object.fromEntries(rows.map((r) => [r.relname, r.n_dead_tup]));
      samples.push({
        t: round((Date.now() - t0) / 1000, 1),
        serverRssMb: round(rssBytes(tribuna!.server.pid) / 2 ** 20, 1),
        workerRssMb: round(rssBytes(tribuna!.worker.pid) / 2 ** 20, 1),
        deadTuples: dead,
        deadTuplesTotal: rows.reduce((a, r) => a + r.n_dead_tup, 0),
        liveTuples: Object.fromEntries(rows.map((r) => [r.relname, r.n_live_tup])),
        pages: Object.fromEntries(rows.map((r) => [r.relname, r.pages])),
        autovacuums: vac?.n ?? 0,
        checkpoints: cp?.n ?? 0,
        redisUsedMb: round(used / 2 ** 20, 2),
        redisKeys: keys,
      });
    };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await sample().catch((err: Error) => log(`soak: sample failed: ${err.message}`));
        await sleep(SAMPLE_MS);
      }
    })();
    const speed = new SpeedProbe(t0);
    speed.start();
    const probes: Probe[] = [];
    const prober = (async () => {
      let previous: ProbeRow | null = null;
      while (sampling) {
        const startedAt = Date.now();
        try {
          const [row] = await probeDb!.sql<ProbeRow[]>`
            SELECT (pg_current_wal_lsn() - '0/0')::text AS wal,
              (SELECT json_object_agg(k, n) FROM (
                SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS k, count(*)::int AS n
                FROM pg_stat_activity
                WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                GROUP BY 1) AS w) AS waits,
              (SELECT wait_event FROM pg_stat_activity WHERE backend_type = 'checkpointer') AS checkpointer,
              (SELECT json_agg(left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 80)) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = 'tribuna-worker' AND state = 'active') AS worker,
              (SELECT xact_commit::text FROM pg_stat_database WHERE datname = current_database()) AS commits,
              (SELECT blks_read::text FROM pg_stat_database WHERE datname = current_database()) AS blocks_read,
              buffers_checkpoint::text, buffers_backend::text, buffers_clean::text
            FROM pg_stat_bgwriter`;
          if (row && previous) {
            const delta = (k: keyof ProbeRow) => Number(row[k]) - Number(previous![k]);
            probes.push({
              t: round((startedAt - t0) / 1000, 1),
              walBytes: delta('wal'),
              waits: row.waits ?? {},
              checkpointer: row.checkpointer,
              worker: row.worker ?? [],
              commits: delta('commits'),
              blocksRead: delta('blocks_read'),
              buffersCheckpoint: delta('buffers_checkpoint'),
              buffersBackend: delta('buffers_backend'),
              buffersClean: delta('buffers_clean'),
            });
          }
          previous = row ?? previous;
        } catch (err) {
          log(`soak: probe failed: ${(err as Error).message}`);
        }
        await sleep(Math.max(0, PROBE_MS - (Date.now() - startedAt)));
      }
    })();

    const ackedByUser = new Array<number>(fixtures.users.length).fill(0);
    const addAcks = (acks: number[] | undefined) => acks?.forEach((n, i) => (ackedByUser[i]! += n));
    let ambiguous = 0;
    const runVotes = async (durationS: number) => {
      const r = ((await votesLoad.request({ type: 'run', durationS }, 'result', durationS * 1000 + 120_000)) as unknown as { result: LoadResult }).result;
      addAcks(r.ackedByUser);
      ambiguous += r.errors ?? 0;
      return r;
    };
    const runFeed = async (kind: 'feed' | 'react', durationS: number) =>
      ((await feedLoad.request({ type: 'run', kind, durationS }, 'result', durationS * 1000 + 120_000)) as unknown as { result: LoadResult }).result;

    // Cold start, as bench/votes.ts: every fan's first vote of the day (a session read into the
    // server's cache, an award job) happens before the warm-up, so the measured minutes are the
    // steady state of an episode and the first minute is not slowed by 20,000 first votes.
    log(`soak: cold start: each of ${fixtures.users.length} users votes once`);
    const coldStartedAt = Date.now();
    while (ackedByUser.some((n) => n === 0) && Date.now() - coldStartedAt < COLD_START_LIMIT_MS) await runVotes(5);
    const coldStart = { seconds: round((Date.now() - coldStartedAt) / 1000, 1), usersWithoutVote: ackedByUser.filter((n) => n === 0).length };
    if (coldStart.usersWithoutVote > 0)
      failures.push(`cold start: ${coldStart.usersWithoutVote} users got no vote acknowledged in ${COLD_START_LIMIT_MS / 1000} s`);
    log(`soak: cold start ${JSON.stringify(coldStart)}`);

    await side.request({ type: 'posts-start', ratePerSecond: options.postsPerSecond }, 'posts-started', 10_000);
    log(`soak: warm-up ${options.warmupS} s`);
    await Promise.all([runVotes(options.warmupS), runFeed('feed', options.warmupS)]);
    const warmupPosts = (await side.request({ type: 'posts-take' }, 'posts-taken', 10_000)) as unknown as { acked: number };
    const warmupEndT = round((Date.now() - t0) / 1000, 1);

    const minutes: Record<string, unknown>[] = [];
    for (let m = 1; m <= options.minutes; m++) {
      const startT = round((Date.now() - t0) / 1000, 1);
      // Where the CPU went this minute: a minute slowed by other people's work on the machine shows
      // up as `others`, not as the product slowing down.
      const meter = new CpuMeter({
        server: () => [tribuna!.server.pid],
        worker: () => [tribuna!.worker.pid],
        postgres: postgresOf(env.name),
        postgresShared,
        redis: { comm: 'redis-server' },
        // The load processes apart (votes; feed reads and reactions; viewers and posts), summed as `load` below.
        loadVotes: () => [votesLoad.pid],
        loadFeed: () => [feedLoad.pid],
        loadSide: () => withChildren(side.pid),
        orchestrator: () => [process.pid],
      });
      meter.start();
      const [votes, feed, react] = await Promise.all([
        runVotes(60),
        runFeed('feed', options.feedShareS),
        sleep(options.feedShareS * 1000 + 200).then(() => runFeed('react', 60 - options.feedShareS - 1)),
      ]);
      const posts = (await side.request({ type: 'posts-take' }, 'posts-taken', 10_000)) as unknown as {
        acked: number;
        refused: number;
        failed: number;
        statusCounts: Record<string, number>;
        latency: Latency;
      };
      const cpuCores = meter.stop();
      cpuCores.load = round(Number(cpuCores.loadVotes) + Number(cpuCores.loadFeed) + Number(cpuCores.loadSide), 2);
      const viewers = (await side.request({ type: 'status' }, 'status', 10_000)) as Record<string, number>;
      const last = samples.at(-1);
      const row = {
        minute: m,
        startS: startT,
        votesPerSecond: round(votes.perSecond, 0),
        votesP50Ms: round(votes.latency.p50Ms, 2),
        votesP99Ms: round(votes.latency.p99Ms, 2),
        votesPerSecondBy10s: (votes.perSecondByInterval ?? []).map((r) => round(r, 0)),
        voteErrors: (votes.errors ?? 0) + (votes.non2xx ?? 0),
        feedPerSecond: round(feed.perSecond, 0),
        feedP99Ms: round(feed.latency.p99Ms, 2),
        reactPerSecond: round(react.perSecond, 0),
        reactP99Ms: round(react.latency.p99Ms, 2),
        postsAcked: posts.acked,
        postsRefused: posts.refused,
        postsFailed: posts.failed,
        postsP99Ms: round(posts.latency.p99Ms, 2),
        viewersSubscribed: viewers.subscribed,
        viewerMessages: viewers.messages,
        viewerReconnects: viewers.reconnects,
        cpuCores,
        serverRssMb: last?.serverRssMb,
        workerRssMb: last?.workerRssMb,
        deadTuplesTotal: last?.deadTuplesTotal,
        redisUsedMb: last?.redisUsedMb,
        /** CPU ms of the speed probe's unit of work this minute (median): the machine's speed, same run. */
        speedUnitCpuMs: speed.between(startT, startT + 60),
        postgres: summarizeProbes(probes, startT, startT + 60),
        postgresBy10s: Array.from({ length: 6 }, (_, i) => summarizeProbes(probes, startT + 10 * i, startT + 10 * (i + 1))),
      };
      minutes.push(row);
      log(`soak: minute ${m}: ${JSON.stringify(row)}`);
    }
    const posts = (await side.request({ type: 'posts-stop' }, 'posts-stopped', 60_000)) as unknown as { acked: number };
    sampling = false;
    await Promise.all([sampler, prober, speed.stop()]);
    const probesFile = path.join(os.tmpdir(), `tribuna_soak_probes_${process.pid}.json`);
    writeFileSync(probesFile, JSON.stringify(probes));
    log(`soak: ${probes.length} probes written to ${probesFile}`);
    const viewersFinal = (await side.request({ type: 'close' }, 'closed', 60_000)) as Record<string, number>;

    // Verdicts.
    const rate = (m: Record<string, unknown>) => Number(m.votesPerSecond);
    const p99 = (m: Record<string, unknown>) => Number(m.votesP99Ms);
    const first = minutes[0]!;
    const lastMinute = minutes.at(-1)!;
    const lastVsFirstVoteRate = round(rate(lastMinute) / rate(first), 3);
    // Steadier views of the same question (one minute against one minute is as noisy as a minute):
    // the least-squares line through every minute's rate, its end against its start; and the median
    // of the last 3 minutes against the first 3.
    const rates = minutes.map(rate);
    // A minute without a probe sample (the probe's process died) has no speed to weigh by.
    const speedKnown = first.speedUnitCpuMs != null && lastMinute.speedUnitCpuMs != null;
    const fitted = fittedEnds(rates);
    const voteRateTrend = {
      fittedLastVsFirst: round(fitted.last / fitted.first, 3),
      last3VsFirst3: round(median(rates.slice(-3)) / median(rates.slice(0, 3)), 3),
      minPerSecond: Math.min(...rates),
      maxPerSecond: Math.max(...rates),
      /**
       * The same ratio at the machine's speed of the first minute: each minute's votes/s times its
       * speed unit's CPU ms (a minute when the machine ran 10 % slower counts 10 % more votes).
       */
      lastVsFirstAtSameSpeed: speedKnown
        ? round((rate(lastMinute) * Number(lastMinute.speedUnitCpuMs)) / (rate(first) * Number(first.speedUnitCpuMs)), 3)
        : null,
      machineSpeedLastVsFirst: speedKnown ? round(Number(first.speedUnitCpuMs) / Number(lastMinute.speedUnitCpuMs), 3) : null,
      coefficientOfVariation: round(coefficientOfVariation(rates), 3),
    };
    const earlyP99 = median(minutes.slice(0, 3).map(p99));
    const lateP99 = median(minutes.slice(-3).map(p99));
    const p99Creep = round(lateP99 / earlyP99, 3);
    const afterWarmup = samples.filter((s) => s.t >= warmupEndT + 60);
    const firstAfter = afterWarmup[0] ?? samples[0]!;
    const lastSample = samples.at(-1)!;
    const firstMeasured = samples.find((s) => s.t >= warmupEndT) ?? samples[0]!;
    const serverMemoryGrowth = round(lastSample.serverRssMb / firstAfter.serverRssMb, 3);
    const workerMemoryGrowth = round(lastSample.workerRssMb / firstAfter.workerRssMb, 3);
    const half = afterWarmup.slice(Math.floor(afterWarmup.length / 2));
    const maxDead = (list: Sample[]) => Math.max(0, ...list.map((s) => s.deadTuplesTotal));
    const maxRedis = (list: Sample[]) => Math.max(0, ...list.map((s) => s.redisUsedMb));
    const firstHalf = afterWarmup.slice(0, Math.floor(afterWarmup.length / 2));
    const deadTuplesBounded = maxDead(half) <= Math.max(2 * maxDead(firstHalf), 50_000);
    const redisBounded = maxRedis(half) <= Math.max(1.25 * maxRedis(firstHalf), maxRedis(firstHalf) + 16);

    log('soak: integrity checks (acknowledged votes stored, awards landed)');
    const integrity = await checkIntegrity(env, fixtures, poll.id, ackedByUser, ambiguous);
    failures.push(...integrity.failures);
    const [storedPosts] = await monitor.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM posts WHERE content LIKE 'Soak %'`;
    const postsStored = storedPosts?.n ?? 0;
    const acknowledged = ackedByUser.reduce((a, b) => a + b, 0);

    const json: Record<string, unknown> = {
      lastVsFirstVoteRate,
      voteRateTrend,
      firstMinuteVotesPerSecond: rate(first),
      lastMinuteVotesPerSecond: rate(lastMinute),
      p99Creep,
      earlyVotesP99Ms: earlyP99,
      lateVotesP99Ms: lateP99,
      serverMemoryGrowth,
      workerMemoryGrowth,
      memoryPerMinute: minutes.map((m) => ({ minute: m.minute, serverRssMb: m.serverRssMb, workerRssMb: m.workerRssMb })),
      // Start = the first sample of minute 1 (after the cold start and the warm-up); end = the last sample.
      deadTuples: {
        start: firstMeasured.deadTuples,
        end: lastSample.deadTuples,
        startTotal: firstMeasured.deadTuplesTotal,
        endTotal: lastSample.deadTuplesTotal,
      },
      tablePages: { start: firstMeasured.pages, end: lastSample.pages },
      redis: { startUsedMb: firstMeasured.redisUsedMb, endUsedMb: lastSample.redisUsedMb, startKeys: firstMeasured.redisKeys, endKeys: lastSample.redisKeys },
      postgresSettings,
      coldStart,
      deadTuplesBounded,
      redisBounded,
      votesAcknowledged: acknowledged,
      votesStored: integrity.stored,
      awardsExpected: integrity.awardsExpected,
      awardsLanded: integrity.awardsLanded,
      postsAcknowledged: warmupPosts.acked + posts.acked + minutes.reduce((a, m) => a + Number(m.postsAcked), 0),
      postsStored,
      viewers: { connected, final: viewersFinal },
      meetsTargets: {
        lastVsFirstVoteRate: lastVsFirstVoteRate >= TARGETS.lastVsFirstVoteRate,
        p99Creep: p99Creep <= TARGETS.p99CreepMax,
        serverMemoryFlat: serverMemoryGrowth <= TARGETS.memoryGrowthMax,
        workerMemoryFlat: workerMemoryGrowth <= TARGETS.memoryGrowthMax,
        deadTuplesBounded,
        redisBounded,
      },
      targets: TARGETS,
      options,
      perMinute: minutes,
      samples,
      method: {
        load: `Closed-loop votes (autocannon, ${options.voteConnections} connections, rotating ${options.users} signed-in users as bench/votes.ts), feed reads (${options.feedConnections} connections, first pages of both sorts) for ${options.feedShareS} s of each minute and reaction toggles for the rest, open-loop text posts at ${options.postsPerSecond}/s, ${options.viewers} websocket viewers subscribed to the voted poll (bench/load/soak-side.ts; ${options.viewersClient === 'native' ? 'sockets in the C client bench/load/viewers-native.c, counting only' : 'JavaScript ws clients'}; each from its own forwarded address, reconnecting when dropped). Cold start first (every user votes once: first votes of the day, sessions cached, awards enqueued; coldStart), then a warm-up of ${options.warmupS} s, then ${options.minutes} one-minute rounds back to back; votesPerSecondBy10s splits each minute's votes in 10 s slices.`,
        verdicts: `lastVsFirstVoteRate = votes/s of the last minute / the first (target ≥ ${TARGETS.lastVsFirstVoteRate}); voteRateTrend (no target, for reading): the least-squares line through the ${options.minutes} minutes' rates, its value at the last minute / at the first, and the median of the last 3 minutes / the first 3; lastVsFirstAtSameSpeed weighs each of the two minutes' rates by the CPU time of bench/lib/speed.ts's fixed unit of work in that minute (run every 2 s in a child process of its own, in CPU time so the run queue does not count): the machine is shared, and a slower host slows every process at once (the load's own memory traffic slows the unit too); p99Creep = median votes p99 of the last 3 minutes / the first 3 (≤ ${TARGETS.p99CreepMax}); memory growth = RSS at the end / RSS a minute after the warm-up (≤ ${TARGETS.memoryGrowthMax}); dead tuples bounded = the second half's maximum of n_dead_tup summed over ${TABLES.join(', ')} is at most twice the first half's (or 50,000); Redis bounded = the second half's maximum used_memory at most 1.25× the first half's (or +16 MB).`,
        server: 'bench/lib/infra.ts startTribuna: NODE_ENV=production, the production entry points of server and worker.',
      },
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };
    const table: [string, string][] = [
      ['votes/s first minute → last minute', `${rate(first)} → ${rate(lastMinute)} (× ${lastVsFirstVoteRate}, target ≥ ${TARGETS.lastVsFirstVoteRate})`],
      [
        'votes/s trend: fitted line end / start, last 3 / first 3 minutes (medians)',
        `× ${voteRateTrend.fittedLastVsFirst}, × ${voteRateTrend.last3VsFirst3} (minutes ${voteRateTrend.minPerSecond}–${voteRateTrend.maxPerSecond}/s)`,
      ],
      [
        "machine speed last / first minute (speed probe); votes/s ratio at the first minute's speed",
        `× ${voteRateTrend.machineSpeedLastVsFirst}; × ${voteRateTrend.lastVsFirstAtSameSpeed}`,
      ],
      ['votes p99 first 3 min → last 3 min', `${earlyP99} → ${lateP99} ms (× ${p99Creep})`],
      ['server RSS after warm-up → end', `${firstAfter.serverRssMb} → ${lastSample.serverRssMb} MB (× ${serverMemoryGrowth})`],
      ['worker RSS after warm-up → end', `${firstAfter.workerRssMb} → ${lastSample.workerRssMb} MB (× ${workerMemoryGrowth})`],
      [
        'dead tuples start → end (max first half / second half)',
        `${firstMeasured.deadTuplesTotal} → ${lastSample.deadTuplesTotal} (${maxDead(firstHalf)} / ${maxDead(half)}), autovacuum ${postgresSettings.autovacuum}`,
      ],
      [
        'Redis used MB start → end (max first half / second half)',
        `${firstMeasured.redisUsedMb} → ${lastSample.redisUsedMb} (${maxRedis(firstHalf)} / ${maxRedis(half)})`,
      ],
      ['votes acknowledged / stored', `${acknowledged} / ${integrity.stored}`],
      ['posts acknowledged / stored', `${json.postsAcknowledged} / ${postsStored}`],
      ['viewers subscribed at the end', `${viewersFinal.subscribed}/${viewersFinal.viewers} (reconnects ${viewersFinal.reconnects})`],
    ];
    if (Number(json.postsAcknowledged) > postsStored) failures.push(`posts LOST: ${json.postsAcknowledged} acknowledged, ${postsStored} stored`);
    return { name: 'soak', json, table, failures };
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
    redis?.disconnect();
    await monitor?.close();
    await probeDb?.close();
    if (tribuna) await tribuna.stop();
    await destroyBenchEnv(env);
  }
}
