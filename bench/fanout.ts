// Live fan-out benchmark (fanout.json). One viewers process holds 10,000 websocket viewers of one
// poll; the phases run one server at a time:
//   A. Tribuna, vote-to-screen: real votes at 1,000/s through the real server (open loop).
//   B. Tribuna's hub alone: snapshots published at a fixed cadence through the live module's path.
//   C. Socket.IO 4 + Redis adapter relaying the same kind of snapshots at the same cadence.
//   D. A bare `ws` server sending one pre-serialized buffer to every socket (the ceiling).
import { Redis } from 'ioredis';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { PollVotesEvent } from '@tribuna/contracts/live';
import { channelName } from '@tribuna/contracts/live';
import { busChannel, type BusEnvelope } from '@tribuna/contracts/events';
import { freePort } from '../scripts/infra.ts';
import { CpuMeter, postgresOf, postgresShared, withChildren } from './lib/cpu.ts';
import { viewersClientFromEnv } from './lib/nativeViewers.ts';
import { createFixtures, type BenchPoll, type Fixtures } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type BenchEnv, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { measureUntilQuiet } from './lib/steal.ts';
import { machineInfo } from './lib/machine.ts';
import { rssBytes, sleep, spawnTs, type BenchChild } from './lib/processes.ts';
import { totalsSignature } from './lib/signature.ts';
import type { LatencySummary } from './lib/stats.ts';
import { round } from './lib/stats.ts';
import { paramsFile } from './lib/workdir.ts';
import type { BenchOutcome } from './votes.ts';

export interface FanoutOptions {
  viewers: number;
  durationS: number;
  votesPerSecond: number;
  /** Snapshots per second of the hub-alone and comparison runs. */
  publishPerSecond: number;
  /** A second, lighter cadence (that the comparison servers can sustain here), shorter. */
  lowPublishPerSecond: number;
  lowDurationS: number;
  connectBatch: number;
  users: number;
  /** How Socket.IO viewers connect: 'wire' (engine.io framing on a plain ws client, like the others) or socket.io-client. */
  socketIoClient: 'wire' | 'official';
  /**
   * The viewers' sockets: 'native' (bench/load/viewers-native.c, one epoll loop in C) or 'node'
   * (ws clients in the viewers process, ~10 µs of CPU per message received).
   */
  viewersClient: 'native' | 'node';
}

export const DEFAULT_FANOUT_OPTIONS: FanoutOptions = {
  viewers: 10_000,
  durationS: 20,
  votesPerSecond: 1000,
  publishPerSecond: 10,
  lowPublishPerSecond: 2,
  lowDurationS: 10,
  connectBatch: 500,
  users: 5000,
  socketIoClient: process.env.BENCH_SOCKETIO_CLIENT === 'official' ? 'official' : 'wire',
  viewersClient: viewersClientFromEnv(),
};

const TARGETS = { p99Ms: 250, deliveryRatio: 1, hubVsSocketio: 1, hubVsRaw: 1.25, hubVsRawRatio: 1.5, votesKeptUpRatio: 0.97 };
const QUIET_MS = 2000;
/** A server kept up with the cadence when its last snapshot reached every viewer within this. */
const KEPT_UP_DRAIN_MS = 1000;
const keptUp = (p: PhaseResult) => p.analysis.drainMs <= KEPT_UP_DRAIN_MS;
const QUIESCENCE_LIMIT_MS = 60_000;
/** Votes still queued in the server when the driver stops are answered within this (bounded). */
const VOTE_DRIVER_MAX_OUTSTANDING = 1000;
/**
 * Connections the vote driver may hold: 1,000 votes/s come from many fans, each on their own
 * connection. With 64, the driver itself capped the rate whenever a vote took over 64 ms (during a
 * snapshot fan-out), and counted votes it never sent as not kept up.
 */
const VOTE_DRIVER_SOCKETS = 512;
const SNAPSHOT_CHANNEL = 'bench-snapshots';

interface Analysis {
  viewers: number;
  open: number;
  closedEarly: number;
  withFinal: number;
  withoutAny: number;
  deliveryRatio: number;
  finalMismatches: string[];
  distinctSnapshots: number;
  snapshotsReceived: number;
  staleDropped: number;
  messages: number;
  bytes: number;
  otherMessageTypes: Record<string, number>;
  errors: string[];
  events: number;
  eventWeight: number;
  undeliveredWeight: number;
  /** Last receipt by any viewer − last commit: how long the backlog took to drain. */
  drainMs: number;
  perSnapshotNewest: LatencySummary;
  perSnapshotOldestBound: LatencySummary;
  perEvent: LatencySummary;
  eventLoopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
}

