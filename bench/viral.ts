// Viral-post benchmark (viral.json): one post with 1,000,000 reactions and one with 10, the same
// signed-in fans tapping each in turn at one fixed open-loop rate (bench/load/viral-taps.ts, its own
// process), while 10,000 anonymous viewers of the viral post (the C client, bench/load/viewers-native.c,
// subscribed to `post:<id>`) receive its paced reaction counts. Reports the taps/s and the p99 from
// due time on each post, the reaction frames each viewer received per second during the tapping,
// and whether every viewer's last counts equal the database's after the taps stopped.
import path from 'node:path';
import { REACTION_TYPES } from '@tribuna/contracts/wallRules';
import { createDatabase } from '@tribuna/drizzle/client';
import { POST_REACTIONS_PER_SECOND } from '../server/src/wall/topics.ts';
import { CpuMeter, postgresOf, postgresShared } from './lib/cpu.ts';
import { createFixtures, type BenchUser } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type BenchEnv, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { machineInfo } from './lib/machine.ts';
import { NativeViewersProcess, readNativeDump } from './lib/nativeViewers.ts';
import { sleep, spawnTs, type BenchChild } from './lib/processes.ts';
import { sessionCookie } from './lib/sessionCookie.ts';
import type { LatencySummary } from './lib/stats.ts';
import { median, round } from './lib/stats.ts';
import { paramsFile, WORK_DIR } from './lib/workdir.ts';
import type { BenchOutcome } from './votes.ts';

export interface ViralOptions {
  /** Reactions seeded on the viral post (each by its own seeded profile). */
  viralReactions: number;
  quietReactions: number;
  viewers: number;
  /** Signed-in fans tapping, each in turn on the viral and the quiet post. */
  fans: number;
  /** Taps per second in all, half on each post (open loop). */
  tapsPerSecond: number;
  durationS: number;
  warmupS: number;
  connectBatch: number;
}

export const DEFAULT_VIRAL_OPTIONS: ViralOptions = {
  viralReactions: 1_000_000,
  quietReactions: 10,
  viewers: 10_000,
  fans: 200,
  tapsPerSecond: 200,
  durationS: 30,
  warmupS: 5,
  connectBatch: 500,
};

const TARGETS = { viralVsQuietRatio: 0.9, tapP99Ms: 100, framesPerViewerPerSecond: 10, finalCountsExact: true };
/** The server's pacing of a post's reaction counts (server/src/wall/topics.ts): 250 ms. */
const CADENCE_MS = 1000 / POST_REACTIONS_PER_SECOND;
/** Viewers have settled once none received anything for this long (2× the cadence). */
const SETTLE_QUIET_MS = 2 * CADENCE_MS;
const SETTLE_LIMIT_MS = 60_000;
/** wall.react allows 30 taps per 15 s per user (server/src/http/rateLimits.ts); stay well under it. */
const MAX_TAPS_PER_FAN_PER_SECOND = 1.5;
/** Fans who keep frames flowing while the viewers subscribe (a viewer is subscribed at its first frame). */
const PRIMERS = 10;
const PRIME_EVERY_MS = 200;

type Counts = Record<string, number>;

interface TargetResult {
  acknowledged: number;
  windowMs: number;
  perSecond: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  latencyFromDue: LatencySummary;
  latencyFromSend: LatencySummary;
}

interface TapRun {
  ratePerSecond: number;
  durationS: number;
  scheduled: number;
  startedAtEpochMs: number;
  viral: TargetResult;
  quiet: TargetResult;
  errorSamples: string[];
  abandoned: number;
  maxInFlight: number;
  maxSchedulerLagMs: number;
}

