import type { FastifyBaseLogger } from 'fastify';
import type {
  ModerationActionInput,
  ModerationActionResult,
  ModerationCount,
  ModerationItem,
  ModerationQueue,
  ModerationQueueQuery,
  ReportInput,
  ReportReceipt,
} from '@tribuna/contracts/api/moderation';
import type { WallLiveEvent } from '@tribuna/contracts/api/wall';
import {
  ACTIONS_THAT_ACT,
  MODERATION_LIMITS,
  MODERATION_MESSAGES,
  MODERATION_QUEUE_TEXTS,
  SILENCE_DURATION_MS,
  type ModerationAction,
  type ReportStatus,
} from '@tribuna/contracts/moderationRules';
import type { Role } from '@tribuna/contracts/roles';
import type { Db } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import type { Viewer } from '../access/policy.ts';
import { recordAudit } from '../admin/audit.ts';
import { suspendAccount } from '../admin/users/service.ts';
import { runAfterCommit, type AfterCommit } from '../events/bus.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import type { SessionCache } from '../identity/sessions/cache.ts';
import * as wall from '../wall/service.ts';
import type { ReportsResolved } from './activity.ts';
import { presentItem } from './presenter.ts';
import * as repo from './repository.ts';

// Moderation (issue 29): fans report posts, comments and profiles; site admins and moderators work
// the queue of reported items and act on them, each action in one transaction with its audit entry,
// the closing of the item's open reports and the reporters' notifications; an item reported by
// enough trusted fans hides itself pending review.

export interface ModerationContext {
  /** For transactions. */
  db: Db;
  /** Reads outside transactions. */
  reader: SqlRunner;
  /** Distinct trusted reporters (accounts older than a day) whose open reports hide an item (MODERATION_AUTO_HIDE_REPORTERS). */
  autoHideReporters: number;
  /** The app's session cache: a silenced user's cached sessions carry their silence and go before the write. */
  sessionCache: SessionCache;
  /** Runs the other domains' statements for closed reports inside the action's transaction (the reporters' notifications). */
  joinTransaction(tx: SqlRunner, resolved: ReportsResolved): Promise<AfterCommit[]>;
  /** Tells every instance's wall readers that an item left it (after commit). Never throws. */
  publishWall(event: WallLiveEvent): Promise<void>;
  /** Tells every instance that the queue changed (its `moderation` topic's count). Never throws. */
  announce(): Promise<void>;
  log: FastifyBaseLogger;
}

/** Site staff working the queue (holdsModerationPowers passed): `isAdmin` holds admin powers (suspensions). */
export interface Staff {
  id: string;
  isAdmin: boolean;
}

const REASON_TOO_LONG = MODERATION_QUEUE_TEXTS.reasonTooLong;
/** The author's history in the queue: their latest actions. */
const HISTORY_SIZE = 10;

/** Optional free text trimmed, null when empty, refused beyond `max` characters. */
function optionalText(raw: string | undefined, max: number, tooLong: string): string | null {
  const text = raw?.trim() ?? '';
  if (!text) return null;
  if ([...text].length > max) throw badRequest(tooLong);
  return text;
}

// --- Reports ----------------------------------------------------------------------------------------

/**
 * POST /api/reports: a post, comment or profile the reporter may see (else 404), not their own
 * (400), one open report per reporter and item (409, whoever wins a race). In the same
 * transaction, the item hides itself pending review once enough trusted fans have open reports on
 * it (auto-hide); after commit the staff's count changes, and a hidden item leaves the walls.
 */
