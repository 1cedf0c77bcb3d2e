// Snapshot publisher for the hub-alone and comparison runs, in its own process, at a fixed cadence.
//
// - hub: what the votes service does after a commit, one vote per publish: the vote row is
//   inserted in PostgreSQL (so the hub's periodic reconcile finds Redis and PostgreSQL equal), then
//   the live module's own Lua script (server/src/polls/live/scripts.ts) bumps the poll's live totals with
//   `at` = publishedAt and publishes a `poll.votes` event without voters (so, like the comparison
//   servers, the hub sends snapshots only). Tribuna's hub turns it into a results snapshot.
// - snapshots: a complete ResultsSnapshot (committedAt = publishedAt), JSON, on a plain channel
//   that the Socket.IO and raw `ws` servers relay.
import postgres from 'postgres';
import { Redis } from 'ioredis';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { liveKeys } from '@tribuna/contracts/live';
import { busChannel } from '@tribuna/contracts/events';
import { eventHead } from '../../server/src/polls/live/store.ts';
import { defineLiveCommands } from '../../server/src/polls/live/scripts.ts';
import { readParams, serve } from '../lib/child.ts';
import { totalsSignature } from '../lib/signature.ts';

interface Params {
  mode: 'hub' | 'snapshots';
  redisUrl: string;
  redisPrefix: string;
  /** snapshots mode: the channel the comparison servers subscribe to. */
  channel?: string;
  /** hub mode: the bench database. */
  databaseUrl?: string;
  pollId: string;
  optionIds: string[];
  userIds: string[];
}

interface RunCommand {
  type: 'run';
  ratePerSecond: number;
  durationS: number;
}

const LIVE_TTL_MS = 3 * 24 * 3600_000;
const params = readParams<Params>();
const redis = new Redis(params.redisUrl, { maxRetriesPerRequest: 1 });
const sql = params.mode === 'hub' && params.databaseUrl ? postgres(params.databaseUrl, { max: 1, onnotice: () => {} }) : null;
const commands = defineLiveCommands(redis);

/** snapshots mode: the totals as published so far. */
const totals = new Map<string, { votes: number; points: number }>();
let seq = 0;

async function publishHub(publishedAt: () => number): Promise<number> {
  const optionId = params.optionIds[Math.floor(Math.random() * params.optionIds.length)]!;
  const userId = params.userIds[Math.floor(Math.random() * params.userIds.length)]!;
  await sql!`INSERT INTO votes (poll_id, option_id, user_id, points, device_fingerprint, user_agent)
             VALUES (${params.pollId}, ${optionId}, ${userId}, 1, 'bench-publisher', 'tribuna-bench')`;
  const at = publishedAt();
  const head = eventHead({ pollId: params.pollId, committedAt: at, added: [], removed: [] });
  await commands.liveRecord(
    liveKeys.totals(params.redisPrefix, params.pollId),
    liveKeys.voters(params.redisPrefix, params.pollId),
    busChannel(params.redisPrefix),
    LIVE_TTL_MS,
    at,
    head,
    1,
    optionId,
    userId,
    1,
    0,
  );
  return at;
}

function currentSnapshot(committedAt: number): ResultsSnapshot {
  let totalVotes = 0;
  let totalPoints = 0;
  const options = params.optionIds.map((optionId) => {
    const t = totals.get(optionId) ?? { votes: 0, points: 0 };
    totalVotes += t.votes;
    totalPoints += t.points;
    return { optionId, totalVotes: t.votes, totalPoints: t.points };
  });
  return {
    type: 'results',
    topic: `poll:${params.pollId}`,
    pollId: params.pollId,
    seq,
    totalVotes,
    totalPoints,
    totalVoters: Math.min(totalVotes, params.userIds.length),
    options,
    committedAt,
  };
}

async function publishSnapshot(publishedAt: () => number): Promise<number> {
  const optionId = params.optionIds[Math.floor(Math.random() * params.optionIds.length)]!;
  const t = totals.get(optionId) ?? { votes: 0, points: 0 };
  totals.set(optionId, { votes: t.votes + 1, points: t.points + 1 });
  seq++;
  const at = publishedAt();
  await redis.publish(params.channel!, JSON.stringify(currentSnapshot(at)));
  return at;
}

async function run({ ratePerSecond, durationS }: RunCommand): Promise<{ type: 'result' } & Record<string, unknown>> {
  const intervalMs = 1000 / ratePerSecond;
  const count = Math.floor(ratePerSecond * durationS);
  const published: number[] = [];
  let maxLagMs = 0;
  const start = Date.now() + 50;
  for (let i = 0; i < count; i++) {
    const due = start + i * intervalMs;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    maxLagMs = Math.max(maxLagMs, Date.now() - due);
    const at = await (params.mode === 'hub' ? publishHub(Date.now) : publishSnapshot(Date.now));
    published.push(at);
  }
  return {
    type: 'result',
    published,
    maxLagMs,
    finalSignature: params.mode === 'snapshots' ? totalsSignature(currentSnapshot(0)) : null,
  };
}

serve({
  run: (message) => run(message as unknown as RunCommand),
  close: async () => {
    redis.disconnect();
    await sql?.end({ timeout: 2 });
    return { type: 'closed' };
  },
});
