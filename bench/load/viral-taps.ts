// Open-loop reaction taps for the viral-post benchmark, in their own process: taps are due at fixed
// intervals whatever the server does, alternating the viral post and the quiet one (tap k is fan
// ⌊k/2⌋ mod fans on post k mod 2: every fan taps the viral post, then the quiet one, in turn), and
// each latency is counted from its tap's due time (no coordinated omission). A fan's consecutive
// taps on one post name different types, so every tap changes the counts (the first adds, each
// next one replaces). The answer's myReaction of every fan's latest acknowledged tap per post is
// kept for the integrity check (acknowledged = stored).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { REACTION_TYPES } from '@tribuna/contracts/wallRules';
import { readParams, serve } from '../lib/child.ts';
import { runOpenLoop } from '../lib/openLoop.ts';
import { newHistogram, recordMs, summarize, type Histogram } from '../lib/stats.ts';
import { sessionCookie } from '../lib/sessionCookie.ts';

interface Params {
  baseUrl: string;
  /** [viral, quiet]. */
  postIds: [string, string];
  fans: { token: string; address: string }[];
  maxSockets: number;
}

interface RunCommand {
  type: 'run';
  ratePerSecond: number;
  durationS: number;
}

const TARGETS = ['viral', 'quiet'] as const;
type Target = (typeof TARGETS)[number];

const params = readParams<Params>();
const url = new URL(params.baseUrl);
const cookies = params.fans.map((f) => sessionCookie(f.token));
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_DRAIN_MS = 35_000;

/** Taps so far per (fan, post), over every run: the next tap's type follows from it. */
const tapsOf = new Map<string, number>();
/**
 * Per (fan, post): the myReaction of the latest acknowledged tap (by due order), and whether a
 * later tap got no answer at all (socket error, timeout, given up: it may or may not be stored).
 */
const state = new Map<string, { tap: number; reaction: string | null; unansweredAfter: number }>();
let tapSerial = 0;
/** Taps sent and not yet answered: (fan, post) key by serial. */
const pending = new Map<number, string>();

function markUnanswered(key: string, serial: number): void {
  const s = state.get(key) ?? { tap: 0, reaction: null, unansweredAfter: 0 };
  s.unansweredAfter = Math.max(s.unansweredAfter, serial);
  state.set(key, s);
}

interface PerTarget {
  acknowledged: number;
  fromDue: Histogram;
  fromSend: Histogram;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  lastAnswerAt: number;
}

function run({ ratePerSecond, durationS }: RunCommand): Promise<Record<string, unknown>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: params.maxSockets });
  const per: Record<Target, PerTarget> = {
    viral: { acknowledged: 0, fromDue: newHistogram(), fromSend: newHistogram(), statusCounts: {}, errors: 0, timeouts: 0, lastAnswerAt: 0 },
    quiet: { acknowledged: 0, fromDue: newHistogram(), fromSend: newHistogram(), statusCounts: {}, errors: 0, timeouts: 0, lastAnswerAt: 0 },
  };
  const errorSamples: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const fire = (k: number, due: number) => {
    const target = TARGETS[k % 2]!;
    const fan = Math.floor(k / 2) % params.fans.length;
    const key = `${fan} ${target}`;
    const n = tapsOf.get(key) ?? 0;
    tapsOf.set(key, n + 1);
    const type = REACTION_TYPES[(fan + n) % REACTION_TYPES.length]!;
    const serial = ++tapSerial;
    const body = JSON.stringify({ type });
    const t = per[target];
    const sentAt = performance.now();
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    pending.set(serial, key);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      inFlight--;
      pending.delete(serial);
      return true;
    };
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/api/posts/${params.postIds[k % 2]}/reactions`,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-requested-with': 'tribuna',
          cookie: cookies[fan]!,
          'x-forwarded-for': params.fans[fan]!.address,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (!settle()) return;
          const now = performance.now();
          t.lastAnswerAt = now;
          if (status === 200) {
            t.acknowledged++;
            recordMs(t.fromDue, now - due);
            recordMs(t.fromSend, now - sentAt);
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { myReaction: string | null };
            const s = state.get(key) ?? { tap: 0, reaction: null, unansweredAfter: 0 };
            if (serial > s.tap) {
              s.tap = serial;
              s.reaction = answer.myReaction;
            }
            state.set(key, s);
          } else {
            // A refusal with a status wrote nothing.
            t.statusCounts[status] = (t.statusCounts[status] ?? 0) + 1;
            if (errorSamples.length < 5) errorSamples.push(`${target} ${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
          }
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      t.timeouts++;
      req.destroy(new Error('timeout'));
    });
    req.on('error', (err) => {
      if (!settle()) return;
      t.errors++;
      markUnanswered(key, serial);
      if (errorSamples.length < 5) errorSamples.push(`${target} error ${err.message}`);
    });
    req.end(body);
  };

  return runOpenLoop({ ratePerSecond, durationS, maxDrainMs: MAX_DRAIN_MS, inFlight: () => inFlight, fire }).then(
    ({ startAt, startWall, scheduled, maxLagMs }) => {
      for (const [serial, key] of pending) markUnanswered(key, serial);
      pending.clear();
      agent.destroy();
      const summaryOf = (target: Target) => {
        const t = per[target];
        const windowMs = Math.max(1, t.lastAnswerAt - startAt);
        return {
          acknowledged: t.acknowledged,
          windowMs,
          perSecond: (t.acknowledged * 1000) / windowMs,
          errors: t.errors,
          timeouts: t.timeouts,
          statusCounts: t.statusCounts,
          latencyFromDue: summarize(t.fromDue),
          latencyFromSend: summarize(t.fromSend),
        };
      };
      return {
        ratePerSecond,
        durationS,
        scheduled,
        startedAtEpochMs: startWall,
        viral: summaryOf('viral'),
        quiet: summaryOf('quiet'),
        errorSamples,
        // Given up on at the end (the server may still commit them): neither acknowledged nor refused.
        abandoned: inFlight,
        maxInFlight,
        maxSchedulerLagMs: maxLagMs,
      };
    },
  );
}

serve({
  run: async (message) => ({ type: 'result', result: await run(message as unknown as RunCommand) }),
  /** Per (fan index, post): the reaction the latest acknowledged tap left, and whether a later tap went unanswered. */
  state: () => ({
    type: 'state',
    state: [...state.entries()].map(([key, s]) => {
      const [fan, target] = key.split(' ');
      return { fan: Number(fan), target, reaction: s.reaction, acknowledged: s.tap > 0, ambiguous: s.unansweredAfter > s.tap };
    }),
  }),
});