export async function createReport(ctx: ModerationContext, reporter: Viewer, input: ReportInput, now = new Date()): Promise<ReportReceipt> {
  const comment = optionalText(input.comment, MODERATION_LIMITS.reportComment, MODERATION_MESSAGES.reportCommentTooLong);
  const item: repo.ReportedItem = { type: input.targetType, id: input.targetId };
  const { id, hidden } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    const target = await repo.lockReportTarget(runner, item, reporter);
    if (!target || !target.visible) throw notFound(MODERATION_MESSAGES.targetNotFound);
    if (target.ownerId === reporter.id) throw badRequest(MODERATION_MESSAGES.reportSelf);
    const reportId = await repo.insertReport(runner, { reporterId: reporter.id, item, targetUserId: target.ownerId, reason: input.reason, comment, at: now });
    if (reportId === null) throw conflict(MODERATION_MESSAGES.alreadyReported);
    const hide = item.type !== 'profile' && !target.isHidden && (await autoHides(ctx, runner, item, now));
    if (hide) await wall.setHiddenByModeration(tx, { kind: item.type as wall.WallItem['kind'], id: item.id }, true, now);
    return { id: reportId, hidden: hide ? { kind: item.type as wall.WallItem['kind'], id: item.id, postId: target.postId! } : null };
  });
  const work: Promise<unknown>[] = [ctx.announce()];
  if (hidden) work.push(leaveWalls(ctx, hidden, hidden.postId));
  await runAfterCommit(work, ctx.log, 'after-commit work of a report');
  return { id, message: MODERATION_MESSAGES.reported };
}

/** Whether the item's open reports now come from enough distinct trusted fans (accounts older than a day at `now`). */
async function autoHides(ctx: ModerationContext, tx: SqlRunner, item: repo.ReportedItem, now: Date): Promise<boolean> {
  const trustedBefore = new Date(now.getTime() - MODERATION_LIMITS.trustedAccountAgeMs);
  return (await repo.trustedOpenReporters(tx, item, trustedBefore)) >= ctx.autoHideReporters;
}

/** An item hidden or deleted left the walls: every open wall and thread drops it, shared pages go. */
async function leaveWalls(ctx: ModerationContext, item: wall.WallItem, postId: string): Promise<void> {
  await ctx.publishWall(await wall.removalEvent(ctx.reader, item, postId));
}

// --- The queue --------------------------------------------------------------------------------------

const CURSOR = /^(\d{1,17})\.([0-9a-f-]{36})$/;

export function encodeQueueCursor(position: { atMicros: bigint | string; targetId: string }): string {
  return Buffer.from(`${position.atMicros}.${position.targetId}`).toString('base64url');
}

export function decodeQueueCursor(cursor: string): repo.QueuePosition | null {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? { atMicros: BigInt(match[1]!), targetId: match[2]! } : null;
}

/** The item's and its author's state, as the actions depend on it. */
interface ActionState {
  targetType: repo.ReportedItem['type'];
  state: 'visible' | 'hidden' | 'deleted';
  openReports: number;
  owner: { role: Role; deleted: boolean; suspended: boolean; silencedNow: boolean };
}

/**
 * What `staff` may do with an item now: 'Descartar' while it has open reports; 'Ocultar' a visible
 * post or comment, 'Restaurar' one hidden by moderation, 'Eliminar' one not deleted; 'Silenciar' and
 * 'Quitar silencio' its author, 'Suspender' them (site admins only), unless the author is staff or
 * their account is deleted.
 */
export function availableActions(item: ActionState, staff: Staff): ModerationAction[] {
  const actions: ModerationAction[] = [];
  if (item.openReports > 0) actions.push('dismiss');
  if (item.targetType !== 'profile') {
    if (item.state === 'visible') actions.push('hide');
    if (item.state === 'hidden') actions.push('restore');
    if (item.state !== 'deleted') actions.push('delete');
  }
  const { owner } = item;
  if (owner.role === 'user' && !owner.deleted) {
    if (!owner.suspended) actions.push('silence');
    if (owner.silencedNow) actions.push('unsilence');
    if (staff.isAdmin && !owner.suspended) actions.push('suspend');
  }
  return actions;
}

/**
 * The items of queue rows, each with its author, the post or comment as readers see it, and the
 * actions `staff` may take: three statements for the page.
 */
