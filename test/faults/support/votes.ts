// Fans voting against real server processes, and the checks a fault test makes afterwards: every
// acknowledged vote is in PostgreSQL exactly once, and the counters and the results endpoint agree
// with a direct count.
import { randomBytes } from 'node:crypto';
import type { Database } from '@tribuna/drizzle/client';
import { SESSION_COOKIE } from '../../../server/src/identity/sessions/constants.ts';
import { startSession } from '../../../server/src/identity/sessions/service.ts';
import { buildPoll, buildUser } from '../../support/factories.ts';

export interface Fan {
  userId: string;
  /** `tribuna_session=<token>` */
  cookie: string;
}

/** `count` users, each with a real session (the row a sign-in writes), and a points poll they can vote on many times. */
export async function seedFansAndPoll(db: Database['db'], count: number, { options = 3 } = {}) {
  const { poll, options: optionRows } = await buildPoll(db, { options, maxPointsPerUser: 1000, endDate: new Date(Date.now() + 86_400_000) });
  const fans: Fan[] = [];
  for (let i = 0; i < count; i++) {
    const user = await buildUser(db);
    const session = await startSession(db, { userId: user.id, mfaPending: false, userAgent: 'tribuna-faults' });
    fans.push({ userId: user.id, cookie: `${SESSION_COOKIE}=${session.token}` });
  }
  return { poll, optionIds: optionRows.map((o) => o.id), fans };
}

export interface VoteAttempt {
  /** HTTP status, or 0 when the request got no answer (refused, reset, timed out). */
  status: number;
  error?: string;
}

