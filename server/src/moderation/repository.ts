import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { ModerationAction, ReportReason, ReportStatus, ReportTarget, SilenceDuration } from '@tribuna/contracts/moderationRules';
import type { Role } from '@tribuna/contracts/roles';
import { unblocked, visiblePost } from '../access/predicates.ts';
import type { Viewer } from '../access/viewer.ts';

// The SQL of moderation (issue 29): reports, the queue grouped by item, moderation actions, and the
// state of a reported item and of its author. The items' own changes (hide, restore, delete) are
// the wall's (wall/service.ts), suspensions the back-office's (admin/users/service.ts).

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** An instant as a statement parameter (the driver takes text). */
const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;

export interface ReportedItem {
  type: ReportTarget;
  id: string;
}

// --- Reports ----------------------------------------------------------------------------------------

/** A reported item as its reporter may see it, locked until the report commits (its reports and auto-hide are decided one at a time). */
export interface ReportTargetRow {
  /** Its author (the profile itself for a profile). */
  ownerId: string;
  /** Whether the reporter may see it: a post or comment not hidden that they may read, a profile not deleted. */
  visible: boolean;
  /** Hidden or deleted already (posts and comments). */
  isHidden: boolean;
  /** The post it is (on), for a post or comment. */
  postId: string | null;
}

/**
 * The item a fan reports, locked (FOR NO KEY UPDATE: a report and a moderator's action on the same
 * item wait for each other, while comments, reactions and follows referencing it go on), with
 * whether `viewer` may see it; null when there is no such item.
 */
export async function lockReportTarget(tx: SqlRunner, item: ReportedItem, viewer: Viewer): Promise<ReportTargetRow | null> {
  if (item.type === 'profile') {
    // A profile whose owner blocked the reporter is not found for them (the blocker still sees the blocked one's).
    const rows = await tx.execute<{ id: string; shown: boolean }>(
      sql`SELECT o.id, o.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = o.id AND b.blocked_id = ${viewer.id}) AS shown
        FROM profiles o WHERE o.id = ${item.id} FOR NO KEY UPDATE OF o`,
    );
    const row = rows[0];
    return row ? { ownerId: row.id, visible: row.shown, isHidden: false, postId: null } : null;
  }
  // A comment of somebody in a block with the reporter is not theirs to see (admins see every post).
  const commentAuthor = viewer.isAdmin ? sql`` : sql` AND ${unblocked(viewer.id, sql`c.user_id`)}`;
  const rows = await tx.execute<{ owner_id: string; is_hidden: boolean; visible: boolean; post_id: string }>(
    item.type === 'post'
      ? sql`SELECT p.user_id AS owner_id, p.is_hidden, ${visiblePost(viewer)} AS visible, p.id AS post_id
          FROM posts p WHERE p.id = ${item.id} FOR NO KEY UPDATE OF p`
      : sql`SELECT c.user_id AS owner_id, c.is_hidden, (NOT c.is_hidden AND ${visiblePost(viewer)}${commentAuthor}) AS visible, p.id AS post_id
          FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ${item.id} FOR NO KEY UPDATE OF c`,
  );
  const row = rows[0];
  return row ? { ownerId: row.owner_id, visible: row.visible, isHidden: row.is_hidden, postId: row.post_id } : null;
}

export interface NewReport {
  reporterId: string;
  item: ReportedItem;
  targetUserId: string;
  reason: ReportReason;
  comment: string | null;
  at: Date;
}

/** Writes an open report unless the reporter has one open on the item already (reports_open_uq): its id, or null. */
export async function insertReport(tx: SqlRunner, report: NewReport): Promise<string | null> {
  const rows = await tx.execute<{ id: string }>(sql`
    INSERT INTO reports (reporter_id, target_type, target_id, target_user_id, reason, comment, created_at)
    VALUES (${report.reporterId}, ${report.item.type}, ${report.item.id}, ${report.targetUserId}, ${report.reason}, ${report.comment}, ${instant(report.at)})
    ON CONFLICT (reporter_id, target_type, target_id) WHERE status = 'open' DO NOTHING
    RETURNING id`);
  return rows[0]?.id ?? null;
}

/** Distinct reporters of the item's open reports whose accounts were created before `trustedBefore` (what auto-hides it). */
export async function trustedOpenReporters(tx: SqlRunner, item: ReportedItem, trustedBefore: Date): Promise<number> {
  const rows = await tx.execute<{ n: number }>(sql`
    SELECT count(DISTINCT r.reporter_id)::int AS n
    FROM reports r JOIN profiles pr ON pr.id = r.reporter_id
    WHERE r.target_type = ${item.type} AND r.target_id = ${item.id} AND r.status = 'open' AND pr.created_at < ${instant(trustedBefore)}`);
  return rows[0]?.n ?? 0;
}

