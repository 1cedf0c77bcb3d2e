import type { FastifyBaseLogger } from 'fastify';
import { ABUSE_LIMITS, ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseScanView, AbuseVoteList, LatestAbuseScan, VoidResult } from '@tribuna/contracts/api/admin/abuse';
import type { CommittedVotes } from '@tribuna/contracts/live';
import { isPointsMode } from '@tribuna/contracts/pollRules';
import type { Db } from '@tribuna/drizzle/client';
import { badRequest } from '../../http/errors.ts';
import type { Outbox } from '../../outbox/plugin.ts';
import { recordCorrections } from '../../polls/live/corrections.ts';
import type { LiveStore } from '../../polls/live/store.ts';
import { voterName } from '../../votes/presenter.ts';
import { lockVoters } from '../../votes/service.ts';
import { recordAudit } from '../audit.ts';
import { presentAbuseVote, presentScan } from './presenter.ts';
import * as repo from './repository.ts';

export interface AbuseContext {
  db: Db;
  outbox: Pick<Outbox, 'enqueue' | 'deliver'>;
  /** The polls' live totals: voided and restored votes leave and rejoin them at once. */
  live: LiveStore;
  timeZone: string;
  log: FastifyBaseLogger;
}

export interface Actor {
  id: string;
}

/** A queued or running scan older than this never finished (its worker died): a new request replaces it. */
export const SCAN_STALE_MS = 30 * 60 * 1000;
export const SCAN_INTERRUPTED = ABUSE_MESSAGES.scanInterrupted;
export const VOID_REASON_TOO_LONG = `El motivo admite como máximo ${ABUSE_LIMITS.voidReason} caracteres`;

export async function latestScan(db: Db): Promise<LatestAbuseScan> {
  const row = await repo.findLatestScan(db);
  return { scan: row ? presentScan(row) : null };
}

/**
 * Queues a scan for the worker (POST answers 202 with it); when one is already queued or running,
 * answers that one instead of a second. Queued and running scans older than SCAN_STALE_MS are
 * marked failed first. The job is recorded in the outbox in the row's own transaction and enqueued
 * right after COMMIT; while Redis is down (or if this instance dies first) the outbox's relay
 * enqueues it later, and the scan waits queued meanwhile.
 */
export async function startScan(ctx: AbuseContext, admin: Actor, now = new Date()): Promise<AbuseScanView> {
  const { scan, job } = await ctx.db.transaction(async (tx) => {
    await repo.lockScanStart(tx);
    const staleBefore = new Date(now.getTime() - SCAN_STALE_MS);
    await repo.failStaleScans(tx, staleBefore, SCAN_INTERRUPTED);
    const active = await repo.findActiveScan(tx, staleBefore);
    if (active) return { scan: active, job: null };
    const queued = await repo.insertQueuedScan(tx, admin.id);
    await recordAudit(tx, admin.id, { action: 'abuse.scan', entityType: 'abuse_scan', entityId: queued.id, before: null, after: { status: 'queued' } });
    return { scan: queued, job: await ctx.outbox.enqueue(tx, 'abuse.scan', { scanId: queued.id }, { jobId: `abuse-scan.${queued.id}` }) };
  });
  if (job !== null) await ctx.outbox.deliver([job]);
  return presentScan(scan);
}

/** The live and voided votes of one device or one user (exactly one of the two), newest first. */
export async function listAbuseVotes(db: Db, query: { fingerprint?: string; userId?: string }): Promise<AbuseVoteList> {
  const { fingerprint, userId } = query;
  if ((fingerprint === undefined) === (userId === undefined)) throw badRequest(ABUSE_MESSAGES.votesQueryOne);
  const by = fingerprint !== undefined ? { fingerprint } : { userId: userId! };
  const rows = await repo.listVotes(db, by, ABUSE_LIMITS.votesListed + 1);
  return { items: rows.slice(0, ABUSE_LIMITS.votesListed).map(presentAbuseVote), truncated: rows.length > ABUSE_LIMITS.votesListed };
}

/** The reason as stored: trimmed, 3 to 500 characters. */
export function voidReason(raw: string): string {
  const reason = raw.trim();
  if (reason.length < ABUSE_LIMITS.voidReasonMin) throw badRequest(ABUSE_MESSAGES.voidReasonRequired);
  if (reason.length > ABUSE_LIMITS.voidReason) throw badRequest(VOID_REASON_TOO_LONG);
  return reason;
}

const pollIdsOf = (rows: readonly repo.MovedVote[]) => [...new Set(rows.map((r) => r.pollId))].sort();

/** Per poll, the moved votes on its ballot as a committed batch (`removed` for a void, `added` for a restore). */
async function liveChanges(ctx: AbuseContext, rows: readonly repo.MovedVote[], as: 'added' | 'removed'): Promise<CommittedVotes[]> {
  const counted = rows.filter((r) => r.onBallot);
  // Restored votes name their fans; voided ones only need to know who may not be named.
  const names = new Map((await repo.voterProfiles(ctx.db, [...new Set(counted.map((r) => r.userId))])).map((p) => [p.userId, p]));
  const byPoll = new Map<string, CommittedVotes>();
  const committedAt = Date.now();
  for (const row of counted) {
    let change = byPoll.get(row.pollId);
    if (!change) byPoll.set(row.pollId, (change = { pollId: row.pollId, committedAt, added: [], removed: [] }));
    if (as === 'added') change.added.push({ optionId: row.optionId, userId: row.userId, ...voterName(names.get(row.userId)), points: row.points });
    else {
      const hidden = names.get(row.userId)?.listed === false;
      change.removed.push({ optionId: row.optionId, userId: row.userId, points: row.points, ...(hidden ? { hidden: true as const } : {}) });
    }
  }
  return [...byPoll.values()];
}

