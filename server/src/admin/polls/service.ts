import { ADMIN_MESSAGES, VOTABLE_CONTESTANT_STATUSES } from '@tribuna/contracts/adminRules';
import type { AdminPollList, AdminPollView, CreatePollInput, PollStatusInput, UpdatePollInput } from '@tribuna/contracts/api/admin/polls';
import type { PollStatus } from '@tribuna/contracts/api/polls';
import type { Db, Tx } from '@tribuna/drizzle/client';
import { findHomePoll } from '../../polls/service.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { EventBus } from '../../events/bus.ts';
import type { LiveStore } from '../../polls/live/store.ts';
import { recordAudit } from '../audit.ts';
import { presentAdminPoll } from './presenter.ts';
import * as repo from './repository.ts';
import {
  CONTESTANT_OPTION_CHANGED,
  cleanDescription,
  cleanEndDate,
  cleanOptions,
  cleanTitle,
  minOptionsMessage,
  pointsConfig,
  type CleanOption,
} from './rules.ts';

export interface AdminPollsContext {
  db: Db;
  events: EventBus;
  /** The polls' live totals (Redis): dropped when a ballot changes, deleted with the poll. */
  live: Pick<LiveStore, 'drop'>;
  log: { warn(obj: object, msg: string): void };
}

/** Who acts: every write is recorded in the audit log under this id. */
export interface Actor {
  id: string;
}

interface PollChange {
  pollId: string;
  status: PollStatus;
  isFeatured: boolean;
}

/**
 * After COMMIT: every instance drops the poll from its cache and tells the poll's viewers (see
 * polls/plugin.ts). The vote path does not rely on this to refuse votes: its batch statement
 * checks the poll's status and options in PostgreSQL (votes/repository.ts), so a vote sent to any
 * instance after the COMMIT is refused even before the event arrives there.
 */
async function publishChanges(ctx: AdminPollsContext, changes: PollChange[]): Promise<void> {
  await Promise.all(changes.map((change) => ctx.events.publish('poll.changed', change)));
}

async function dropLiveTotals(ctx: AdminPollsContext, pollId: string, notify: boolean): Promise<void> {
  await ctx.live.drop(pollId, { notify }).catch((err: unknown) => {
    // The store remembers the poll and drops its totals once Redis is back.
    ctx.log.warn({ err, pollId }, 'live totals of a changed poll not dropped yet');
  });
}

/** One poll as the back-office shows it (two statements); null when it does not exist. */
async function loadView(db: Db | Tx, pollId: string, now: Date): Promise<AdminPollView | null> {
  const [row] = await repo.listAdminPolls(db, { pollId });
  if (!row) return null;
  return presentAdminPoll(row, await repo.listAdminOptions(db, [pollId]), now);
}

async function requireView(tx: Tx, pollId: string, now: Date): Promise<AdminPollView> {
  const view = await loadView(tx, pollId, now);
  if (!view) throw notFound(ADMIN_MESSAGES.pollNotFound);
  return view;
}

/** Polls, newest first, optionally of one season: two statements whatever the number of polls. */
export async function listPolls(db: Db, seasonId: string | undefined, now = new Date()): Promise<AdminPollList> {
  const rows = await repo.listAdminPolls(db, seasonId ? { seasonId } : {});
  const options = await repo.listAdminOptions(
    db,
    rows.map((r) => r.id),
  );
  const byPoll = new Map<string, repo.AdminOptionRow[]>();
  for (const option of options) {
    const list = byPoll.get(option.pollId) ?? [];
    list.push(option);
    byPoll.set(option.pollId, list);
  }
  return { polls: rows.map((row) => presentAdminPoll(row, byPoll.get(row.id) ?? [], now)) };
}

/** New contestant options must be contestants of the poll's season that may be voted for (active or eliminated). */
async function assertVotableContestants(tx: Tx, seasonId: string, contestantIds: string[]): Promise<void> {
  const wanted = [...new Set(contestantIds)];
  if (wanted.length === 0) return;
  const found = await repo.findVotableContestants(tx, seasonId, wanted, VOTABLE_CONTESTANT_STATUSES);
  if (found.length !== wanted.length) throw badRequest(ADMIN_MESSAGES.contestantNotInSeason);
}

