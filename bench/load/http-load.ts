// Closed-loop HTTP load with autocannon, in its own process: `votes` (POST a vote with a rotating
// signed-in user) or `health` (GET /api/health). Each `run` command is one round.
//
// Votes rounds stop gracefully: at the deadline every connection finishes the request it has in
// flight and sends no other, so every vote the server may have committed got its answer and is
// counted (autocannon's own stop destroys the sockets mid-request, which would leave votes stored
// but never acknowledged).
import autocannon, { type AutocannonClient, type Result } from 'autocannon';
import { readParams, serve } from '../lib/child.ts';
import { sessionCookie } from '../lib/sessionCookie.ts';

interface Params {
  mode: 'votes' | 'health';
  baseUrl: string;
  connections: number;
  pollId?: string;
  optionIds?: string[];
  users?: { token: string; fingerprint: string; address: string }[];
}

interface RunCommand {
  type: 'run';
  durationS: number;
}

const params = readParams<Params>();
const MAX_DRAIN_MS = 15_000;
const INTERVAL_MS = 10_000;

function voteRound(durationS: number): Promise<Record<string, unknown>> {
  const users = params.users ?? [];
  const optionIds = params.optionIds ?? [];
  if (!params.pollId || users.length === 0 || optionIds.length === 0) throw new Error('votes mode needs pollId, users, optionIds');
  const acked = new Array<number>(users.length).fill(0);
  const cookies = users.map((u) => sessionCookie(u.token));
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let nextUser = Math.floor(Math.random() * users.length);
  const clients: AutocannonClient[] = [];
  let startedAt = 0;
  let lastResponseAt = 0;
  let responsesBeforeDeadline = 0;
  let ackedBeforeDeadline = 0;
  let deadlineAt = Infinity;
  /** Acknowledged votes per INTERVAL_MS from the round's start (how the rate moves within a round). */
  const ackedPerInterval: number[] = [];

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: params.baseUrl,
        connections: params.connections,
        // Our own deadline stops the round; autocannon's is only a backstop.
        duration: durationS + MAX_DRAIN_MS / 1000 + 5,
        pipelining: 1,
        timeout: 10,
        setupClient: (client) => clients.push(client),
        requests: [
          {
            method: 'POST',
            path: `/api/polls/${params.pollId}/votes`,
            setupRequest(req, context) {
              const u = nextUser;
              nextUser = (nextUser + 1) % users.length;
              context.u = u;
              const optionId = optionIds[Math.floor(Math.random() * optionIds.length)]!;
              req.headers = {
                'content-type': 'application/json',
                'x-requested-with': 'tribuna',
                cookie: cookies[u]!,
                'x-forwarded-for': users[u]!.address,
              };
              req.body = JSON.stringify({ allocations: [{ optionId, points: 1 }], deviceFingerprint: users[u]!.fingerprint });
              return req;
            },
            onResponse(status, body, context) {
              const now = Date.now();
              lastResponseAt = now;
              const ok = status >= 200 && status < 300;
              if (now <= deadlineAt) {
                responsesBeforeDeadline++;
                if (ok) ackedBeforeDeadline++;
              }
              if (ok) {
                acked[context.u as number]! += 1;
                if (now <= deadlineAt) {
                  const slot = Math.floor((now - startedAt) / INTERVAL_MS);
                  ackedPerInterval[slot] = (ackedPerInterval[slot] ?? 0) + 1;
                }
              } else {
                statusCounts[status] = (statusCounts[status] ?? 0) + 1;
                if (errorSamples.length < 5) errorSamples.push(`${status} ${String(body).slice(0, 200)}`);
              }
            },
          },
        ],
      },
      (err, result) => {
        if (err) reject(err);
        else {
          const acknowledged = acked.reduce((a, b) => a + b, 0);
          const windowMs = Math.max(1, lastResponseAt - startedAt);
          resolve({
            ...commonFields(result),
            acknowledged,
            windowMs,
            // Acknowledged votes over the whole window (start → last answer, drain included).
            perSecond: (acknowledged * 1000) / windowMs,
            // The same, counting only the answers received before the deadline.
            perSecondBeforeDeadline: (ackedBeforeDeadline * 1000) / Math.max(1, deadlineAt - startedAt),
            responsesBeforeDeadline,
            // Votes/s in each INTERVAL_MS slice before the deadline (the last slice may be shorter).
            perSecondByInterval: Array.from(ackedPerInterval, (n) => ((n ?? 0) * 1000) / INTERVAL_MS),
            intervalMs: INTERVAL_MS,
            ackedByUser: acked,
            statusCounts,
            errorSamples,
          });
        }
      },
    );
    instance.on('start', () => {
      startedAt = Date.now();
      const stopTimer = setTimeout(() => {
        deadlineAt = Date.now();
        // Finish the request in flight, then stop this connection (autocannon destroys a client
        // once reqsMade reaches responseMax, which it checks before sending the next request).
        for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
        setTimeout(() => instance.stop(), MAX_DRAIN_MS).unref();
      }, durationS * 1000);
      stopTimer.unref();
    });
  });
}

function healthRound(durationS: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${params.baseUrl}/api/health`, connections: params.connections, duration: durationS, pipelining: 1, timeout: 10 }, (err, result) => {
      if (err) reject(err);
      else {
        const ok = result['2xx'];
        resolve({ ...commonFields(result), acknowledged: ok, windowMs: result.duration * 1000, perSecond: ok / result.duration });
      }
    });
  });
}

function commonFields(result: Result) {
  return {
    connections: result.connections,
    durationS: result.duration,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    // autocannon's latency histogram (ms, 2xx responses only).
    latency: {
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      p999Ms: result.latency.p99_9,
      maxMs: result.latency.max,
      meanMs: result.latency.mean,
    },
  };
}

serve({
  run: async (message) => {
    const { durationS } = message as unknown as RunCommand;
    const result = params.mode === 'votes' ? await voteRound(durationS) : await healthRound(durationS);
    return { type: 'result', result };
  },
});
