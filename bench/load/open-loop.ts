// Open-loop vote driver, in its own process: votes are due at fixed intervals whatever the server
// does, and each latency is counted from when its vote was due (not when it could be sent), so a
// stalled server shows up in the percentiles (no coordinated omission). A fixed pool of
// pre-opened keep-alive connections (bench/lib/keepAlivePool.ts); requests due while all are busy
// wait in the pool's queue and that wait counts.
import { performance } from 'node:perf_hooks';
import { readParams, serve } from '../lib/child.ts';
import { buildRequest, KeepAlivePool } from '../lib/keepAlivePool.ts';
import { LatenessTimeline, runOpenLoop } from '../lib/openLoop.ts';
import { encode, newHistogram, recordMs, summarize } from '../lib/stats.ts';
import { sessionCookie } from '../lib/sessionCookie.ts';

interface Params {
  baseUrl: string;
  pollId: string;
  optionIds: string[];
  users: { token: string; fingerprint: string; address: string }[];
  /** 'points': {allocations:[{optionId, points:1}]}; 'single': {optionId}. */
  body: 'points' | 'single';
  maxSockets: number;
  /**
   * Votes due while this many are already waiting or in flight are not sent (counted as notSent):
   * an overloaded server then shows as refused load, not as an unbounded queue in this process.
   */
  maxOutstanding?: number;
}

interface RunCommand {
  type: 'run';
  ratePerSecond: number;
  durationS: number;
}

const params = readParams<Params>();
const url = new URL(params.baseUrl);
const MAX_DRAIN_MS = 35_000;
const maxOutstanding = params.maxOutstanding ?? 5000;

let pool: KeepAlivePool | null = null;

/** Opens the connections once (each answers one health request), before any schedule starts. */
async function connect(): Promise<KeepAlivePool> {
  if (!pool) {
    pool = new KeepAlivePool(url.hostname, Number(url.port), params.maxSockets);
    await pool.open(buildRequest(url.host, 'GET', '/api/health', {}));
  }
  return pool;
}

async function run({ ratePerSecond, durationS }: RunCommand): Promise<Record<string, unknown>> {
  const conns = await connect();
  const reconnectsBefore = conns.reconnects;
  conns.maxQueued = 0;
  const users = params.users;
  const cookies = users.map((u) => sessionCookie(u.token));
  const acked = new Array<number>(users.length).fill(0);
  const fromDue = newHistogram();
  const fromSend = newHistogram();
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let maxInFlight = 0;
  let lastResponseAt = 0;
  let nextUser = Math.floor(Math.random() * users.length);
  // The first vote is due 20 ms after the schedule starts (runOpenLoop).
  const scheduleStart = performance.now() + 20;
  const timeline = new LatenessTimeline(() => scheduleStart);
  const path = `/api/polls/${params.pollId}/votes`;

  const fire = (_k: number, due: number) => {
    const u = nextUser;
    nextUser = (nextUser + 1) % users.length;
    const optionId = params.optionIds[Math.floor(Math.random() * params.optionIds.length)]!;
    const body = JSON.stringify(
      params.body === 'points'
        ? { allocations: [{ optionId, points: 1 }], deviceFingerprint: users[u]!.fingerprint }
        : { optionId, deviceFingerprint: users[u]!.fingerprint },
    );
    const request = buildRequest(
      url.host,
      'POST',
      path,
      { 'content-type': 'application/json', 'x-requested-with': 'tribuna', cookie: cookies[u]!, 'x-forwarded-for': users[u]!.address },
      body,
    );
    // Sent when a connection takes it: queued requests have their send time when written.
    const queuedAt = performance.now();
    if (conns.outstanding + 1 > maxInFlight) maxInFlight = conns.outstanding + 1;
    conns.request(request, (status, resBody, error) => {
      const now = performance.now();
      if (error) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`error ${error.message}`);
        return;
      }
      lastResponseAt = now;
      if (status >= 200 && status < 300) {
        acked[u]! += 1;
        recordMs(fromDue, now - due);
        timeline.record(due, now - due);
        recordMs(fromSend, now - queuedAt);
      } else {
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        if (errorSamples.length < 5) errorSamples.push(`${status} ${resBody.toString('utf8').slice(0, 200)}`);
      }
    });
  };

  const { startAt, startWall, scheduled, issued, notSent, maxLagMs } = await runOpenLoop({
    ratePerSecond,
    durationS,
    maxDrainMs: MAX_DRAIN_MS,
    inFlight: () => conns.outstanding,
    maxOutstanding,
    fire,
  });
  const acknowledged = acked.reduce((a, b) => a + b, 0);
  const windowMs = Math.max(1, lastResponseAt - startAt);
  return {
    ratePerSecond,
    durationS,
    scheduled,
    sent: issued - notSent,
    notSent,
    acknowledged,
    windowMs,
    perSecond: (acknowledged * 1000) / windowMs,
    startedAtEpochMs: startWall,
    errors,
    statusCounts,
    errorSamples,
    // Given up on at the end (the server may still commit them): neither acknowledged nor refused.
    abandoned: conns.outstanding,
    maxInFlight,
    maxQueued: conns.maxQueued,
    reconnects: conns.reconnects - reconnectsBefore,
    maxSchedulerLagMs: maxLagMs,
    latencyFromDue: summarize(fromDue),
    timeline: timeline.summary(),
    // From the moment the request was handed to the pool (it may then wait for a connection).
    latencyFromSend: summarize(fromSend),
    histogramFromDue: encode(fromDue),
    ackedByUser: acked,
  };
}

serve({
  run: async (message) => ({ type: 'result', result: await run(message as unknown as RunCommand) }),
});
