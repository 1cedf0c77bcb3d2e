// `npm run bench` runs every benchmark; `npm run bench -- votes`, `-- fanout`, `-- feed`, `-- reports`, `-- viral`, `-- web` or `-- push` runs one.
// Prints a short table and writes bench/results/<name>.json. Exits non-zero when an integrity
// check fails (acknowledged ≠ stored, awards missing, a viewer without the final totals).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_FANOUT_OPTIONS, runFanoutBenchmark } from './fanout.ts';
import { DEFAULT_FEED_OPTIONS, runFeedBenchmark } from './feed.ts';
import { DEFAULT_PUSH_OPTIONS, runPushBenchmark } from './push.ts';
import { BenchSetupError, checkServices } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { withProvenance } from './lib/provenance.ts';
import { killAllNow, ROOT, stopAll } from './lib/processes.ts';
import { removeWorkDir } from './lib/workdir.ts';
import { DEFAULT_REPORTS_OPTIONS, runReportsBenchmark } from './reports.ts';
import { DEFAULT_SOAK_OPTIONS, runSoakBenchmark } from './soak.ts';
import { DEFAULT_VIRAL_OPTIONS, runViralBenchmark } from './viral.ts';
import { DEFAULT_VOTES_OPTIONS, runVotesBenchmark, type BenchOutcome } from './votes.ts';
import { DEFAULT_WEB_OPTIONS, runWebBenchmark } from './web.ts';

/** Optional overrides for quick local runs (the committed figures use the defaults). */
function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const BENCHMARKS: Record<string, () => Promise<BenchOutcome>> = {
  votes: () =>
    runVotesBenchmark({
      ...DEFAULT_VOTES_OPTIONS,
      rounds: envNumber('BENCH_ROUNDS') ?? DEFAULT_VOTES_OPTIONS.rounds,
      durationS: envNumber('BENCH_DURATION_S') ?? DEFAULT_VOTES_OPTIONS.durationS,
    }),
  fanout: () =>
    runFanoutBenchmark({
      ...DEFAULT_FANOUT_OPTIONS,
      viewers: envNumber('BENCH_VIEWERS') ?? DEFAULT_FANOUT_OPTIONS.viewers,
      durationS: envNumber('BENCH_DURATION_S') ?? DEFAULT_FANOUT_OPTIONS.durationS,
    }),
  feed: () =>
    runFeedBenchmark({
      ...DEFAULT_FEED_OPTIONS,
      rounds: envNumber('BENCH_ROUNDS') ?? DEFAULT_FEED_OPTIONS.rounds,
      durationS: envNumber('BENCH_DURATION_S') ?? DEFAULT_FEED_OPTIONS.durationS,
    }),
  reports: () => {
    // BENCH_SCALE (e.g. 0.1) shrinks the data for a quick local try; the committed figures use the defaults.
    const scale = envNumber('BENCH_SCALE') ?? 1;
    const d = DEFAULT_REPORTS_OPTIONS;
    return runReportsBenchmark({
      ...d,
      users: Math.round(d.users * scale),
      votes: Math.round(d.votes * scale),
      pageViews: Math.round(d.pageViews * scale),
      rounds: envNumber('BENCH_ROUNDS') ?? d.rounds,
      fullRounds: envNumber('BENCH_ROUNDS') ?? d.fullRounds,
    });
  },
  // BENCH_VIRAL_REACTIONS seeds fewer than 1,000,000 reactions for a quick local try; BENCH_TAPS_PER_SECOND changes the offered rate.
  viral: () =>
    runViralBenchmark({
      ...DEFAULT_VIRAL_OPTIONS,
      viralReactions: envNumber('BENCH_VIRAL_REACTIONS') ?? DEFAULT_VIRAL_OPTIONS.viralReactions,
      viewers: envNumber('BENCH_VIEWERS') ?? DEFAULT_VIRAL_OPTIONS.viewers,
      durationS: envNumber('BENCH_DURATION_S') ?? DEFAULT_VIRAL_OPTIONS.durationS,
      tapsPerSecond: envNumber('BENCH_TAPS_PER_SECOND') ?? DEFAULT_VIRAL_OPTIONS.tapsPerSecond,
    }),
  // Not part of a plain `npm run bench` (15 minutes): `npm run bench -- soak`; BENCH_MINUTES, BENCH_VIEWERS and BENCH_WARMUP_S shorten it for a try.
  soak: () =>
    runSoakBenchmark({
      ...DEFAULT_SOAK_OPTIONS,
      minutes: envNumber('BENCH_MINUTES') ?? DEFAULT_SOAK_OPTIONS.minutes,
      viewers: envNumber('BENCH_VIEWERS') ?? DEFAULT_SOAK_OPTIONS.viewers,
      warmupS: envNumber('BENCH_WARMUP_S') ?? DEFAULT_SOAK_OPTIONS.warmupS,
    }),
  web: () => runWebBenchmark({ ...DEFAULT_WEB_OPTIONS, runs: envNumber('BENCH_RUNS') ?? DEFAULT_WEB_OPTIONS.runs }),
  // BENCH_SUBSCRIPTIONS (e.g. 5000) broadcasts to fewer devices for a quick local try; the committed figures use 100,000.
  push: () =>
    runPushBenchmark({
      ...DEFAULT_PUSH_OPTIONS,
      subscriptions: envNumber('BENCH_SUBSCRIPTIONS') ?? DEFAULT_PUSH_OPTIONS.subscriptions,
      sliceS: envNumber('BENCH_DURATION_S') ?? DEFAULT_PUSH_OPTIONS.sliceS,
    }),
};