export async function runViralBenchmark(options: ViralOptions = DEFAULT_VIRAL_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  const perFan = options.tapsPerSecond / options.fans;
  if (perFan > MAX_TAPS_PER_FAN_PER_SECOND) {
    throw new Error(
      `viral: ${options.tapsPerSecond} taps/s over ${options.fans} fans is ${perFan}/s per fan, over the ${MAX_TAPS_PER_FAN_PER_SECOND}/s kept under the per-user limit: add fans`,
    );
  }
  log(`viral: creating the bench database, ${options.fans} fans and ${PRIMERS} primers with sessions`);
  const env = await createBenchEnv('_viral');
  let tribuna: Tribuna | null = null;
  let viewers: NativeViewersProcess | null = null;
  const children: BenchChild[] = [];
  try {
    const fixtures = await createFixtures(env.databaseUrl, options.fans + PRIMERS + 1, {
      unused: { title: 'Benchmark: viral (unused poll)', maxPointsPerUser: 1, dailyReset: false, options: 2 },
    });
    const fans = fixtures.users.slice(0, options.fans);
    const primers = fixtures.users.slice(options.fans, options.fans + PRIMERS);
    const author = fixtures.users.at(-1)!;
    log(`viral: seeding ${options.viralReactions} reactions on the viral post and ${options.quietReactions} on the quiet one`);
    const seed = await seedPosts(env, author.id, options);
    log(`viral: seeded in ${seed.seconds} s ${JSON.stringify(seed.steps)}; counters ${seed.countersExact ? 'exact' : 'WRONG'}`);
    if (!seed.countersExact) failures.push(`seed: post_reaction_counts differ from post_reactions after seeding ${JSON.stringify(seed.check)}`);

    tribuna = await startTribuna(env);
    log(`viral: server pid ${tribuna.server.pid} on ${tribuna.baseUrl}`);
    const { baseUrl } = tribuna;

    const taps = spawnTs(
      'viral-taps',
      'bench/load/viral-taps.ts',
      [
        paramsFile('viral-taps', {
          baseUrl,
          postIds: [seed.viralPostId, seed.quietPostId],
          fans: fans.map((f) => ({ token: f.token, address: f.address })),
          maxSockets: 256,
        }),
      ],
      { ipc: true },
    );
    children.push(taps);
    await taps.next('ready', 30_000);

    // Viewers: anonymous sockets on post:<viral>, each subscribed at its first message naming the
    // topic (the counts sent on subscribing); a few primer fans tap the viral post while they
    // connect, so a server that sent nothing on subscribing would still be seen to deliver.
    viewers = NativeViewersProcess.start(WORK_DIR, {
      url: `${baseUrl.replace(/^http/, 'ws')}/ws`,
      origin: tribuna.publicUrl,
      viewers: options.viewers,
      batchSize: options.connectBatch,
      protocol: 'tribuna',
      pollId: `post:${seed.viralPostId}`,
    });
    const priming = prime(baseUrl, seed.viralPostId, primers);
    const connected = (await viewers.request('connect')) as { viewers: number; open: number; subscribed: number; ms: number; errors: string[] };
    const primed = await priming.stop();
    log(
      `viral: ${connected.subscribed}/${connected.viewers} viewers subscribed in ${connected.ms} ms (${primed.taps} primer taps ${JSON.stringify(primed.statusCounts)})`,
    );
    if (connected.subscribed < options.viewers)
      failures.push(`viewers: only ${connected.subscribed} of ${options.viewers} subscribed (errors: ${connected.errors.join('; ')})`);
    await settle(viewers, 0);

    const run = async (durationS: number) =>
      (
        (await taps.request({ type: 'run', ratePerSecond: options.tapsPerSecond, durationS }, 'result', durationS * 1000 + 120_000)) as unknown as {
          result: TapRun;
        }
      ).result;
    log(`viral: warm-up ${options.warmupS} s at ${options.tapsPerSecond} taps/s (not reported)`);
    const warmup = await run(options.warmupS);
    await settle(viewers, 0);

    await viewers.request('reset');
    log(`viral: ${options.tapsPerSecond} taps/s (half on each post) for ${options.durationS} s, ${connected.subscribed} viewers of the viral post`);
    const cpu = new CpuMeter({
      server: () => [tribuna!.server.pid],
      worker: () => [tribuna!.worker.pid],
      postgres: postgresOf(env.name),
      postgresShared,
      redis: { comm: 'redis-server' },
      taps: () => [taps.pid],
      viewers: () => [viewers!.pid],
    });
    cpu.start();
    const measured = await run(options.durationS);
    const tapsEndedAt = Date.now();
    const settled = await settle(viewers, tapsEndedAt);
    const cpuCores = cpu.stop();
    log(
      `viral: viral ${round(measured.viral.perSecond, 1)}/s p99 ${measured.viral.latencyFromDue.p99Ms} ms, quiet ${round(measured.quiet.perSecond, 1)}/s p99 ${measured.quiet.latencyFromDue.p99Ms} ms; viewers ${settled.quiet ? `quiet after ${settled.ms} ms` : 'NOT quiet'}`,
    );

    // The database's counts, after the taps and the settle wait.
    const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-viral-check' });
    let dbCounts: Counts;
    let counterCounts: Counts;
    let stored: Map<string, string>;
    try {
      dbCounts = countsOf(
        await database.sql<
          { t: string; n: number }[]
        >`SELECT reaction_type AS t, count(*)::int AS n FROM post_reactions WHERE post_id = ${seed.viralPostId} GROUP BY 1`,
      );
      counterCounts = countsOf(
        await database.sql<
          { t: string; n: number }[]
        >`SELECT reaction_type AS t, sum(reactions)::int AS n FROM post_reaction_counts WHERE post_id = ${seed.viralPostId} GROUP BY 1`,
      );
      const rows = await database.sql<{ post_id: string; user_id: string; reaction_type: string }[]>`
        SELECT post_id, user_id, reaction_type FROM post_reactions
        WHERE post_id IN (${seed.viralPostId}, ${seed.quietPostId}) AND user_id IN ${database.sql(fans.map((f) => f.id))}`;
      stored = new Map(rows.map((r) => [`${r.user_id} ${r.post_id}`, r.reaction_type]));
    } finally {
      await database.close();
    }

    // Viewers: frames during the tapping, and each one's last counts.
    const frames = await analyzeViewers(viewers, seed.viralPostId, measured.startedAtEpochMs, measured.startedAtEpochMs + options.durationS * 1000, dbCounts);
    const integrity = await checkTaps(taps, fans, seed, stored);
    failures.push(...integrity.failures);

    const viralTapsPerSecond = round(measured.viral.perSecond, 1);
    const quietTapsPerSecond = round(measured.quiet.perSecond, 1);
    const viralVsQuietRatio = round(measured.viral.perSecond / measured.quiet.perSecond, 3);
    const viralTapP99Ms = round(measured.viral.latencyFromDue.p99Ms, 1);
    const quietTapP99Ms = round(measured.quiet.latencyFromDue.p99Ms, 1);
    const finalCountsExact = frames.matched === options.viewers;
    if (!finalCountsExact) {
      failures.push(
        `viewers: ${options.viewers - frames.matched} of ${options.viewers} viewers' last counts differ from the database's ${JSON.stringify(dbCounts)} (e.g. ${frames.mismatchSamples[0] ?? 'no frame'})`,
      );
    }
    const countersExact = REACTION_TYPES.every((t) => (counterCounts[t] ?? 0) === (dbCounts[t] ?? 0));
    if (!countersExact)
      failures.push(`counters: post_reaction_counts ${JSON.stringify(counterCounts)} ≠ post_reactions ${JSON.stringify(dbCounts)} after the run`);
    const refused = (r: TargetResult) => Object.values(r.statusCounts).reduce((a, b) => a + b, 0);
    for (const target of ['viral', 'quiet'] as const) {
      const r = measured[target];
      if (r.statusCounts['429']) failures.push(`${target}: ${r.statusCounts['429']} taps refused with 429 (rate limited: not capacity)`);
    }

    const json: Record<string, unknown> = {
      viralTapsPerSecond,
      quietTapsPerSecond,
      viralVsQuietRatio,
      viralTapP99Ms,
      quietTapP99Ms,
      framesPerViewerPerSecond: { max: frames.maxPerSecond, median: frames.medianPerSecond },
      finalCountsExact,
      viewersMatchingFinalCounts: frames.matched,
      viewers: options.viewers,
      viewersSubscribed: connected.subscribed,
      acknowledgedMatchStored: integrity.ok,
      tapsPerSecondOffered: options.tapsPerSecond,
      durationS: options.durationS,
      warmupS: options.warmupS,
      fans: options.fans,
      viralReactionsSeeded: options.viralReactions,
      quietReactionsSeeded: options.quietReactions,
      viral: { ...measured.viral, refused: refused(measured.viral) },
      quiet: { ...measured.quiet, refused: refused(measured.quiet) },
      tapsScheduled: measured.scheduled,
      tapsAbandoned: measured.abandoned,
      tapErrorSamples: measured.errorSamples,
      tapperMaxInFlight: measured.maxInFlight,
      tapperMaxSchedulerLagMs: round(measured.maxSchedulerLagMs, 1),
      warmup: {
        viral: round(warmup.viral.perSecond, 1),
        quiet: round(warmup.quiet.perSecond, 1),
        viralP99Ms: warmup.viral.latencyFromDue.p99Ms,
        quietP99Ms: warmup.quiet.latencyFromDue.p99Ms,
      },
      frames: {
        windowMs: options.durationS * 1000,
        totalInWindow: frames.totalInWindow,
        minPerSecond: frames.minPerSecond,
        viewersWithoutFrame: frames.withoutFrame,
        otherMessageTypes: frames.otherTypes,
        maxGapMsAtViewer: frames.maxGapMs,
      },
      databaseCounts: dbCounts,
      countersAfterRun: counterCounts,
      countersExact,
      settle: settled,
      integrity: { keysChecked: integrity.checked, mismatches: integrity.mismatches, ambiguous: integrity.ambiguous, samples: integrity.samples },
      connect: { ms: connected.ms, open: connected.open, errors: connected.errors, primerTaps: primed.taps, primerStatusCounts: primed.statusCounts },
      seed: { seconds: seed.seconds, steps: seed.steps, countersExact: seed.countersExact },
      cpuCores,
      targets: TARGETS,
      meetsTargets: {
        viralVsQuietRatio: viralVsQuietRatio >= TARGETS.viralVsQuietRatio,
        viralTapP99Ms: viralTapP99Ms < TARGETS.tapP99Ms,
        quietTapP99Ms: quietTapP99Ms < TARGETS.tapP99Ms,
        framesPerViewerPerSecond: frames.maxPerSecond <= TARGETS.framesPerViewerPerSecond,
        finalCountsExact,
      },
      method: {
        seed: 'The viral post gets viralReactions rows in post_reactions, each by its own profile, and the quiet post quietReactions: profiles inserted with generate_series in one INSERT … RETURNING feeding the reactions INSERT (types spread over the six); post_reaction_counts is filled by its statement triggers and checked against post_reactions afterwards; VACUUM ANALYZE.',
        taps: `bench/load/viral-taps.ts, its own process: open loop at tapsPerSecond, tap k due at start + k/tapsPerSecond, on the viral post for even k and the quiet one for odd k, by fan ⌊k/2⌋ mod fans (so every fan taps viral then quiet, in turn, ${round(perFan / 2, 2)} taps/s on each post: under wall.react's 30 per 15 s); a fan's consecutive types on one post differ, so every tap changes the counts. Keep-alive agent, 256 sockets. Taps/s on a post = its 200 answers / (first due time → its last answer); p99 from each tap's due time (no coordinated omission). A ${options.warmupS} s warm-up at the same rate is not reported.`,
        frames: `The C client (bench/load/viewers-native.c) holds ${options.viewers} anonymous sockets subscribed to post:<viral id>; a viewer counts as subscribed at its first message naming the topic (the counts sent on subscribing; primer fans also tap the viral post while they connect). framesPerViewerPerSecond: each viewer's post-reactions messages received between the first tap's due time and durationS later, ÷ durationS; max and median over viewers.`,
        finalCounts: `After the last tap was answered, wait until no viewer received anything for ${SETTLE_QUIET_MS} ms (2× the ${CADENCE_MS} ms cadence; bounded by ${SETTLE_LIMIT_MS / 1000} s), then read SELECT reaction_type, count(*) FROM post_reactions WHERE post_id = <viral> GROUP BY 1; a viewer matches when the reactions object of its last post-reactions message equals it for all six types.`,
        integrity:
          'acknowledgedMatchStored: for every (fan, post) with an acknowledged tap, post_reactions holds the myReaction of its latest acknowledged tap (none: no row); pairs with a later tap that got no answer (socket error, timeout, abandoned) are counted as ambiguous and not compared.',
      },
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };
    const table: [string, string][] = [
      ['viral taps/s / p99 ms (from due)', `${viralTapsPerSecond} / ${viralTapP99Ms}`],
      ['quiet taps/s / p99 ms (from due)', `${quietTapsPerSecond} / ${quietTapP99Ms}`],
      [`viral ÷ quiet taps/s (target ≥ ${TARGETS.viralVsQuietRatio})`, `${viralVsQuietRatio}`],
      ['offered taps/s (half on each post)', `${options.tapsPerSecond}`],
      ['taps refused viral / quiet', `${JSON.stringify(measured.viral.statusCounts)} / ${JSON.stringify(measured.quiet.statusCounts)}`],
      [`frames per viewer per second max / median (target ≤ ${TARGETS.framesPerViewerPerSecond})`, `${frames.maxPerSecond} / ${frames.medianPerSecond}`],
      ['viewers with the final counts', `${frames.matched} / ${options.viewers} (${finalCountsExact ? 'exact' : 'NOT exact'})`],
      [
        'acknowledged = stored ((fan, post) pairs checked / mismatched / ambiguous)',
        `${integrity.ok} (${integrity.checked} / ${integrity.mismatches} / ${integrity.ambiguous})`,
      ],
      ['viral post reactions (database)', `${Object.values(dbCounts).reduce((a, b) => a + b, 0)}`],
      ['seed seconds', `${seed.seconds}`],
    ];
    return { name: 'viral', json, table, failures };
  } finally {
    if (viewers) await viewers.request('close').catch(() => {});
    await Promise.allSettled(children.map((c) => c.stop()));
    if (tribuna) await tribuna.stop();
    await destroyBenchEnv(env);
  }
}

