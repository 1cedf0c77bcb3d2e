import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { CommittedVotes, PollVotesEvent, ResultsSnapshot } from '@tribuna/contracts/live';
import { liveKeys } from '@tribuna/contracts/live';
import { BUS_ORIGINS, busChannel } from '@tribuna/contracts/events';
import type { Db } from '@tribuna/drizzle/client';
import { countVotes, isOptionCount } from '../repository.ts';
import { loadLiveTotals } from './repository.ts';
import { defineLiveCommands, LIVE_TTL_MS, type LiveCommands } from './scripts.ts';
import { isComplete, snapshotFromHash, type TotalsHash } from './snapshot.ts';

export interface LiveStoreOptions {
  /** Live totals of a poll nobody votes on or watches expire after this; they rebuild on demand. */
  ttlMs?: number;
  /** A rebuild that has not finished after this long is presumed dead and started over. */
  rebuildStaleMs?: number;
  /** How long a reader waits for totals being rebuilt (by anyone) before giving up. */
  rebuildWaitMs?: number;
  /** Before a reconcile repairs a mismatch it checks again after this long (a batch may be in flight). */
  reconcileConfirmMs?: number;
}

export type RebuildOutcome = 'rebuilt' | 'ready' | 'busy' | 'superseded';
export type ReconcileOutcome = 'ok' | 'missing' | 'busy' | 'mismatch' | 'repaired';

/** Users per script call while rebuilding the voters hash: one call stays short for Redis. */
const VOTERS_PER_CALL = 4000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The start of a `poll.votes` bus message without its seq: the scripts append the seq and the two
 * closing braces (the payload's and the envelope's, see contracts/src/events.ts BusEnvelope).
 */
export function eventHead(event: Omit<PollVotesEvent, 'seq'>): string {
  const envelope = JSON.stringify({ name: 'poll.votes', origin: BUS_ORIGINS.liveTotals, payload: event });
  return `${envelope.slice(0, -2)},"seq":`;
}

/** A whole `poll.votes` message for `seq` (what the scripts publish). */
export const eventMessage = (head: string, seq: number) => `${head}${seq}}}`;

function isNonNegativeInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/**
 * The live totals of every poll in Redis: applied per committed vote batch in one round trip,
 * rebuilt from PostgreSQL when missing, read as result snapshots, and reconciled with PostgreSQL.
 * PostgreSQL stays the source of truth: whatever happens to Redis, the totals can be rebuilt.
 */