const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

function selected(): string[] {
  const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (names.length === 0) return Object.keys(BENCHMARKS).filter((name) => name !== 'soak');
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) {
    process.stderr.write(`Unknown benchmark ${unknown.join(', ')}; choose from: ${Object.keys(BENCHMARKS).join(', ')}\n`);
    process.exit(2);
  }
  return names;
}

function printTable(outcome: BenchOutcome): void {
  const width = Math.max(...outcome.table.map(([k]) => k.length));
  process.stdout.write(`\n${outcome.name}\n${'-'.repeat(width + 20)}\n`);
  for (const [k, v] of outcome.table) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
  if (outcome.failures.length) {
    process.stdout.write(`INTEGRITY FAILURES:\n${outcome.failures.map((f) => `  ✗ ${f}`).join('\n')}\n`);
  }
}

let cleaningUp = false;
async function cleanupAndExit(code: number): Promise<never> {
  if (!cleaningUp) {
    cleaningUp = true;
    await stopAll(5000).catch(() => {});
    removeWorkDir();
  }
  process.exit(code);
}

process.on('exit', () => {
  killAllNow();
  removeWorkDir();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping every child process`);
    void cleanupAndExit(130);
  });
}

/**
 * Figures defined against the vote rate of the same `npm run bench` (bench/README.md):
 * `reactionsVsVotes` = the feed's reaction toggles/s ÷ votes/s, when votes ran earlier in this run
 * (a plain run, or `npm run bench -- votes feed`); null otherwise, never another run's vote rate.
 */
function relateToVotes(outcome: BenchOutcome, earlier: BenchOutcome[]): void {
  if (outcome.name !== 'feed') return;
  const votes = earlier.find((o) => o.name === 'votes')?.json.votesPerSecond;
  const reactions = outcome.json.reactionsPerSecond;
  const ratio = typeof votes === 'number' && votes > 0 && typeof reactions === 'number' ? Math.round((reactions / votes) * 1000) / 1000 : null;
  outcome.json.reactionsVsVotes = ratio;
  outcome.json.votesPerSecondSameRun = typeof votes === 'number' ? votes : null;
  outcome.table.push(['reaction toggles/s ÷ votes/s (same run)', ratio === null ? 'n/a (votes not run before feed)' : `${ratio} (${reactions} / ${votes})`]);
}

async function main(): Promise<void> {
  const names = selected();
  await checkServices();
  mkdirSync(RESULTS_DIR, { recursive: true });
  const outcomes: BenchOutcome[] = [];
  let failed = false;
  for (const name of names) {
    log(`▶ ${name}`);
    try {
      const outcome = await BENCHMARKS[name]!();
      relateToVotes(outcome, outcomes);
      outcomes.push(outcome);
      const file = path.join(RESULTS_DIR, `${name}.json`);
      writeFileSync(file, `${JSON.stringify(withProvenance(outcome.json), null, 2)}\n`);
      log(`${name}: wrote ${path.relative(ROOT, file)}`);
      if (outcome.failures.length) failed = true;
    } catch (err) {
      failed = true;
      log(`${name} FAILED: ${(err as Error).stack ?? String(err)}`);
      await stopAll(5000);
    }
  }
  for (const outcome of outcomes) printTable(outcome);
  if (failed) {
    process.stdout.write('\nBENCHMARK FAILED (see above)\n');
    await cleanupAndExit(1);
  }
  await cleanupAndExit(0);
}

main().catch(async (err) => {
  if (err instanceof BenchSetupError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  await cleanupAndExit(1);
});