/** Items with open reports: the back-office badge and the `moderation` topic. */
export async function openItemCount(db: SqlRunner): Promise<number> {
  const rows = await db.execute<{ open: number }>(
    sql`SELECT count(*)::int AS open FROM (SELECT DISTINCT target_type, target_id FROM reports WHERE status = 'open') t`,
  );
  return rows[0]?.open ?? 0;
}

/**
 * Closes the item's open reports as `status` with the action that closed them; the reports closed
 * (their reporters are told the outcome).
 */
export async function closeOpenReports(
  tx: SqlRunner,
  item: ReportedItem,
  close: { status: Exclude<ReportStatus, 'open'>; by: string; actionId: string; at: Date },
): Promise<{ id: string; reporterId: string }[]> {
  const rows = await tx.execute<{ id: string; reporter_id: string }>(sql`
    UPDATE reports SET status = ${close.status}, resolved_at = ${instant(close.at)}, resolved_by = ${close.by}, action_id = ${close.actionId}
    WHERE target_type = ${item.type} AND target_id = ${item.id} AND status = 'open'
    RETURNING id, reporter_id`);
  return rows.map((r) => ({ id: r.id, reporterId: r.reporter_id }));
}

/** How many reports of the item are in each status. */
export async function reportStatuses(db: SqlRunner, item: ReportedItem): Promise<{ open: number; latestClosed: Exclude<ReportStatus, 'open'> | null }> {
  const rows = await db.execute<{ open: number; latest_closed: Exclude<ReportStatus, 'open'> | null }>(sql`
    SELECT count(*) FILTER (WHERE status = 'open')::int AS open,
      (SELECT x.status FROM reports x WHERE x.target_type = ${item.type} AND x.target_id = ${item.id} AND x.status <> 'open'
        ORDER BY x.resolved_at DESC, x.created_at DESC LIMIT 1) AS latest_closed
    FROM reports WHERE target_type = ${item.type} AND target_id = ${item.id}`);
  return { open: rows[0]?.open ?? 0, latestClosed: rows[0]?.latest_closed ?? null };
}

// --- Actions ----------------------------------------------------------------------------------------

/** A reported item as a moderator acts on it, with its author. */
export interface ModerationTargetRow {
  /** Its author (the profile itself for a profile). */
  ownerId: string;
  ownerRole: Role;
  ownerSuspended: boolean;
  ownerDeleted: boolean;
  /** In the future while the owner is silenced. */
  ownerSilencedUntil: Date | null;
  /** The post it is (on), for a post or comment. */
  postId: string | null;
  state: 'visible' | 'hidden' | 'deleted';
  /** Whether it has been reported at all (moderators act on reported items only). */
  reported: boolean;
  openReports: number;
}

/** The state of a post or comment: hidden by moderation, deleted (a comment also when its post is deleted), or visible. */
const itemState = (alias: string, post: string | null): SQL => {
  const a = sql.raw(alias);
  const postDeleted = post ? sql` OR (${sql.raw(post)}.is_hidden AND ${sql.raw(post)}.moderation_hidden_at IS NULL)` : sql``;
  return sql`CASE WHEN ${a}.is_hidden AND ${a}.moderation_hidden_at IS NULL${postDeleted} THEN 'deleted'
    WHEN ${a}.is_hidden THEN 'hidden' ELSE 'visible' END`;
};