async function presentRows(ctx: ModerationContext, rows: repo.QueueRow[], staff: Staff, now: Date): Promise<ModerationItem[]> {
  const gone = (row: repo.QueueRow) => row.state === 'deleted';
  const [authors, views] = await Promise.all([
    repo.authors(
      ctx.reader,
      rows.map((row) => row.target_user_id),
      now,
      HISTORY_SIZE,
    ),
    wall.moderatedItems(
      ctx.reader,
      rows.filter((row) => row.target_type === 'post' && !gone(row)).map((row) => row.target_id),
      rows.filter((row) => row.target_type === 'comment' && !gone(row)).map((row) => row.target_id),
    ),
  ]);
  return rows.flatMap((row) => {
    const author = authors.get(row.target_user_id);
    // An author whose profile row is gone took their reports with them (ON DELETE CASCADE).
    if (!author) return [];
    const actions = availableActions(
      {
        targetType: row.target_type,
        state: row.state,
        openReports: row.open_reports,
        owner: { role: author.role, deleted: author.is_deleted, suspended: author.is_suspended, silencedNow: author.silenced_until !== null },
      },
      staff,
    );
    return [presentItem(row, { author, post: views.posts.get(row.target_id), comment: views.comments.get(row.target_id), actions })];
  });
}

/** GET /api/moderation/queue: items with reports in a status (open by default), grouped, newest report first, 20 a page. */
export async function getQueue(ctx: ModerationContext, staff: Staff, query: ModerationQueueQuery, now = new Date()): Promise<ModerationQueue> {
  const after = query.cursor ? decodeQueueCursor(query.cursor) : null;
  if (query.cursor && !after) throw badRequest(MODERATION_QUEUE_TEXTS.loadFailed);
  const size = MODERATION_LIMITS.queuePageSize;
  const rows = await repo.queuePage(ctx.reader, { status: query.status ?? 'open', reason: query.reason }, after, size + 1, MODERATION_LIMITS.commentsShown);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: await presentRows(ctx, page, staff, now),
    nextCursor: rows.length > size && last ? encodeQueueCursor({ atMicros: last.last_micros, targetId: last.target_id }) : null,
  };
}

/** GET /api/moderation/count: items with open reports (the back-office badge). */
export async function getCount(ctx: ModerationContext): Promise<ModerationCount> {
  return { open: await repo.openItemCount(ctx.reader) };
}

/** One item as the queue lists it now: among its open reports while it has some, else its latest closed ones; null without reports. */
async function itemNow(ctx: ModerationContext, item: repo.ReportedItem, staff: Staff, now: Date): Promise<ModerationItem | null> {
  const statuses = await repo.reportStatuses(ctx.reader, item);
  const status: ReportStatus | null = statuses.open > 0 ? 'open' : statuses.latestClosed;
  if (status === null) return null;
  const rows = await repo.queuePage(ctx.reader, { status, item }, null, 1, MODERATION_LIMITS.commentsShown);
  return (await presentRows(ctx, rows, staff, now))[0] ?? null;
}

// --- Actions ----------------------------------------------------------------------------------------

/** What an action changed, for the audit log (besides the moderator's reason). */
type Change = { before: Record<string, unknown>; after: Record<string, unknown> };

/**
 * POST /api/moderation/actions: one action on a reported item, in one transaction: the item's or
 * its author's change, the action's record (the author's history), its audit entry (who, why, the
 * before and after), the closing of the item's open reports (all but restore and unsilence) and
 * each of their reporters' notification. Then the staff's count changes and an item hidden or
 * deleted leaves every wall.
 */