/** Creates a poll with its options and points config, in one transaction with its audit row. */
export async function createPoll(ctx: AdminPollsContext, actor: Actor, input: CreatePollInput, now = new Date()): Promise<AdminPollView> {
  const title = cleanTitle(input.title);
  const options = cleanOptions(input.optionType, input.options, minOptionsMessage(input.optionType));
  const endDate = cleanEndDate(input.endDate, now);
  const points = pointsConfig(input.voteMode, input.maxPointsPerUser, input.dailyReset);
  const view = await ctx.db.transaction(async (tx) => {
    if (!(await repo.findLiveSeason(tx, input.seasonId))) throw badRequest(ADMIN_MESSAGES.pollSeasonRequired);
    await assertVotableContestants(
      tx,
      input.seasonId,
      options.flatMap((o) => (o.contestantId ? [o.contestantId] : [])),
    );
    const pollId = await repo.insertPoll(
      tx,
      { title, description: cleanDescription(input.description), seasonId: input.seasonId, status: input.status, endDate, ...points },
      now,
    );
    await repo.insertOptions(
      tx,
      pollId,
      options.map((o, order) => ({ contestantId: o.contestantId, text: o.text, order })),
    );
    const created = await requireView(tx, pollId, now);
    await recordAudit(tx, actor.id, { action: 'poll.create', entityType: 'poll', entityId: pollId, before: null, after: created });
    return created;
  });
  await publishChanges(ctx, [{ pollId: view.id, status: view.status, isFeatured: view.isFeatured }]);
  return view;
}

/**
 * Edits a poll. Season, vote mode and option type are locked. Options keep their ids (and votes);
 * an option left out is deleted when it has no votes, else it leaves the ballot (removed_at) with
 * its votes kept. One transaction with the audit row (before and after).
 */
export async function updatePoll(ctx: AdminPollsContext, actor: Actor, pollId: string, input: UpdatePollInput, now = new Date()): Promise<AdminPollView> {
  const title = cleanTitle(input.title);
  let ballotChanged = false;
  const view = await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockPoll(tx, pollId))) throw notFound(ADMIN_MESSAGES.pollNotFound);
    const [row] = await repo.listAdminPolls(tx, { pollId });
    const allOptions = await repo.listAdminOptions(tx, [pollId]);
    const before = presentAdminPoll(row!, allOptions, now);
    const options = cleanOptions(before.optionType, input.options, ADMIN_MESSAGES.pollLocked);
    const endDate = cleanEndDate(input.endDate, now, row!.endDate);
    const points = pointsConfig(before.voteMode, input.maxPointsPerUser, input.dailyReset, before);

    const existing = new Map(allOptions.map((o) => [o.id, o]));
    const newContestants: string[] = [];
    for (const option of options) {
      const stored = option.id === undefined ? undefined : existing.get(option.id);
      if (option.id !== undefined && !stored) throw badRequest(ADMIN_MESSAGES.optionNotInPoll);
      if (option.contestantId !== null) {
        if (stored && stored.contestantId !== option.contestantId) throw badRequest(CONTESTANT_OPTION_CHANGED);
        if (!stored) newContestants.push(option.contestantId);
      }
    }
    // A contestant already on the poll (say under another option id) is not new.
    const onPoll = new Set(allOptions.filter((o) => o.removedAt === null).map((o) => o.contestantId));
    await assertVotableContestants(
      tx,
      before.seasonId,
      newContestants.filter((id) => !onPoll.has(id)),
    );

    const hasVotes = await repo.lockOptionsWithVotes(tx, pollId);
    const kept = new Set(options.flatMap((o) => (o.id ? [o.id] : [])));
    const removed: string[] = [];
    const deleted: string[] = [];
    for (const option of allOptions) {
      if (kept.has(option.id) || option.removedAt !== null) continue;
      (hasVotes.get(option.id) ? removed : deleted).push(option.id);
    }
    const restored = allOptions.some((o) => o.removedAt !== null && kept.has(o.id));
    ballotChanged = removed.length > 0 || deleted.length > 0 || restored || options.some((o) => !o.id) || orderChanged(allOptions, options);

    await repo.updatePollFields(
      tx,
      pollId,
      { title, description: cleanDescription(input.description), endDate, pollMode: endDate ? 'countdown' : 'manual' },
      now,
    );
    await repo.upsertPointsConfig(tx, pollId, points.maxPointsPerUser, points.dailyReset);
    await repo.writeOptions(tx, pollId, { ballot: options.map(toValues), removed, deleted }, now);
    const after = await requireView(tx, pollId, now);
    await recordAudit(tx, actor.id, {
      action: 'poll.update',
      entityType: 'poll',
      entityId: pollId,
      before,
      after: { ...after, removedOptionIds: removed, deletedOptionIds: deleted },
    });
    return after;
  });
  // The live totals list the ballot's options in order: rebuilt from PostgreSQL when it changed.
  if (ballotChanged) await dropLiveTotals(ctx, pollId, true);
  await publishChanges(ctx, [{ pollId, status: view.status, isFeatured: view.isFeatured }]);
  return view;
}

function toValues(option: CleanOption): repo.OptionValues & { id?: string } {
  return { ...(option.id ? { id: option.id } : {}), contestantId: option.contestantId, text: option.text };
}