interface Connected {
  viewers: number;
  open: number;
  subscribed: number;
  ms: number;
  errors: string[];
}

interface PhaseResult {
  name: string;
  connected: Connected;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  bytesPerConnection: number;
  analysis: Analysis;
  cpuCores: Record<string, unknown>;
  extra: Record<string, unknown>;
}

export async function runFanoutBenchmark(options: FanoutOptions = DEFAULT_FANOUT_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  log(`fanout: creating the bench database and fixtures (${options.viewers} viewers)`);
  const env = await createBenchEnv('_fanout');
  let tribuna: Tribuna | null = null;
  const children: BenchChild[] = [];
  const spawn = (name: string, script: string, params: unknown) => {
    const child = spawnTs(name, script, [paramsFile(name, params)], { ipc: true });
    children.push(child);
    return child;
  };
  try {
    const fixtures = await createFixtures(env.databaseUrl, options.users, {
      fanout: { title: 'Benchmark: live fan-out (points)', maxPointsPerUser: 1000, dailyReset: false, options: 6 },
    });
    const poll = fixtures.polls.fanout!;
    tribuna = await startTribuna(env);
    log(`fanout: server pid ${tribuna.server.pid} on ${tribuna.baseUrl}`);

    // ── A + B: Tribuna ────────────────────────────────────────────────────────────────────────
    const serverPid = tribuna.server.pid;
    await sleep(2000);
    const rssBefore = rssBytes(serverPid);
    const viewers = spawn('viewers-tribuna', 'bench/load/viewers.ts', {
      protocol: 'tribuna',
      url: `${tribuna.baseUrl.replace(/^http/, 'ws')}/ws`,
      origin: tribuna.publicUrl,
      pollId: poll.id,
      viewers: options.viewers,
      batchSize: options.connectBatch,
      native: options.viewersClient === 'native',
    });
    await viewers.next('ready', 30_000);
    const connected = await connectViewers(viewers, 'tribuna');
    await sleep(3000);
    const rssAfter = rssBytes(serverPid);

    const phaseA = await votePhase(env, tribuna, fixtures, poll, viewers, options, spawn);
    const a: PhaseResult = {
      connected,
      rssBeforeBytes: rssBefore,
      rssAfterBytes: rssAfter,
      bytesPerConnection: perConnection(rssBefore, rssAfter, connected.subscribed),
      ...phaseA,
    };
    logPhase(a);
    {
      const { acknowledged, storedVotes, voteErrors, abandoned } = phaseA.extra as Record<string, number>;
      if (storedVotes! < acknowledged!) failures.push(`fan-out votes LOST: acknowledged ${acknowledged} > stored ${storedVotes}`);
      else if (storedVotes !== acknowledged) {
        const ambiguous = voteErrors! + abandoned!;
        failures.push(
          `fan-out votes: acknowledged ${acknowledged} ≠ stored ${storedVotes}` +
            (storedVotes! - acknowledged! <= ambiguous
              ? ` — the difference never got an answer: ${ambiguous} requests timed out, failed or were given up on (server overloaded)`
              : ` — more than the ${ambiguous} requests that timed out or failed`),
        );
      }
    }

    const hubPublisher = spawn('publisher-hub', 'bench/load/publisher.ts', {
      mode: 'hub',
      redisUrl: env.redisUrl,
      redisPrefix: env.redisPrefix,
      databaseUrl: env.databaseUrl,
      pollId: poll.id,
      optionIds: poll.optionIds,
      userIds: fixtures.users.map((u) => u.id),
    });
    await hubPublisher.next('ready', 30_000);
    const hubFinal = async () => totalsSignature(await fetchResults(tribuna!.baseUrl, poll.id));
    const asTribuna = (p: PublishResult): PhaseResult => ({
      ...p,
      connected,
      rssBeforeBytes: rssBefore,
      rssAfterBytes: rssAfter,
      bytesPerConnection: a.bytesPerConnection,
    });
    const bLow = asTribuna(
      await publishPhase(env, 'tribuna hub alone (low cadence)', viewers, hubPublisher, serverPid, hubFinal, options.lowPublishPerSecond, options.lowDurationS),
    );
    logPhase(bLow);
    const b = asTribuna(await publishPhase(env, 'tribuna hub alone', viewers, hubPublisher, serverPid, hubFinal, options.publishPerSecond, options.durationS));
    logPhase(b);
    await closePublisher(hubPublisher);
    await closeViewers(viewers);
    await tribuna.stop();
    tribuna = null;

    // ── C: Socket.IO 4 + Redis adapter ────────────────────────────────────────────────────────
    const snapshotChannel = channelName(env.redisPrefix, SNAPSHOT_CHANNEL);
    const [c, cLow] = await comparisonPhase('socket.io', env, poll, fixtures, options, spawn, snapshotChannel);
    logPhase(cLow);
    logPhase(c);

    // ── D: bare ws, one pre-serialized buffer ─────────────────────────────────────────────────
    const [d, dLow] = await comparisonPhase('raw ws', env, poll, fixtures, options, spawn, snapshotChannel);
    logPhase(dLow);
    logPhase(d);

    // ── figures ───────────────────────────────────────────────────────────────────────────────
    const p50Ms = round(a.analysis.perEvent.p50Ms, 1);
    const p99Ms = round(a.analysis.perEvent.p99Ms, 1);
    const hubP99Ms = round(b.analysis.perEvent.p99Ms, 1);
    const socketioP99Ms = round(c.analysis.perEvent.p99Ms, 1);
    const rawP99Ms = round(d.analysis.perEvent.p99Ms, 1);
    const deliveryRatio = round(a.analysis.deliveryRatio, 4);
    if (a.analysis.deliveryRatio < 1) {
      failures.push(
        `fan-out: ${a.analysis.viewers - a.analysis.withFinal} of ${a.analysis.viewers} viewers did not end with the final totals after the votes (e.g. ${a.analysis.finalMismatches[0] ?? 'no snapshot'})`,
      );
    }
    if (bLow.analysis.deliveryRatio < 1) {
      failures.push(
        `fan-out (hub alone, low cadence): ${bLow.analysis.viewers - bLow.analysis.withFinal} of ${bLow.analysis.viewers} viewers did not end with the final totals`,
      );
    }
    if (b.analysis.deliveryRatio < 1) {
      failures.push(`fan-out (hub alone): ${b.analysis.viewers - b.analysis.withFinal} of ${b.analysis.viewers} viewers did not end with the final totals`);
    }
    if (connected.subscribed < options.viewers) failures.push(`fan-out: only ${connected.subscribed} of ${options.viewers} viewers subscribed`);

    const phaseJson = (p: PhaseResult) => ({
      viewersSubscribed: p.connected.subscribed,
      connectMs: p.connected.ms,
      rssBeforeBytes: p.rssBeforeBytes,
      rssAfterBytes: p.rssAfterBytes,
      bytesPerConnection: p.bytesPerConnection,
      deliveryRatio: round(p.analysis.deliveryRatio, 4),
      perCommit: p.analysis.perEvent,
      perSnapshotNewest: p.analysis.perSnapshotNewest,
      perSnapshotOldestBound: p.analysis.perSnapshotOldestBound,
      commits: p.analysis.events,
      commitWeight: p.analysis.eventWeight,
      undeliveredWeight: p.analysis.undeliveredWeight,
      drainMs: p.analysis.drainMs,
      keptUp: keptUp(p),
      distinctSnapshots: p.analysis.distinctSnapshots,
      snapshotsReceived: p.analysis.snapshotsReceived,
      staleDropped: p.analysis.staleDropped,
      messagesReceived: p.analysis.messages,
      bytesReceived: p.analysis.bytes,
      otherMessageTypes: p.analysis.otherMessageTypes,
      viewersClosedEarly: p.analysis.closedEarly,
      viewersWithoutSnapshot: p.analysis.withoutAny,
      viewerErrors: p.analysis.errors,
      viewersProcessEventLoopDelay: p.analysis.eventLoopDelay,
      cpuCores: p.cpuCores,
      ...p.extra,
    });

    const json: Record<string, unknown> = {
      viewers: connected.subscribed,
      p50Ms,
      p99Ms,
      deliveryRatio,
      socketioP99Ms,
      rawP99Ms,
      bytesPerConnection: a.bytesPerConnection,
      hubP99Ms,
      hubP50Ms: round(b.analysis.perEvent.p50Ms, 1),
      socketioP50Ms: round(c.analysis.perEvent.p50Ms, 1),
      rawP50Ms: round(d.analysis.perEvent.p50Ms, 1),
      hubVsSocketio: round(hubP99Ms / socketioP99Ms, 3),
      hubVsRaw: round(hubP99Ms / rawP99Ms, 3),
      lowCadence: {
        publishPerSecond: options.lowPublishPerSecond,
        durationS: options.lowDurationS,
        hubP50Ms: round(bLow.analysis.perEvent.p50Ms, 1),
        hubP99Ms: round(bLow.analysis.perEvent.p99Ms, 1),
        socketioP50Ms: round(cLow.analysis.perEvent.p50Ms, 1),
        socketioP99Ms: round(cLow.analysis.perEvent.p99Ms, 1),
        rawP50Ms: round(dLow.analysis.perEvent.p50Ms, 1),
        rawP99Ms: round(dLow.analysis.perEvent.p99Ms, 1),
        hubVsSocketio: round(bLow.analysis.perEvent.p99Ms / cLow.analysis.perEvent.p99Ms, 3),
        hubVsRaw: round(bLow.analysis.perEvent.p99Ms / dLow.analysis.perEvent.p99Ms, 3),
      },
      snapshotP50Ms: round(a.analysis.perSnapshotNewest.p50Ms, 1),
      snapshotP99Ms: round(a.analysis.perSnapshotNewest.p99Ms, 1),
      snapshotUpperBoundP99Ms: round(a.analysis.perSnapshotOldestBound.p99Ms, 1),
      socketioBytesPerConnection: c.bytesPerConnection,
      rawBytesPerConnection: d.bytesPerConnection,
      // As defined (bench/README.md): vote-to-screen p99 (the round at votesPerSecond) over raw ws's
      // p99 at the low cadence, same run (target ≤ 1.5), and the votes acknowledged over the votes
      // offered while viewers watch (target ≥ 0.97). hubLowCadenceVsRaw, the hub's p99 at the low
      // cadence over raw's, is a different figure (it was reported as hubVsRawRatio until 2026-11-27).
      hubVsRawRatio: round(p99Ms / dLow.analysis.perEvent.p99Ms, 3),
      hubLowCadenceVsRaw: round(bLow.analysis.perEvent.p99Ms / dLow.analysis.perEvent.p99Ms, 3),
      votesKeptUpRatio: round(Number(a.extra.acknowledged) / (options.votesPerSecond * options.durationS), 3),
      votesPerSecondTarget: options.votesPerSecond,
      votesAcknowledged: a.extra.acknowledged,
      votesStored: a.extra.storedVotes,
      rounds: 1,
      durationS: options.durationS,
      publishPerSecond: options.publishPerSecond,
      targets: TARGETS,
      // Whether each server delivered its last snapshot within KEPT_UP_DRAIN_MS of publishing it. One
      // that did not was queueing: its p99 measures a growing backlog, and a raw server that cannot
      // keep up is no ceiling (the raw comparison is then reported as null).
      keptUp: { hub: keptUp(b), socketio: keptUp(c), raw: keptUp(d), hubLow: keptUp(bLow), socketioLow: keptUp(cLow), rawLow: keptUp(dLow) },
      meetsTargets: {
        p99Ms: p99Ms < TARGETS.p99Ms,
        deliveryRatio: deliveryRatio >= TARGETS.deliveryRatio,
        hubVsSocketio: hubP99Ms < socketioP99Ms,
        hubVsRaw: keptUp(d) ? hubP99Ms <= TARGETS.hubVsRaw * rawP99Ms : null,
        lowCadenceHubVsSocketio: bLow.analysis.perEvent.p99Ms < cLow.analysis.perEvent.p99Ms,
        lowCadenceHubVsRaw: keptUp(dLow) ? bLow.analysis.perEvent.p99Ms <= TARGETS.hubVsRaw * dLow.analysis.perEvent.p99Ms : null,
        hubVsRawRatio: keptUp(dLow) ? p99Ms <= TARGETS.hubVsRawRatio * dLow.analysis.perEvent.p99Ms : null,
        votesKeptUpRatio: Number(a.extra.acknowledged) >= TARGETS.votesKeptUpRatio * options.votesPerSecond * options.durationS,
      },
      latencyDefinition: {
        p50Ms_p99Ms:
          "Vote-to-screen per committed vote and viewer: for every vote batch the server committed (its `poll.votes` event on the Redis bus gives committedAt, taken right after COMMIT, and the number of rows), the time from committedAt to the receipt, by each viewer, of the first snapshot whose committedAt is ≥ it (i.e. that includes the batch), weighted by the batch's rows. Includes coalescing, Redis and the viewers process's own queueing. Both clocks are Date.now() on this machine (ms resolution).",
        snapshotP50Ms_snapshotP99Ms:
          "Per received snapshot: receipt − the snapshot's committedAt (the newest commit it includes); a lower bound for the older votes it carries.",
        snapshotUpperBoundP99Ms:
          'Per received snapshot: receipt − the committedAt of the previous snapshot the same viewer received (the oldest vote it can newly include was committed after that); an upper bound.',
        hubP99Ms_socketioP99Ms_rawP99Ms:
          'Per published snapshot and viewer: publishedAt (carried as committedAt) → receipt of the first snapshot with committedAt ≥ publishedAt. Same publisher cadence and duration, same viewers process and client code, one server at a time.',
        bytesPerConnection: 'Server VmRSS after the viewers subscribed (3 s settle) minus before (2 s idle after start), divided by the subscribed viewers.',
        deliveryRatio: 'Share of viewers whose last accepted snapshot (seq-ordered) equals GET /api/polls/:id/results once no message arrived for 2 s.',
      },
      method: {
        viewers: `${
          options.viewersClient === 'native'
            ? `One process (bench/load/viewers.ts) driving a C client (bench/load/viewers-native.c: ${options.viewers} RFC 6455 client sockets in one epoll loop, masked client frames, pongs to pings)`
            : `One process, ${options.viewers} ws clients (permessage-deflate off)`
        }, Origin = PUBLIC_URL, connected ${options.connectBatch} at a time, each subscribed to the same poll; receipt time taken when the bytes are read. Socket.IO viewers: ${options.socketIoClient === 'wire' ? 'the same client speaking engine.io v4 / socket.io framing (so client cost is identical across servers)' : 'socket.io-client, websocket transport only'}.`,
        votes: `Open-loop driver process: ${options.votesPerSecond} votes/s for ${options.durationS} s, keep-alive agent (up to ${VOTE_DRIVER_SOCKETS} sockets), distinct users rotating over ${options.users}, points poll, 1 point on a random option.`,
        hubAlone: `Publisher process: ${options.publishPerSecond}/s for ${options.durationS} s; each inserts one vote row, then runs the live module's record script (totals + poll.votes event without voters) with at = publishedAt.`,
        noisyPhases: `A publish phase (hub alone, Socket.IO, raw ws, either cadence) during which the host stole more than ${STEAL_LIMIT_CORES} cores (cpuCores.steal, /proc/stat) is run again, up to ${MAX_PHASE_RETRIES} times; phases.<name>.discarded lists the attempts set aside. The vote phase is not repeated (its votes stay in the database); its steal is in its cpuCores.`,
        comparisons: `Publisher process: a full ResultsSnapshot JSON on Redis channel ${SNAPSHOT_CHANNEL} (prefixed) ${options.publishPerSecond}/s for ${options.durationS} s; Socket.IO server: @socket.io/redis-adapter, io.to(room).emit('results', snapshot); raw server: ws, socket.send(the received Buffer) to every socket. The Tribuna server and worker are stopped before these run.`,
        rounds: `One round per phase (time budget); phases run in order A (votes), B (hub alone), C (Socket.IO), D (raw ws). B, C and D run at ${options.lowPublishPerSecond}/s for ${options.lowDurationS} s (lowCadence), then at ${options.publishPerSecond}/s for ${options.durationS} s (the headline figures), on the same connections.`,
      },
      phases: {
        tribunaVotes: phaseJson(a),
        tribunaHub: phaseJson(b),
        socketio: phaseJson(c),
        raw: phaseJson(d),
        tribunaHubLowCadence: phaseJson(bLow),
        socketioLowCadence: phaseJson(cLow),
        rawLowCadence: phaseJson(dLow),
      },
      integrityFailures: failures,
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };
    const table: [string, string][] = [
      ['viewers (subscribed)', `${connected.subscribed}`],
      [`vote-to-screen p50 / p99 ms (${options.votesPerSecond} votes/s)`, `${p50Ms} / ${p99Ms}`],
      ['  per snapshot p50 / p99 / upper-bound p99 ms', `${json.snapshotP50Ms} / ${json.snapshotP99Ms} / ${json.snapshotUpperBoundP99Ms}`],
      ['delivery ratio (final totals)', `${deliveryRatio}`],
      ['hub alone p50 / p99 ms', `${json.hubP50Ms} / ${hubP99Ms}`],
      ['Socket.IO 4 + Redis adapter p50 / p99 ms', `${json.socketioP50Ms} / ${socketioP99Ms}`],
      ['raw ws (one buffer) p50 / p99 ms', `${json.rawP50Ms} / ${rawP99Ms}`],
      ['hub p99 / Socket.IO p99, / raw p99', `${json.hubVsSocketio}, ${json.hubVsRaw}`],
      [
        'kept up with the cadence (hub / Socket.IO / raw)',
        `${keptUp(b)} / ${keptUp(c)} / ${keptUp(d)} (drain ${round(b.analysis.drainMs, 0)} / ${round(c.analysis.drainMs, 0)} / ${round(d.analysis.drainMs, 0)} ms)`,
      ],
      [
        `at ${options.lowPublishPerSecond}/s: hub / Socket.IO / raw p99 ms`,
        `${round(bLow.analysis.perEvent.p99Ms, 1)} / ${round(cLow.analysis.perEvent.p99Ms, 1)} / ${round(dLow.analysis.perEvent.p99Ms, 1)}`,
      ],
      [`hubVsRawRatio: vote-to-screen p99 / raw p99 at ${options.lowPublishPerSecond}/s (target ≤ ${TARGETS.hubVsRawRatio})`, `${json.hubVsRawRatio}`],
      [`hubLowCadenceVsRaw: hub p99 / raw p99, both at ${options.lowPublishPerSecond}/s`, `${json.hubLowCadenceVsRaw}`],
      [`votesKeptUpRatio (target ≥ ${TARGETS.votesKeptUpRatio})`, `${json.votesKeptUpRatio}`],
      ['server bytes per connection (tribuna / socket.io / raw)', `${a.bytesPerConnection} / ${c.bytesPerConnection} / ${d.bytesPerConnection}`],
      ['votes sent / acknowledged / stored', `${a.extra.votesSent} / ${a.extra.acknowledged} / ${a.extra.storedVotes}`],
      ['votes acknowledged per second (target rate)', `${a.extra.voteAcknowledgedPerSecond} (${options.votesPerSecond})`],
    ];
    return { name: 'fanout', json, table, failures };
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
    if (tribuna) await tribuna.stop();
    await destroyBenchEnv(env);
  }
}