/** POST /api/polls/:pollId/votes as the web client sends it: one point on `optionId`, with an Idempotency-Key. */
export async function castVote(baseUrl: string, fan: Fan, pollId: string, optionId: string, key: string, timeoutMs = 15_000): Promise<VoteAttempt> {
  try {
    const res = await fetch(`${baseUrl}/api/polls/${pollId}/votes`, {
      method: 'POST',
      headers: { cookie: fan.cookie, 'x-requested-with': 'tribuna', 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ allocations: [{ optionId, points: 1 }], deviceFingerprint: 'faults-device-0001' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (err) {
    return { status: 0, error: String((err as Error).cause ?? err) };
  }
}

export interface VoteRecord {
  userId: string;
  key: string;
  /** Every attempt's status, in order (0: no answer). */
  attempts: number[];
  acknowledged: boolean;
}

export interface VoteLoadOptions {
  fans: Fan[];
  pollId: string;
  optionIds: string[];
  votesPerFan: number;
  /**
   * The instance a fan sends its next attempt to. `failedOver` is how many attempts of this fan went
   * unanswered so far: a client that lost its server retries on the next one.
   */
  target: (failedOver: number) => string;
  /** Pause between a fan's votes (ms), so the load spans the fault. */
  thinkMs?: number;
  /** An attempt answered like this (or unanswered) is retried with the same key, up to maxAttempts. */
  retryable?: (status: number) => boolean;
  maxAttempts?: number;
  retryDelayMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every fan casts `votesPerFan` votes one after another, all fans at once; each vote keeps its
 * Idempotency-Key across retries. Resolves with every vote's record once all have been acknowledged
 * or have used up their attempts. `progress` counts acknowledgements as they come.
 */
export function runVoteLoad(options: VoteLoadOptions) {
  const { fans, pollId, optionIds, votesPerFan, target, thinkMs = 0, maxAttempts = 60, retryDelayMs = 200 } = options;
  const retryable = options.retryable ?? ((status: number) => status === 0 || status === 429 || status === 503);
  const records: VoteRecord[] = [];
  const progress = { acknowledged: 0, statuses: new Map<number, number>() };
  const runFan = async (fan: Fan, fanIndex: number) => {
    let failedOver = 0;
    for (let i = 0; i < votesPerFan; i++) {
      const record: VoteRecord = { userId: fan.userId, key: `faults-${fanIndex}-${i}-${randomBytes(6).toString('hex')}`, attempts: [], acknowledged: false };
      records.push(record);
      const optionId = optionIds[(fanIndex + i) % optionIds.length]!;
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        const result = await castVote(target(failedOver), fan, pollId, optionId, record.key);
        record.attempts.push(result.status);
        progress.statuses.set(result.status, (progress.statuses.get(result.status) ?? 0) + 1);
        if (result.status === 201) {
          record.acknowledged = true;
          progress.acknowledged++;
          break;
        }
        if (result.status === 0) failedOver++;
        if (!retryable(result.status)) break;
        await sleep(retryDelayMs);
      }
      if (thinkMs > 0) await sleep(thinkMs / 2 + Math.random() * thinkMs);
    }
  };
  const done = Promise.all(fans.map(runFan)).then(() => records);
  return { done, progress, records };
}

export interface StoredVotes {
  /** vote_requests rows of the poll (one per committed request). */
  requests: number;
  /** Of those, requests committed whose answer was never stored (their server died right after COMMIT). */
  answerless: number;
  /** votes rows of the poll. */
  rows: number;
  points: number;
  /** Acknowledged keys with no vote_requests row: lost votes. */
  lostKeys: string[];
  /** Users whose vote rows differ from their committed requests (each request wrote one row of one point). */
  usersOff: { userId: string; requests: number; rows: number; points: number }[];
  /** Per option: the direct count, the poll_vote_counts counters and the results endpoint. */
  perOption: { optionId: string; rows: number; points: number; counterVotes: number; counterPoints: number }[];
}

/** What PostgreSQL holds for the poll, checked against the votes the fans saw acknowledged. */
export async function readStoredVotes(sql: Database['sql'], pollId: string, records: VoteRecord[]): Promise<StoredVotes> {
  const requests = await sql<{ user_id: string; key: string; answered: boolean }[]>`
    SELECT user_id, key, response IS NOT NULL AS answered FROM vote_requests WHERE poll_id = ${pollId}`;
  const stored = new Set(requests.map((r) => `${r.user_id}|${r.key}`));
  const lostKeys = records.filter((r) => r.acknowledged && !stored.has(`${r.userId}|${r.key}`)).map((r) => r.key);
  const perUser = await sql<{ user_id: string; rows: number; points: number }[]>`
    SELECT user_id, count(*)::int AS rows, sum(points)::int AS points FROM votes WHERE poll_id = ${pollId} GROUP BY user_id`;
  const requestsByUser = new Map<string, number>();
  for (const r of requests) requestsByUser.set(r.user_id, (requestsByUser.get(r.user_id) ?? 0) + 1);
  const votesByUser = new Map(perUser.map((u) => [u.user_id, u]));
  const usersOff: StoredVotes['usersOff'] = [];
  for (const userId of new Set([...requestsByUser.keys(), ...votesByUser.keys()])) {
    const n = requestsByUser.get(userId) ?? 0;
    const v = votesByUser.get(userId);
    if (!v || v.rows !== n || v.points !== n) usersOff.push({ userId, requests: n, rows: v?.rows ?? 0, points: v?.points ?? 0 });
  }
  const perOption = await sql<{ option_id: string; rows: number; points: number; counter_votes: number; counter_points: number }[]>`
    SELECT o.id AS option_id,
      (SELECT count(*)::int FROM votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id) AS rows,
      (SELECT coalesce(sum(points), 0)::int FROM votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id) AS points,
      (SELECT coalesce(sum(votes), 0)::int FROM poll_vote_counts c WHERE c.poll_id = o.poll_id AND c.option_id = o.id) AS counter_votes,
      (SELECT coalesce(sum(points), 0)::int FROM poll_vote_counts c WHERE c.poll_id = o.poll_id AND c.option_id = o.id) AS counter_points
    FROM poll_options o WHERE o.poll_id = ${pollId} ORDER BY o.order`;
  const rows = perOption.reduce((sum, o) => sum + o.rows, 0);
  const points = perOption.reduce((sum, o) => sum + o.points, 0);
  return {
    requests: requests.length,
    answerless: requests.filter((r) => !r.answered).length,
    rows,
    points,
    lostKeys,
    usersOff,
    perOption: perOption.map((o) => ({
      optionId: o.option_id,
      rows: o.rows,
      points: o.points,
      counterVotes: o.counter_votes,
      counterPoints: o.counter_points,
    })),
  };
}

/** GET /api/polls/:pollId/results: per option, the totals the public sees. */
export async function fetchResults(baseUrl: string, pollId: string) {
  const res = await fetch(`${baseUrl}/api/polls/${pollId}/results`);
  if (res.status !== 200) throw new Error(`results answered ${res.status}`);
  return (await res.json()) as { totalVotes: number; totalPoints: number; options: { optionId: string; totalVotes: number; totalPoints: number }[] };
}

/** Status → count, for the report. */
export const statusSummary = (statuses: Map<number, number>) =>
  Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => [status === 0 ? 'no answer' : String(status), n]));