function orderChanged(stored: repo.AdminOptionRow[], wanted: CleanOption[]): boolean {
  const before = stored.filter((o) => o.removedAt === null).map((o) => o.id);
  return before.length !== wanted.length || before.some((id, i) => wanted[i]?.id !== id);
}

/**
 * Cerrar (active → closed), Reabrir (closed → active) and activating a draft (draft → active); the
 * last two need at least 2 options on the ballot. Reopening a poll whose countdown ran out drops
 * the countdown (it would still be closed). Anything else: 409.
 */
export async function setPollStatus(ctx: AdminPollsContext, actor: Actor, pollId: string, input: PollStatusInput, now = new Date()): Promise<AdminPollView> {
  const view = await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockPoll(tx, pollId))) throw notFound(ADMIN_MESSAGES.pollNotFound);
    const before = await requireView(tx, pollId, now);
    const from = before.effectiveStatus;
    const allowed = input.status === 'closed' ? before.status === 'active' : from === 'closed' || from === 'draft';
    if (!allowed) throw conflict(ADMIN_MESSAGES.invalidTransition);
    let action = 'poll.close';
    if (input.status === 'active') {
      if ((await repo.countBallotOptions(tx, pollId)) < 2) throw badRequest(ADMIN_MESSAGES.reopenNeedsOptions);
      action = from === 'draft' ? 'poll.activate' : 'poll.reopen';
      const expired = before.endDate !== null && Date.parse(before.endDate) <= now.getTime();
      await repo.updatePollFields(tx, pollId, { status: 'active', ...(expired ? { endDate: null, pollMode: 'manual' as const } : {}) }, now);
    } else {
      await repo.updatePollFields(tx, pollId, { status: 'closed' }, now);
    }
    const after = await requireView(tx, pollId, now);
    await recordAudit(tx, actor.id, { action, entityType: 'poll', entityId: pollId, before: statusPart(before), after: statusPart(after) });
    return after;
  });
  await publishChanges(ctx, [{ pollId, status: view.status, isFeatured: view.isFeatured }]);
  return view;
}

const statusPart = (view: AdminPollView) => ({ status: view.status, effectiveStatus: view.effectiveStatus, endDate: view.endDate });

/**
 * Fijar en Landing: the single featured poll, atomically (clear and set in one transaction, under
 * one lock). The home page shows the featured poll whatever its status (a closed one with its final
 * results); a draft is never public, so featuring one is refused (409) and the flag stays where it
 * was (no status change leads back to draft). The viewers of the polls that lost the flag, and of
 * the poll the home page showed until now, are told (`poll-status` with isFeatured false): the home
 * page loads its poll again.
 */
export async function featurePoll(ctx: AdminPollsContext, actor: Actor, pollId: string, now = new Date()): Promise<AdminPollView> {
  const { view, changes } = await ctx.db.transaction(async (tx) => {
    await repo.lockFeaturedFlag(tx);
    if (!(await repo.lockPoll(tx, pollId))) throw notFound(ADMIN_MESSAGES.pollNotFound);
    const previousHome = await findHomePoll(tx, now);
    const before = await requireView(tx, pollId, now);
    if (before.status === 'draft') throw conflict(ADMIN_MESSAGES.featureDraft);
    const cleared = await repo.setFeatured(tx, pollId, now);
    const after = await requireView(tx, pollId, now);
    await recordAudit(tx, actor.id, {
      action: 'poll.feature',
      entityType: 'poll',
      entityId: pollId,
      before: { isFeatured: before.isFeatured, featuredPollIds: cleared.map((c) => c.id) },
      after: { isFeatured: true },
    });
    const changes: PollChange[] = cleared.map((c) => ({ pollId: c.id, status: c.status, isFeatured: false }));
    if (previousHome && previousHome.id !== pollId && !cleared.some((c) => c.id === previousHome.id)) {
      changes.push({ pollId: previousHome.id, status: previousHome.status, isFeatured: false });
    }
    changes.push({ pollId, status: after.status, isFeatured: true });
    return { view: after, changes };
  });
  await publishChanges(ctx, changes);
  return view;
}

/** Deletes a poll with its votes, options and points config (cascades) and its live totals. */
export async function deletePoll(ctx: AdminPollsContext, actor: Actor, pollId: string, now = new Date()): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockPoll(tx, pollId))) throw notFound(ADMIN_MESSAGES.pollNotFound);
    const before = await requireView(tx, pollId, now);
    await repo.deletePoll(tx, pollId);
    await recordAudit(tx, actor.id, { action: 'poll.delete', entityType: 'poll', entityId: pollId, before, after: null });
  });
  await dropLiveTotals(ctx, pollId, false);
  // Caches drop it (it is gone: votes get 404) and its viewers see it closed.
  await publishChanges(ctx, [{ pollId, status: 'closed', isFeatured: false }]);
}
