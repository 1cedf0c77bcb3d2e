// Open-loop vote driver, in its own process: votes are due at fixed intervals whatever the server
// does, and each latency is counted from when its vote was due (not when it could be sent), so a
// stalled server shows up in the percentiles (no coordinated omission). Keep-alive agent with at
// most 64 sockets; requests beyond that wait in the agent's queue and that wait counts.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { readParams, serve } from '../lib/child.ts';
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
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_DRAIN_MS = 35_000;
const maxOutstanding = params.maxOutstanding ?? 5000;

function run({ ratePerSecond, durationS }: RunCommand): Promise<Record<string, unknown>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: params.maxSockets });
  const users = params.users;
  const cookies = users.map((u) => sessionCookie(u.token));
  const acked = new Array<number>(users.length).fill(0);
  const fromDue = newHistogram();
  const fromSend = newHistogram();
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let timeouts = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastResponseAt = 0;
  let nextUser = Math.floor(Math.random() * users.length);
  // The first vote is due 20 ms after the schedule starts (runOpenLoop).
  const scheduleStart = performance.now() + 20;
  const timeline = new LatenessTimeline(() => scheduleStart);

  const fire = (_k: number, due: number) => {
    const u = nextUser;
    nextUser = (nextUser + 1) % users.length;
    const optionId = params.optionIds[Math.floor(Math.random() * params.optionIds.length)]!;
    const body = JSON.stringify(
      params.body === 'points'
        ? { allocations: [{ optionId, points: 1 }], deviceFingerprint: users[u]!.fingerprint }
        : { optionId, deviceFingerprint: users[u]!.fingerprint },
    );
    const sentAt = performance.now();
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      inFlight--;
      return true;
    };
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/api/polls/${params.pollId}/votes`,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-requested-with': 'tribuna',
          cookie: cookies[u]!,
          'x-forwarded-for': users[u]!.address,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (status >= 300) chunks.push(c);
        });
        res.on('end', () => {
          if (!settle()) return;
          const now = performance.now();
          lastResponseAt = now;
          if (status >= 200 && status < 300) {
            acked[u]! += 1;
            recordMs(fromDue, now - due);
            timeline.record(due, now - due);
            recordMs(fromSend, now - sentAt);
          } else {
            statusCounts[status] = (statusCounts[status] ?? 0) + 1;
            if (errorSamples.length < 5) errorSamples.push(`${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
          }
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      timeouts++;
      req.destroy(new Error('timeout'));
    });
    req.on('error', (err) => {
      if (!settle()) return;
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`error ${err.message}`);
    });
    req.end(body);
  };

  return runOpenLoop({ ratePerSecond, durationS, maxDrainMs: MAX_DRAIN_MS, inFlight: () => inFlight, maxOutstanding, fire }).then(
    ({ startAt, startWall, scheduled, issued, notSent, maxLagMs }) => {
      agent.destroy();
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
        timeouts,
        statusCounts,
        errorSamples,
        // Given up on at the end (the server may still commit them): neither acknowledged nor refused.
        abandoned: inFlight,
        maxInFlight,
        maxSchedulerLagMs: maxLagMs,
        latencyFromDue: summarize(fromDue),
        timeline: timeline.summary(),
        latencyFromSend: summarize(fromSend),
        histogramFromDue: encode(fromDue),
        ackedByUser: acked,
      };
    },
  );
}

serve({
  run: async (message) => ({ type: 'result', result: await run(message as unknown as RunCommand) }),
});