/** The item of a moderation action with its author, locked until the action commits; null when there is no such item. */
export async function lockModerationTarget(tx: SqlRunner, item: ReportedItem): Promise<ModerationTargetRow | null> {
  const reports = sql`
    EXISTS (SELECT 1 FROM reports r WHERE r.target_type = ${item.type} AND r.target_id = ${item.id}) AS reported,
    (SELECT count(*)::int FROM reports r WHERE r.target_type = ${item.type} AND r.target_id = ${item.id} AND r.status = 'open') AS open_reports`;
  const owner = sql`o.role AS owner_role, o.is_suspended AS owner_suspended, o.deleted_at IS NOT NULL AS owner_deleted, o.silenced_until AS owner_silenced_until`;
  const query =
    item.type === 'profile'
      ? sql`SELECT o.id AS owner_id, ${owner}, NULL::uuid AS post_id, CASE WHEN o.deleted_at IS NULL THEN 'visible' ELSE 'deleted' END AS state, ${reports}
          FROM profiles o WHERE o.id = ${item.id} FOR NO KEY UPDATE OF o`
      : item.type === 'post'
        ? sql`SELECT o.id AS owner_id, ${owner}, p.id AS post_id, ${itemState('p', null)} AS state, ${reports}
            FROM posts p JOIN profiles o ON o.id = p.user_id WHERE p.id = ${item.id} FOR NO KEY UPDATE OF p, o`
        : sql`SELECT o.id AS owner_id, ${owner}, p.id AS post_id, ${itemState('c', 'p')} AS state, ${reports}
            FROM comments c JOIN posts p ON p.id = c.post_id JOIN profiles o ON o.id = c.user_id WHERE c.id = ${item.id} FOR NO KEY UPDATE OF c, o`;
  const rows = await tx.execute<{
    owner_id: string;
    owner_role: Role;
    owner_suspended: boolean;
    owner_deleted: boolean;
    owner_silenced_until: string | Date | null;
    post_id: string | null;
    state: ModerationTargetRow['state'];
    reported: boolean;
    open_reports: number;
  }>(query);
  const row = rows[0];
  if (!row) return null;
  return {
    ownerId: row.owner_id,
    ownerRole: row.owner_role,
    ownerSuspended: row.owner_suspended,
    ownerDeleted: row.owner_deleted,
    ownerSilencedUntil: row.owner_silenced_until === null ? null : new Date(row.owner_silenced_until),
    postId: row.post_id,
    state: row.state,
    reported: row.reported,
    openReports: row.open_reports,
  };
}

export interface NewModerationAction {
  moderatorId: string;
  item: ReportedItem;
  targetUserId: string;
  action: ModerationAction;
  reason: string | null;
  silenceFor: SilenceDuration | null;
  at: Date;
}

/** Records an action (the author's history in the queue); its id. */
export async function insertAction(tx: SqlRunner, action: NewModerationAction): Promise<string> {
  const rows = await tx.execute<{ id: string }>(sql`
    INSERT INTO moderation_actions (moderator_id, target_type, target_id, target_user_id, action, reason, silence_for, created_at)
    VALUES (${action.moderatorId}, ${action.item.type}, ${action.item.id}, ${action.targetUserId}, ${action.action}, ${action.reason},
      ${action.silenceFor}, ${instant(action.at)})
    RETURNING id`);
  return rows[0]!.id;
}

/** Silences an account until `until`, or lifts its silence (null). */
export async function setSilencedUntil(tx: SqlRunner, userId: string, until: Date | null): Promise<void> {
  await tx.execute(sql`UPDATE profiles SET silenced_until = ${until ? instant(until) : null}, updated_at = now() WHERE id = ${userId}`);
}

// --- The queue ----------------------------------------------------------------------------------------

/** A keyset position in the queue: the item's latest report (microseconds) and its id. */
export interface QueuePosition {
  atMicros: bigint;
  targetId: string;
}

export interface QueueFilter {
  status: ReportStatus;
  reason?: ReportReason;
  /** One item only (the answer to an action). */
  item?: ReportedItem;
}

export type QueueRow = {
  target_type: ReportTarget;
  target_id: string;
  target_user_id: string;
  report_count: number;
  reasons: Record<string, number>;
  comments: string[];
  first_reported_at: string;
  last_reported_at: string;
  last_micros: string;
  state: 'visible' | 'hidden' | 'deleted';
  /** Hidden with no moderator's 'hide' since (auto-hide, pending review). */
  auto_hidden: boolean;
  post_id: string | null;
  /** The item's open reports, whatever the listed status (what 'Descartar' would close). */
  open_reports: number;
};

/**
 * One page of the queue (limit + 1 rows tell whether there is more): the items with reports in
 * `status` (one of them of `reason`, when given), newest report first, each with its reports'
 * count per reason, the latest reporters' comments (never who wrote them), and the item's state.
 */