/**
 * Voids votes after review, in ONE transaction: the (user, poll) pairs are locked as the vote
 * writer locks them, the rows move from `votes` to `voided_votes` with who and why (the triggers
 * on `votes` correct vote_tallies and poll_vote_counts), and the audit row is written. After
 * COMMIT the voided votes leave the live totals: viewers get a snapshot with the corrected bars.
 * Ids already voided or unknown are counted in `skipped`.
 */
export async function voidVotes(ctx: AbuseContext, admin: Actor, input: { voteIds: string[]; reason: string }): Promise<VoidResult> {
  const reason = voidReason(input.reason);
  const ids = [...new Set(input.voteIds)];
  const moved = await ctx.db.transaction(async (tx) => {
    await lockVoters(tx, await repo.voterKeysOf(tx, 'votes', ids));
    const rows = await repo.moveToVoided(tx, ids, admin.id, reason);
    if (rows.length > 0) {
      await recordAudit(tx, admin.id, {
        action: 'votes.void',
        entityType: 'vote',
        entityId: null,
        before: null,
        after: { voteIds: rows.map((r) => r.id), reason, pollIds: pollIdsOf(rows) },
      });
    }
    return rows;
  });
  await recordCorrections(ctx.live, await liveChanges(ctx, moved, 'removed'), ctx.log);
  return { changed: moved.length, skipped: ids.length - moved.length, pollIds: pollIdsOf(moved) };
}

/**
 * Which voided votes may go back: their option still exists; on a single-choice poll, only when the
 * user has no vote there now, and then only the newest of theirs asked for; on a points poll, while
 * the user's points (of the vote's day when the poll resets daily, else all of them) stay within
 * the maximum, oldest first.
 */
export function restorable(candidates: readonly repo.VoidedCandidate[], standing: readonly repo.PairStanding[]): string[] {
  const now = new Map(standing.map((s) => [`${s.userId}|${s.pollId}`, s]));
  const accepted: string[] = [];
  const singleTaken = new Set<string>();
  const spent = new Map<string, number>();
  // Newest first for single choice (the latest choice comes back), oldest first for points.
  const single = candidates.filter((c) => c.optionExists && !isPointsMode(c)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  for (const c of single) {
    const pair = `${c.userId}|${c.pollId}`;
    if (singleTaken.has(pair) || (now.get(pair)?.ballotVotes ?? 0) > 0) continue;
    singleTaken.add(pair);
    accepted.push(c.id);
  }
  for (const c of candidates.filter((c) => c.optionExists && isPointsMode(c))) {
    const pair = `${c.userId}|${c.pollId}`;
    const window = c.dailyReset ? `${pair}|${c.day}` : pair;
    if (!spent.has(window)) {
      const byDay = now.get(pair)?.pointsByDay ?? new Map<string, number>();
      spent.set(window, c.dailyReset ? (byDay.get(c.day) ?? 0) : [...byDay.values()].reduce((a, b) => a + b, 0));
    }
    const used = spent.get(window)!;
    if (used + c.points > c.maxPointsPerUser) continue;
    spent.set(window, used + c.points);
    accepted.push(c.id);
  }
  return accepted;
}

/**
 * Restores voided votes (ONE transaction, the pairs locked as the vote writer locks them): each
 * goes back to `votes` with its original id and time unless the user has voted again since on a
 * single-choice poll or it would take them over the poll's maximum points (see restorable); those,
 * and ids not voided, count in `skipped`. After COMMIT they rejoin the live totals.
 */
export async function restoreVotes(ctx: AbuseContext, admin: Actor, input: { voteIds: string[] }): Promise<VoidResult> {
  const ids = [...new Set(input.voteIds)];
  const moved = await ctx.db.transaction(async (tx) => {
    await lockVoters(tx, await repo.voterKeysOf(tx, 'voided_votes', ids));
    const candidates = await repo.findVoided(tx, ids, ctx.timeZone);
    const pairs = [...new Map(candidates.map((c) => [`${c.userId}|${c.pollId}`, { userId: c.userId, pollId: c.pollId }])).values()];
    const accepted = restorable(candidates, await repo.standingOf(tx, pairs, ctx.timeZone));
    const rows = await repo.moveBack(tx, accepted);
    if (rows.length > 0) {
      await recordAudit(tx, admin.id, {
        action: 'votes.restore',
        entityType: 'vote',
        entityId: null,
        before: null,
        after: { voteIds: rows.map((r) => r.id), pollIds: pollIdsOf(rows), skipped: ids.length - rows.length },
      });
    }
    return rows;
  });
  await recordCorrections(ctx.live, await liveChanges(ctx, moved, 'added'), ctx.log);
  return { changed: moved.length, skipped: ids.length - moved.length, pollIds: pollIdsOf(moved) };
}