export async function moderate(ctx: ModerationContext, staff: Staff, input: ModerationActionInput, now = new Date()): Promise<ModerationActionResult> {
  const { action } = input;
  const reason = optionalText(input.reason, MODERATION_LIMITS.actionReason, REASON_TOO_LONG);
  if (action === 'silence' && !input.silenceFor) throw badRequest(MODERATION_MESSAGES.silenceForRequired);
  const item: repo.ReportedItem = { type: input.targetType, id: input.targetId };
  const onWall = item.type !== 'profile';
  if (!onWall && (action === 'hide' || action === 'restore' || action === 'delete')) throw badRequest(MODERATION_MESSAGES.actionNotAllowed);
  if (action === 'suspend' && !staff.isAdmin) throw forbidden(MODERATION_MESSAGES.suspendAdminsOnly);

  const { closed, removedFrom, after } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    const target = await repo.lockModerationTarget(runner, item);
    if (!target) throw notFound(MODERATION_MESSAGES.targetNotFound);
    if (!target.reported) throw notFound(MODERATION_MESSAGES.nothingToModerate);
    const silencedNow = target.ownerSilencedUntil !== null && target.ownerSilencedUntil > now;
    const aboutAuthor = action === 'silence' || action === 'unsilence' || action === 'suspend';
    if (aboutAuthor && target.ownerRole !== 'user') throw forbidden(MODERATION_MESSAGES.cannotModerateStaff);
    const allowed = availableActions(
      {
        targetType: item.type,
        state: target.state,
        openReports: target.openReports,
        owner: { role: target.ownerRole, deleted: target.ownerDeleted, suspended: target.ownerSuspended, silencedNow },
      },
      staff,
    );
    if (!allowed.includes(action)) throw conflict(action === 'dismiss' ? MODERATION_MESSAGES.nothingToModerate : MODERATION_MESSAGES.actionNotAllowed);

    const wallItem: wall.WallItem | null = onWall ? { kind: item.type as wall.WallItem['kind'], id: item.id } : null;
    let change: Change;
    switch (action) {
      case 'dismiss':
        change = { before: { openReports: target.openReports }, after: { openReports: 0 } };
        break;
      case 'hide':
      case 'restore':
        await wall.setHiddenByModeration(tx, wallItem!, action === 'hide', now);
        change = { before: { state: target.state }, after: { state: action === 'hide' ? 'hidden' : 'visible' } };
        break;
      case 'delete':
        await wall.deleteByModeration(tx, wallItem!);
        change = { before: { state: target.state }, after: { state: 'deleted' } };
        break;
      case 'silence':
      case 'unsilence': {
        const until = action === 'silence' ? new Date(now.getTime() + SILENCE_DURATION_MS[input.silenceFor!]) : null;
        // Their cached sessions carry the silence: gone before the write (every instance's once it commits).
        ctx.sessionCache.invalidateUser(target.ownerId);
        await repo.setSilencedUntil(runner, target.ownerId, until);
        change = {
          before: { silencedUntil: silencedNow ? target.ownerSilencedUntil!.toISOString() : null },
          after: { silencedUntil: until?.toISOString() ?? null, ...(action === 'silence' ? { silenceFor: input.silenceFor } : {}) },
        };
        break;
      }
      case 'suspend':
        await suspendAccount(tx, ctx.sessionCache, target.ownerId, now);
        change = { before: { isSuspended: false }, after: { isSuspended: true } };
        break;
    }

    const actionId = await repo.insertAction(runner, {
      moderatorId: staff.id,
      item,
      targetUserId: target.ownerId,
      action,
      reason,
      silenceFor: action === 'silence' ? input.silenceFor! : null,
      at: now,
    });
    await recordAudit(runner, staff.id, {
      action: `moderation.${action}`,
      entityType: item.type,
      entityId: item.id,
      before: { ...change.before, ...(aboutAuthor ? { userId: target.ownerId } : {}) },
      after: { ...change.after, reason },
    });

    // Restoring and lifting a silence leave the reports as they are.
    const closing = action === 'dismiss' ? 'dismissed' : ACTIONS_THAT_ACT.includes(action) ? 'actioned' : null;
    const reports = closing ? await repo.closeOpenReports(runner, item, { status: closing, by: staff.id, actionId, at: now }) : [];
    const work =
      closing && reports.length > 0
        ? await ctx.joinTransaction(runner, { moderatorId: staff.id, outcome: closing, reports: reports.filter((r) => r.reporterId !== staff.id) })
        : [];
    const removed = (action === 'hide' || action === 'delete') && target.state === 'visible' ? { item: wallItem!, postId: target.postId! } : null;
    return { closed: reports.length, removedFrom: removed, after: work };
  });

  const work: (AfterCommit | Promise<unknown>)[] = [...after, ctx.announce()];
  if (removedFrom) work.push(leaveWalls(ctx, removedFrom.item, removedFrom.postId));
  await runAfterCommit(work, ctx.log, 'after-commit work of a moderation action');
  return { item: await itemNow(ctx, item, staff, now), closedReports: closed, message: MODERATION_MESSAGES.actionDone };
}