export async function queuePage(db: SqlRunner, filter: QueueFilter, after: QueuePosition | null, limit: number, commentsShown: number): Promise<QueueRow[]> {
  const having: SQL[] = [];
  if (filter.reason) having.push(sql`bool_or(r.reason = ${filter.reason})`);
  if (after) {
    having.push(
      sql`(max(r.created_at), r.target_id) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.targetId}::uuid)`,
    );
  }
  const only = filter.item ? sql`AND r.target_type = ${filter.item.type} AND r.target_id = ${filter.item.id}` : sql``;
  const sameItem = sql`x.target_type = i.target_type AND x.target_id = i.target_id AND x.status = ${filter.status}`;
  const rows = await db.execute<QueueRow>(sql`
    WITH items AS (
      SELECT r.target_type, r.target_id, (array_agg(r.target_user_id))[1] AS target_user_id, count(*)::int AS report_count,
        min(r.created_at) AS first_at, max(r.created_at) AS last_at
      FROM reports r
      WHERE r.status = ${filter.status} ${only}
      GROUP BY r.target_type, r.target_id
      ${having.length > 0 ? sql`HAVING ${sql.join(having, sql` AND `)}` : sql``}
      ORDER BY max(r.created_at) DESC, r.target_id DESC
      ${limitOf(limit)}
    )
    SELECT i.target_type, i.target_id, i.target_user_id, i.report_count,
      ${ts(sql`i.first_at`)} AS first_reported_at, ${ts(sql`i.last_at`)} AS last_reported_at,
      (extract(epoch FROM i.last_at) * 1000000)::bigint::text AS last_micros,
      (SELECT json_object_agg(q.reason, q.n) FROM (SELECT x.reason, count(*)::int AS n FROM reports x WHERE ${sameItem} GROUP BY x.reason) q) AS reasons,
      (SELECT coalesce(json_agg(q.comment ORDER BY q.created_at DESC), '[]'::json) FROM (
        SELECT x.comment, x.created_at FROM reports x WHERE ${sameItem} AND x.comment IS NOT NULL ORDER BY x.created_at DESC ${limitOf(commentsShown)}) q) AS comments,
      CASE i.target_type
        WHEN 'post' THEN (SELECT ${itemState('p', null)} FROM posts p WHERE p.id = i.target_id)
        WHEN 'comment' THEN (SELECT ${itemState('c', 'p')} FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = i.target_id)
        ELSE (SELECT CASE WHEN o.deleted_at IS NULL THEN 'visible' ELSE 'deleted' END FROM profiles o WHERE o.id = i.target_id)
      END AS state,
      coalesce(CASE i.target_type
        WHEN 'post' THEN (SELECT p.moderation_hidden_at FROM posts p WHERE p.id = i.target_id)
        WHEN 'comment' THEN (SELECT c.moderation_hidden_at FROM comments c WHERE c.id = i.target_id)
      END > coalesce((SELECT max(a.created_at) FROM moderation_actions a
        WHERE a.target_type = i.target_type AND a.target_id = i.target_id AND a.action = 'hide'), '-infinity'), FALSE) AS auto_hidden,
      CASE i.target_type
        WHEN 'post' THEN i.target_id
        WHEN 'comment' THEN (SELECT c.post_id FROM comments c WHERE c.id = i.target_id)
      END AS post_id,
      (SELECT count(*)::int FROM reports x WHERE x.target_type = i.target_type AND x.target_id = i.target_id AND x.status = 'open') AS open_reports
    FROM items i
    ORDER BY i.last_at DESC, i.target_id DESC`);
  return [...rows];
}

export type AuthorRow = {
  id: string;
  display_name: string | null;
  username: string | null;
  avatar_url: string | null;
  bio: string | null;
  role: Role;
  is_deleted: boolean;
  created_at: string;
  is_suspended: boolean;
  silenced_until: string | null;
  reports_received: number;
  history: { action: ModerationAction; targetType: ReportTarget; at: string; reason: string | null }[];
};

/**
 * The reported items' authors (and reported profiles) as the queue judges them: their profile,
 * their silence if still running (at `now`), the reports ever made about them, and their latest
 * `historySize` moderation actions, newest first. One statement for the page.
 */
export async function authors(db: SqlRunner, userIds: string[], now: Date, historySize: number): Promise<Map<string, AuthorRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.execute<AuthorRow>(sql`
    SELECT o.id, o.display_name, o.username, o.avatar_url, o.bio, o.role, o.deleted_at IS NOT NULL AS is_deleted,
      ${ts(sql`o.created_at`)} AS created_at, o.is_suspended,
      CASE WHEN o.silenced_until > ${instant(now)} THEN ${ts(sql`o.silenced_until`)} END AS silenced_until,
      (SELECT count(*)::int FROM reports r WHERE r.target_user_id = o.id) AS reports_received,
      (SELECT coalesce(json_agg(json_build_object('action', h.action, 'targetType', h.target_type, 'at', ${ts(sql`h.created_at`)}, 'reason', h.reason)
          ORDER BY h.created_at DESC, h.id DESC), '[]'::json)
        FROM (SELECT a.* FROM moderation_actions a WHERE a.target_user_id = o.id ORDER BY a.created_at DESC, a.id DESC ${limitOf(historySize)}) h) AS history
    FROM profiles o WHERE o.id = ANY(${`{${[...new Set(userIds)].join(',')}}`}::uuid[])`);
  return new Map(rows.map((row) => [row.id, row]));
}