function countsOf(rows: { t: string; n: number }[]): Counts {
  return Object.fromEntries(REACTION_TYPES.map((t) => [t, rows.find((r) => r.t === t)?.n ?? 0]));
}

interface Seeded {
  viralPostId: string;
  quietPostId: string;
  seconds: number;
  steps: Record<string, number>;
  countersExact: boolean;
  check: Record<string, { stored: Counts; counters: Counts }>;
}

/** The two posts and their reactions, set-based; then the counters checked against the rows. */
async function seedPosts(env: BenchEnv, authorId: string, options: ViralOptions): Promise<Seeded> {
  const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-viral-seed' });
  const { sql } = database;
  const steps: Record<string, number> = {};
  const started = performance.now();
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await work();
    steps[name] = round((performance.now() - t) / 1000, 1);
    return result;
  };
  try {
    const [viral, quiet] = await step(
      'posts',
      () =>
        sql<{ id: string }[]>`
        INSERT INTO posts (user_id, content, visibility)
        VALUES (${authorId}, '¡La gala de esta noche rompió todo! 🔥', 'public'), (${authorId}, 'Una publicación tranquila', 'public')
        RETURNING id`,
    );
    const types = JSON.stringify(REACTION_TYPES);
    // One statement per post: the reacting profiles inserted and their reactions written from the RETURNING.
    const reactions = (postId: string, n: number) => sql`
      WITH fans AS (
        INSERT INTO profiles (display_name) SELECT NULL FROM generate_series(1, ${n}::int) RETURNING id
      ), numbered AS (SELECT id, row_number() OVER () AS i FROM fans)
      INSERT INTO post_reactions (post_id, user_id, reaction_type)
      SELECT ${postId}::uuid, id, (SELECT array_agg(x) FROM json_array_elements_text(${types}::json) x)[1 + ((i * 7 + i / 3) % 6)::int]
      FROM numbered`;
    await step('viralReactions', () => reactions(viral!.id, options.viralReactions));
    await step('quietReactions', () => reactions(quiet!.id, options.quietReactions));
    await step('vacuumAnalyze', () => sql`VACUUM ANALYZE`);
    const check: Seeded['check'] = {};
    let countersExact = true;
    for (const [name, id, expected] of [
      ['viral', viral!.id, options.viralReactions],
      ['quiet', quiet!.id, options.quietReactions],
    ] as const) {
      const stored = countsOf(
        await sql<{ t: string; n: number }[]>`SELECT reaction_type AS t, count(*)::int AS n FROM post_reactions WHERE post_id = ${id} GROUP BY 1`,
      );
      const counters = countsOf(
        await sql<{ t: string; n: number }[]>`SELECT reaction_type AS t, sum(reactions)::int AS n FROM post_reaction_counts WHERE post_id = ${id} GROUP BY 1`,
      );
      check[name] = { stored, counters };
      const total = Object.values(stored).reduce((a, b) => a + b, 0);
      if (total !== expected || REACTION_TYPES.some((t) => stored[t] !== counters[t])) countersExact = false;
    }
    return { viralPostId: viral!.id, quietPostId: quiet!.id, seconds: round((performance.now() - started) / 1000, 1), steps, countersExact, check };
  } finally {
    await database.close();
  }
}