type Spawn = (name: string, script: string, params: unknown) => BenchChild;

function perConnection(before: number, after: number, connections: number): number {
  return connections > 0 ? Math.round((after - before) / connections) : NaN;
}

function logPhase(p: PhaseResult): void {
  const x = p.analysis;
  log(
    `fanout: ${p.name}: ${x.viewers} viewers, p50 ${round(x.perEvent.p50Ms, 1)} ms p99 ${round(x.perEvent.p99Ms, 1)} ms ` +
      `(per snapshot p99 ${round(x.perSnapshotNewest.p99Ms, 1)} ms), drain ${round(x.drainMs, 0)} ms, delivery ${round(x.deliveryRatio, 4)}, ` +
      `${p.bytesPerConnection} B/conn, viewers loop delay p99 ${round(x.eventLoopDelay.p99Ms, 1)} ms, cpu ${JSON.stringify(p.cpuCores)}`,
  );
}

async function connectViewers(viewers: BenchChild, label: string): Promise<Connected> {
  const connected = (await viewers.request({ type: 'connect' }, 'connected', 10 * 60_000)) as unknown as Connected;
  log(
    `fanout: ${label}: ${connected.subscribed}/${connected.viewers} viewers subscribed in ${connected.ms} ms${connected.errors.length ? ` (errors: ${connected.errors.join('; ')})` : ''}`,
  );
  return connected;
}