export class LiveStore {
  private readonly commands: LiveCommands;
  private readonly channel: string;
  private readonly ttlMs: number;
  private readonly rebuildStaleMs: number;
  private readonly rebuildWaitMs: number;
  private readonly reconcileConfirmMs: number;
  /** Polls whose batch could not be recorded: their totals miss it and are dropped once Redis is back. */
  private readonly failedPolls = new Set<string>();
  /** Rebuilds this process is running or waiting on, one per poll. */
  private readonly ensuring = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly db: Db,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
    options: LiveStoreOptions = {},
  ) {
    this.commands = defineLiveCommands(redis);
    this.channel = busChannel(prefix);
    this.ttlMs = options.ttlMs ?? LIVE_TTL_MS;
    this.rebuildStaleMs = options.rebuildStaleMs ?? 15_000;
    this.rebuildWaitMs = options.rebuildWaitMs ?? 20_000;
    this.reconcileConfirmMs = options.reconcileConfirmMs ?? 1000;
  }

  private keys(pollId: string): [string, string] {
    return [liveKeys.totals(this.prefix, pollId), liveKeys.voters(this.prefix, pollId)];
  }

  /** Polls waiting for their totals to be dropped (and so rebuilt) once Redis is reachable. */
  get pendingRepairs(): number {
    return this.failedPolls.size;
  }

  private assertReady(): void {
    if (this.redis.status !== 'ready') throw new Error(`Redis unavailable (${this.redis.status})`);
  }

  /**
   * Applies a committed batch to the totals and publishes its `votes` event, in one round trip.
   * Rejects at once when Redis is down; the poll is then remembered so its totals (which miss this
   * batch) are dropped and rebuilt from PostgreSQL when Redis is back.
   */
  async recordVotes(committed: CommittedVotes): Promise<void> {
    const { pollId, committedAt, added, removed } = committed;
    if (added.length === 0 && removed.length === 0) return;
    if (!Number.isFinite(committedAt)) throw new TypeError('recordVotes: committedAt must be a number (ms since epoch)');
    for (const row of [...added, ...removed]) {
      if (!isNonNegativeInteger(row.points) || typeof row.optionId !== 'string' || typeof row.userId !== 'string') {
        throw new TypeError(`recordVotes: invalid row ${JSON.stringify(row)}`);
      }
    }
    const args: (string | number)[] = [
      this.channel,
      this.ttlMs,
      Math.trunc(committedAt),
      eventHead({
        pollId,
        committedAt,
        added,
        removed: removed.map(({ optionId, userId, hidden }) => (hidden ? { optionId, userId, hidden } : { optionId, userId })),
      }),
      added.length,
    ];
    for (const row of added) args.push(row.optionId, row.userId, row.points);
    args.push(removed.length);
    for (const row of removed) args.push(row.optionId, row.userId, row.points);
    try {
      this.assertReady();
      await this.commands.liveRecord(...this.keys(pollId), ...args);
    } catch (err) {
      this.failedPolls.add(pollId);
      throw err;
    }
  }

  /** Drops the totals of polls whose batches were lost while Redis was down: readers rebuild them from PostgreSQL. */
  async repairFailed(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    for (const pollId of [...this.failedPolls]) {
      try {
        // The event makes every instance with viewers of the poll read it again, and so rebuild it.
        const refresh = eventHead({ pollId, committedAt: 0, added: [], removed: [] });
        await this.redis
          .multi()
          .del(...this.keys(pollId))
          .publish(this.channel, eventMessage(refresh, 0))
          .exec();
        this.failedPolls.delete(pollId);
        this.log.info({ pollId }, 'live totals dropped after a lost vote batch; they rebuild from PostgreSQL');
      } catch (err) {
        this.log.warn({ err, pollId }, 'live totals could not be dropped yet');
        return;
      }
    }
  }

  /**
   * Drops a poll's totals: its ballot changed (an option removed, restored or added) or it was
   * deleted. With `notify`, every instance's viewers of the poll read it again, and so rebuild the
   * totals from PostgreSQL. When Redis is unavailable the poll waits with the lost batches and is
   * dropped once Redis is back (repairFailed).
   */
  async drop(pollId: string, { notify = true }: { notify?: boolean } = {}): Promise<void> {
    try {
      this.assertReady();
      const multi = this.redis.multi().del(...this.keys(pollId));
      if (notify) {
        const refresh = eventHead({ pollId, committedAt: 0, added: [], removed: [] });
        multi.publish(this.channel, eventMessage(refresh, 0));
      }
      await multi.exec();
    } catch (err) {
      this.failedPolls.add(pollId);
      throw err;
    }
  }

  /** The live seq of a poll (null when its totals are missing or Redis is unavailable). Never throws. */
  async currentSeq(pollId: string): Promise<number | null> {
    if (this.redis.status !== 'ready') return null;
    try {
      const seq = await this.redis.hget(this.keys(pollId)[0], 'seq');
      return seq === null ? null : Number(seq);
    } catch {
      return null;
    }
  }

  private async readHash(pollId: string): Promise<{ hash: TotalsHash; voters: number }> {
    const [totalsKey, votersKey] = this.keys(pollId);
    const replies = await this.redis.pipeline().hgetall(totalsKey).hlen(votersKey).exec();
    if (!replies) throw new Error('Redis pipeline aborted');
    const [[hashErr, hash], [votersErr, voters]] = replies as [[Error | null, TotalsHash], [Error | null, number]];
    if (hashErr) throw hashErr;
    if (votersErr) throw votersErr;
    return { hash, voters };
  }

  /**
   * The current totals of a poll as a snapshot: one HGETALL + HLEN round trip. Missing totals are
   * rebuilt from PostgreSQL first (once per poll, however many callers wait).
   */
  async readSnapshot(pollId: string): Promise<ResultsSnapshot> {
    const deadline = Date.now() + this.rebuildWaitMs;
    for (;;) {
      const { hash, voters } = await this.readHash(pollId);
      if (isComplete(hash)) return snapshotFromHash(pollId, hash, voters);
      if (Date.now() > deadline) throw new Error(`live totals of poll ${pollId} are still being rebuilt`);
      await this.ensureTotals(pollId);
    }
  }

  /** Rebuilds missing totals, or waits a moment while another process rebuilds them. */
  private ensureTotals(pollId: string): Promise<void> {
    let pending = this.ensuring.get(pollId);
    if (!pending) {
      pending = this.rebuild(pollId)
        .then(async (outcome) => {
          if (outcome === 'busy' || outcome === 'superseded') await sleep(100);
        })
        .finally(() => this.ensuring.delete(pollId));
      this.ensuring.set(pollId, pending);
    }
    return pending;
  }

  /**
   * Rebuilds the totals of a poll from PostgreSQL. Without `force`, only when they are missing.
   * Batches recorded while PostgreSQL is read are kept as deltas and added to its rows, so none is
   * lost; a batch committed just before the read and recorded just after it may count twice until
   * the next reconcile (the window is the PostgreSQL round trip, not the whole rebuild).
   */
  async rebuild(pollId: string, { force = false }: { force?: boolean } = {}): Promise<RebuildOutcome> {
    this.assertReady();
    const keys = this.keys(pollId);
    const token = randomUUID();
    const began = await this.commands.liveBeginRebuild(...keys, token, force ? '1' : '0', this.rebuildStaleMs, this.ttlMs);
    if (began === 0) return 'ready';
    if (began === -1) return 'busy';
    try {
      const rows = await loadLiveTotals(this.db, pollId);
      const voters = rows.voters;
      let offset = 0;
      for (; voters.length - offset > VOTERS_PER_CALL; offset += VOTERS_PER_CALL) {
        const chunk = voters.slice(offset, offset + VOTERS_PER_CALL);
        const args: (string | number)[] = [token, '0', this.ttlMs, chunk.length];
        for (const v of chunk) args.push(v.userId, v.rows);
        if ((await this.commands.liveFinishRebuild(...keys, ...args)) === -1) return 'superseded';
      }
      const last = voters.slice(offset);
      const perOption = new Map(rows.counts.filter(isOptionCount).map((c) => [c.optionId, c]));
      // Options voted for but no longer listed (cannot happen with the FK cascade; kept for safety).
      const optionIds = [...rows.optionIds, ...[...perOption.keys()].filter((id) => !rows.optionIds.includes(id))];
      const args: (string | number)[] = [token, '1', this.ttlMs, last.length];
      for (const v of last) args.push(v.userId, v.rows);
      args.push(
        rows.lastVoteAt,
        rows.optionIds.join(','),
        this.channel,
        eventHead({ pollId, committedAt: rows.lastVoteAt, added: [], removed: [] }),
        optionIds.length,
      );
      for (const id of optionIds) args.push(id, perOption.get(id)?.totalVotes ?? 0, perOption.get(id)?.totalPoints ?? 0);
      const seq = await this.commands.liveFinishRebuild(...keys, ...args);
      if (seq === -1) return 'superseded';
      this.log.debug({ pollId, seq, voters: voters.length }, 'live totals rebuilt from PostgreSQL');
      return 'rebuilt';
    } catch (err) {
      await this.commands.liveAbortRebuild(...keys, token).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Compares the live totals with PostgreSQL. Only conclusive when no batch was recorded while
   * PostgreSQL was read (seq unchanged): otherwise 'busy', and the next round tries again.
   */
  async compare(pollId: string): Promise<Exclude<ReconcileOutcome, 'repaired'>> {
    const [seqBefore, building] = await this.redis.hmget(this.keys(pollId)[0], 'seq', 'rb');
    if (seqBefore === null) return 'missing';
    if (building !== null) return 'busy';
    const counts = await countVotes(this.db, pollId);
    const { hash, voters } = await this.readHash(pollId);
    if (!isComplete(hash)) return 'busy';
    if (hash.seq !== seqBefore) return 'busy';
    const total = counts.find((c) => c.isTotal);
    const expected = new Map<string, number>([
      ['tv', total?.totalVotes ?? 0],
      ['tp', total?.totalPoints ?? 0],
    ]);
    for (const c of counts) {
      if (c.isTotal) continue;
      expected.set(`v:${c.optionId}`, c.totalVotes);
      expected.set(`p:${c.optionId}`, c.totalPoints);
    }
    if (voters !== (total?.totalVoters ?? 0)) return 'mismatch';
    for (const [field, value] of expected) if (Number(hash[field] ?? 0) !== value) return 'mismatch';
    for (const field in hash) {
      if ((field.startsWith('v:') || field.startsWith('p:')) && !expected.has(field) && Number(hash[field]) !== 0) return 'mismatch';
    }
    return 'ok';
  }

  /** compare(), and a forced rebuild when a mismatch is confirmed by a second comparison. */
  async reconcile(pollId: string): Promise<ReconcileOutcome> {
    const first = await this.compare(pollId);
    if (first !== 'mismatch') return first;
    await sleep(this.reconcileConfirmMs);
    const second = await this.compare(pollId);
    if (second !== 'mismatch') return second;
    this.log.warn({ pollId }, 'live totals differed from PostgreSQL; rebuilding them');
    const outcome = await this.rebuild(pollId, { force: true });
    return outcome === 'rebuilt' ? 'repaired' : 'busy';
  }
}