/** Primer fans tap the viral post every PRIME_EVERY_MS (rotating, each far under its limit) until stopped. */
function prime(baseUrl: string, postId: string, primers: BenchUser[]): { stop(): Promise<{ taps: number; statusCounts: Record<string, number> }> } {
  let running = true;
  let taps = 0;
  const statusCounts: Record<string, number> = {};
  const loop = (async () => {
    for (let k = 0; running; k++) {
      const fan = primers[k % primers.length]!;
      const type = REACTION_TYPES[Math.floor(k / primers.length) % REACTION_TYPES.length]!;
      try {
        const res = await fetch(`${baseUrl}/api/posts/${postId}/reactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'tribuna', cookie: sessionCookie(fan.token), 'x-forwarded-for': fan.address },
          body: JSON.stringify({ type }),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
      } catch (err) {
        statusCounts[(err as Error).name] = (statusCounts[(err as Error).name] ?? 0) + 1;
      }
      taps++;
      await sleep(PRIME_EVERY_MS);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { taps, statusCounts };
    },
  };
}

/**
 * Waits until no viewer received anything for SETTLE_QUIET_MS and `since` (e.g. the last tap's
 * answer) is as old, bounded by SETTLE_LIMIT_MS.
 */
async function settle(viewers: NativeViewersProcess, since: number): Promise<{ quiet: boolean; ms: number }> {
  const started = Date.now();
  for (;;) {
    const s = (await viewers.request('status')) as { lastMessageAt: number; now: number };
    if (s.now - s.lastMessageAt >= SETTLE_QUIET_MS && Date.now() - since >= SETTLE_QUIET_MS) return { quiet: true, ms: Date.now() - started };
    if (Date.now() - started > SETTLE_LIMIT_MS) {
      log(`viral: viewers still receiving after ${SETTLE_LIMIT_MS / 1000} s; analysing anyway`);
      return { quiet: false, ms: Date.now() - started };
    }
    await sleep(CADENCE_MS / 2);
  }
}

function parseMessage(text: string): { type?: string; postId?: string; reactions?: Counts } | null {
  try {
    return JSON.parse(text) as { type?: string; postId?: string; reactions?: Counts };
  } catch {
    return null;
  }
}

interface FramesAnalysis {
  maxPerSecond: number;
  medianPerSecond: number;
  minPerSecond: number;
  totalInWindow: number;
  withoutFrame: number;
  matched: number;
  mismatchSamples: string[];
  otherTypes: Record<string, number>;
  /** The longest time a viewer went without a frame during the window, ms. */
  maxGapMs: number;
}

/**
 * Reads the C client's dump (format at the top of viewers-native.c): per viewer, its post-reactions
 * frames received in [from, to] and whether its last one carries `final`.
 */
async function analyzeViewers(viewers: NativeViewersProcess, postId: string, from: number, to: number, final: Counts): Promise<FramesAnalysis> {
  const file = path.join(WORK_DIR, 'viewers-native-viral.dump');
  const reply = await viewers.request(`dump ${file}`);
  if (reply.type !== 'dumped') throw new Error(String(reply.message));
  const otherTypes: Record<string, number> = {};
  // Per distinct payload: whether it is a post-reactions frame of the post, and whether it carries the final counts.
  const kinds: { frame: boolean; final: boolean; text: string }[] = [];
  const perSecond: number[] = [];
  let withoutFrame = 0;
  let matched = 0;
  let totalInWindow = 0;
  let maxGapMs = 0;
  const mismatchSamples: string[] = [];
  const windowS = (to - from) / 1000;
  // The viewer being read: its frames in the window, its last frame, its previous frame's receipt.
  let inWindow = 0;
  let last = -1;
  let previousAt = from;
  let viewersRead = 0;
  const endViewer = () => {
    totalInWindow += inWindow;
    perSecond.push(inWindow / windowS);
    if (last < 0) withoutFrame++;
    else if (kinds[last]!.final) matched++;
    else if (mismatchSamples.length < 3) mismatchSamples.push(kinds[last]!.text);
  };
  readNativeDump(file, {
    payload: (text) => {
      const message = parseMessage(text);
      const frame = message?.type === 'post-reactions' && message.postId === postId;
      if (!frame) otherTypes[String(message?.type)] = (otherTypes[String(message?.type)] ?? 0) + 1;
      kinds.push({ frame, final: frame && REACTION_TYPES.every((t) => (message!.reactions?.[t] ?? 0) === final[t]), text: text.slice(0, 300) });
    },
    viewer: () => {
      if (viewersRead++ > 0) endViewer();
      inWindow = 0;
      last = -1;
      previousAt = from;
    },
    record: (_viewer, payload, receivedAt) => {
      if (!kinds[payload]!.frame) return;
      last = payload;
      if (receivedAt >= from && receivedAt <= to) {
        inWindow++;
        maxGapMs = Math.max(maxGapMs, receivedAt - previousAt);
        previousAt = receivedAt;
      }
    },
  });
  if (viewersRead > 0) endViewer();
  return {
    maxPerSecond: round(Math.max(...perSecond), 2),
    medianPerSecond: round(median(perSecond), 2),
    minPerSecond: round(Math.min(...perSecond), 2),
    totalInWindow,
    withoutFrame,
    matched,
    mismatchSamples,
    otherTypes,
    maxGapMs: round(maxGapMs, 0),
  };
}

/** acknowledged = stored: every (fan, post) holds the reaction its latest acknowledged tap answered. */
async function checkTaps(
  taps: BenchChild,
  fans: BenchUser[],
  seed: Seeded,
  stored: Map<string, string>,
): Promise<{ ok: boolean; checked: number; mismatches: number; ambiguous: number; samples: string[]; failures: string[] }> {
  const reply = (await taps.request({ type: 'state' }, 'state', 60_000)) as unknown as {
    state: { fan: number; target: 'viral' | 'quiet'; reaction: string | null; acknowledged: boolean; ambiguous: boolean }[];
  };
  let checked = 0;
  let ambiguous = 0;
  const mismatched: string[] = [];
  for (const s of reply.state) {
    if (s.ambiguous) {
      ambiguous++;
      continue;
    }
    if (!s.acknowledged) continue;
    checked++;
    const postId = s.target === 'viral' ? seed.viralPostId : seed.quietPostId;
    const got = stored.get(`${fans[s.fan]!.id} ${postId}`) ?? null;
    if (got !== s.reaction) mismatched.push(`fan ${s.fan} on ${s.target}: answered ${s.reaction}, stored ${got}`);
  }
  const failures = mismatched.length
    ? [`acknowledged ≠ stored: ${mismatched.length} of ${checked} (fan, post) pairs (e.g. ${mismatched.slice(0, 3).join('; ')})`]
    : [];
  if (checked === 0) failures.push('acknowledged = stored: no acknowledged tap to check');
  return { ok: failures.length === 0, checked, mismatches: mismatched.length, ambiguous, samples: mismatched.slice(0, 5), failures };
}