async function closeViewers(viewers: BenchChild): Promise<void> {
  await viewers.request({ type: 'close' }, 'closed', 60_000).catch(() => {});
  await viewers.stop();
}

/**
 * Waits until no viewer received anything for QUIET_MS and, when given, `lastActivity` (e.g. the
 * last vote commit seen) is as old (bounded by QUIESCENCE_LIMIT_MS). Returns whether it got quiet.
 */
async function quiescence(viewers: BenchChild, lastActivity: () => number = () => 0): Promise<boolean> {
  const limit = Date.now() + QUIESCENCE_LIMIT_MS;
  for (;;) {
    const s = (await viewers.request({ type: 'status' }, 'status', 30_000)) as unknown as { lastMessageAt: number; now: number };
    if (s.now - s.lastMessageAt >= QUIET_MS && Date.now() - lastActivity() >= QUIET_MS) return true;
    if (Date.now() > limit) {
      log(`fanout: still not quiet after ${QUIESCENCE_LIMIT_MS / 1000} s; analysing anyway`);
      return false;
    }
    await sleep(250);
  }
}

async function fetchResults(baseUrl: string, pollId: string): Promise<PollResults> {
  const res = await fetch(`${baseUrl}/api/polls/${pollId}/results`, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`GET /api/polls/${pollId}/results answered ${res.status}`);
  return (await res.json()) as PollResults;
}

function meter(env: BenchEnv, serverPid: number, load: BenchChild, viewers: BenchChild): CpuMeter {
  return new CpuMeter({
    server: () => [serverPid],
    viewers: () => withChildren(viewers.pid),
    load: () => [load.pid],
    postgres: postgresOf(env.name),
    postgresShared,
    redis: { comm: 'redis-server' },
  });
}

/** A: votes at a fixed rate through the real server; commits observed on the event bus. */
async function votePhase(
  env: BenchEnv,
  tribuna: Tribuna,
  fixtures: Fixtures,
  poll: BenchPoll,
  viewers: BenchChild,
  options: FanoutOptions,
  spawn: Spawn,
): Promise<Omit<PhaseResult, 'name' | 'connected' | 'rssBeforeBytes' | 'rssAfterBytes' | 'bytesPerConnection'> & { name: string }> {
  const driver = spawn('vote-driver', 'bench/load/open-loop.ts', {
    baseUrl: tribuna.baseUrl,
    pollId: poll.id,
    optionIds: poll.optionIds,
    users: fixtures.users.map((u) => ({ token: u.token, fingerprint: u.fingerprint, address: u.address })),
    body: 'points',
    maxSockets: VOTE_DRIVER_SOCKETS,
    maxOutstanding: VOTE_DRIVER_MAX_OUTSTANDING,
  });
  await driver.next('ready', 30_000);

  // Every committed batch: the live module publishes it (committedAt, rows) after COMMIT.
  const observer = new Redis(env.redisUrl, { maxRetriesPerRequest: 1 });
  const commits: [number, number][] = [];
  let observedRows = 0;
  let lastCommitSeenAt = 0;
  observer.on('message', (_channel: string, message: string) => {
    const envelope = JSON.parse(message) as BusEnvelope;
    const event = envelope.payload as PollVotesEvent;
    if (envelope.name === 'poll.votes' && event.pollId === poll.id && event.added.length > 0) {
      commits.push([event.committedAt, event.added.length]);
      observedRows += event.added.length;
      lastCommitSeenAt = Date.now();
    }
  });
  await observer.subscribe(busChannel(env.redisPrefix));

  await viewers.request({ type: 'reset' }, 'reset-done', 30_000);
  log(`fanout: tribuna: ${options.votesPerSecond} votes/s for ${options.durationS} s to ${options.viewers} viewers`);
  const cpu = meter(env, tribuna.server.pid, driver, viewers);
  cpu.start();
  const driven = (
    (await driver.request(
      { type: 'run', ratePerSecond: options.votesPerSecond, durationS: options.durationS },
      'result',
      options.durationS * 1000 + 120_000,
    )) as unknown as {
      result: {
        acknowledged: number;
        errors: number;
        timeouts: number;
        abandoned: number;
        notSent: number;
        sent: number;
        statusCounts: Record<string, number>;
        latencyFromDue: LatencySummary;
        perSecond: number;
        maxSchedulerLagMs: number;
      };
    }
  ).result;
  // The server may still be answering votes the driver gave up on: wait for the commits to stop too.
  const quiet = await quiescence(viewers, () => lastCommitSeenAt);
  const cpuCores = cpu.stop();
  await observer.quit().catch(() => observer.disconnect());
  const results = await fetchResults(tribuna.baseUrl, poll.id);
  const analysis = (await viewers.request(
    { type: 'analyze', events: commits, finalSignature: totalsSignature(results) },
    'analysis',
    5 * 60_000,
  )) as unknown as Analysis;
  await driver.stop();
  return {
    name: 'tribuna vote-to-screen',
    analysis,
    cpuCores,
    extra: {
      acknowledged: driven.acknowledged,
      storedVotes: results.totalVotes,
      observedCommittedRows: observedRows,
      votesSent: driven.sent,
      votesNotSent: driven.notSent,
      // Socket errors and timeouts (refusals with a status are in voteStatusCounts).
      voteErrors: driven.errors,
      abandoned: driven.abandoned,
      voteTimeouts: driven.timeouts,
      voteStatusCounts: driven.statusCounts,
      voteAcknowledgedPerSecond: round(driven.perSecond, 0),
      voteLatencyFromDue: driven.latencyFromDue,
      driverMaxSchedulerLagMs: round(driven.maxSchedulerLagMs, 1),
      quiescent: quiet,
    },
  };
}

type PublishResult = Omit<PhaseResult, 'connected' | 'rssBeforeBytes' | 'rssAfterBytes' | 'bytesPerConnection'>;

/** A publish phase during which the host stole more than this (cores) is run again, at most MAX_PHASE_RETRIES times. */
const STEAL_LIMIT_CORES = 0.15;
const MAX_PHASE_RETRIES = 2;

/**
 * B, C, D: one run of a (ready) publisher at a fixed cadence, the viewers already connected; run
 * again when the host stole CPU during it (the attempts set aside are kept in `extra.discarded`).
 */
async function publishPhase(
  env: BenchEnv,
  name: string,
  viewers: BenchChild,
  publisher: BenchChild,
  serverPid: number,
  finalSignature: (published: { finalSignature: string | null }) => Promise<string> | string,
  ratePerSecond: number,
  durationS: number,
): Promise<PublishResult> {
  const discarded: { stealCores: number; p99Ms: number }[] = [];
  const result = await measureUntilQuiet(
    async () => {
      await viewers.request({ type: 'reset' }, 'reset-done', 30_000);
      log(`fanout: ${name}: publishing ${ratePerSecond}/s for ${durationS} s`);
      const cpu = meter(env, serverPid, publisher, viewers);
      cpu.start();
      const published = (await publisher.request({ type: 'run', ratePerSecond, durationS }, 'result', durationS * 1000 + 60_000)) as unknown as {
        published: number[];
        maxLagMs: number;
        finalSignature: string | null;
      };
      const quiet = await quiescence(viewers);
      const cpuCores = cpu.stop();
      const analysis = (await viewers.request(
        { type: 'analyze', events: published.published.map((t) => [t, 1]), finalSignature: await finalSignature(published) },
        'analysis',
        5 * 60_000,
      )) as unknown as Analysis;
      const extra = {
        publishPerSecond: ratePerSecond,
        durationS,
        published: published.published.length,
        publisherMaxLagMs: round(published.maxLagMs, 1),
        quiescent: quiet,
      };
      return { name, analysis, cpuCores, extra };
    },
    {
      limitCores: STEAL_LIMIT_CORES,
      maxRetries: MAX_PHASE_RETRIES,
      onNoisy: (noisy, steal) => {
        discarded.push({ stealCores: steal, p99Ms: round(noisy.analysis.perEvent.p99Ms, 1) });
        log(`fanout: ${name}: ${steal} cores stolen by the host during the phase; running it again`);
      },
    },
  );
  return { ...result, extra: { ...result.extra, discarded } };
}

async function closePublisher(publisher: BenchChild): Promise<void> {
  await publisher.request({ type: 'close' }, 'closed', 10_000).catch(() => {});
  await publisher.stop();
}

async function comparisonPhase(
  kind: 'socket.io' | 'raw ws',
  env: BenchEnv,
  poll: BenchPoll,
  fixtures: Fixtures,
  options: FanoutOptions,
  spawn: Spawn,
  channel: string,
): Promise<[PhaseResult, PhaseResult]> {
  const port = await freePort();
  const server =
    kind === 'socket.io'
      ? spawn('socketio-server', 'bench/servers/socketio-server.ts', { port, redisUrl: env.redisUrl, redisPrefix: env.redisPrefix, channel })
      : spawn('raw-ws-server', 'bench/servers/raw-ws-server.ts', { port, redisUrl: env.redisUrl, channel });
  await server.next('ready', 30_000);
  await sleep(2000);
  const rssBefore = rssBytes(server.pid);
  const viewers = spawn(`viewers-${kind === 'socket.io' ? 'socketio' : 'raw'}`, 'bench/load/viewers.ts', {
    protocol: kind === 'socket.io' ? 'socketio' : 'raw',
    url: kind === 'socket.io' ? `http://127.0.0.1:${port}` : `ws://127.0.0.1:${port}/`,
    origin: `http://127.0.0.1:${port}`,
    pollId: poll.id,
    viewers: options.viewers,
    batchSize: options.connectBatch,
    client: options.socketIoClient,
    // socket.io-client runs in the viewers process itself.
    native: options.viewersClient === 'native' && !(kind === 'socket.io' && options.socketIoClient === 'official'),
  });
  await viewers.next('ready', 30_000);
  const connected = await connectViewers(viewers, kind);
  await sleep(3000);
  const rssAfter = rssBytes(server.pid);
  const publisher = spawn(`publisher-${kind === 'socket.io' ? 'socketio' : 'raw'}`, 'bench/load/publisher.ts', {
    mode: 'snapshots',
    redisUrl: env.redisUrl,
    redisPrefix: env.redisPrefix,
    channel,
    pollId: poll.id,
    optionIds: poll.optionIds,
    userIds: fixtures.users.map((u) => u.id),
  });
  await publisher.next('ready', 30_000);
  const final = (published: { finalSignature: string | null }) => published.finalSignature ?? '';
  // The light cadence first: the heavy one may leave a backlog (and garbage) behind.
  const low = await publishPhase(env, `${kind} (low cadence)`, viewers, publisher, server.pid, final, options.lowPublishPerSecond, options.lowDurationS);
  const main = await publishPhase(env, kind, viewers, publisher, server.pid, final, options.publishPerSecond, options.durationS);
  await closePublisher(publisher);
  await closeViewers(viewers);
  await server.stop();
  if (connected.subscribed < options.viewers) log(`fanout: ${kind}: only ${connected.subscribed} of ${options.viewers} viewers subscribed`);
  const memory = {
    connected,
    rssBeforeBytes: rssBefore,
    rssAfterBytes: rssAfter,
    bytesPerConnection: perConnection(rssBefore, rssAfter, connected.subscribed),
  };
  return [
    { ...main, ...memory },
    { ...low, ...memory },
  ];
}
