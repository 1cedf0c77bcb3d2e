import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@tribuna/drizzle/client';
import {
  PUSH_KIND_DEFAULTS,
  PUSH_KIND_OF_NOTIFICATION,
  PUSH_LIMITS,
  type BroadcastPushKind,
  type PushKind,
  type PushPayload,
} from '@tribuna/contracts/pushRules';
import type { NotificationType } from '@tribuna/contracts/notificationRules';
import type { ReactionType } from '@tribuna/contracts/wallRules';
import { schema } from '@tribuna/drizzle';

// The push sender's SQL (issue 31). A message is 'pending' until a worker claims it ('sending',
// `claimed_at` = the claim's token) in a committed statement before its request, and confirmed
// 'sent' / 'failed' (or 'pending' again, for a retry) right after the answer, only if the claim is
// still that worker's: a confirmation never counts twice, whoever else took the message since.

const { comments, groupMembers, groups, notifications, posts, profiles, pushBroadcasts, pushMessages, pushPreferences, pushSubscriptions } = schema;

/** push_preferences' column of each kind. */
const PREFERENCE_COLUMNS: Record<PushKind, SQL> = {
  poll_opened: sql.raw('poll_opened'),
  poll_closing: sql.raw('poll_closing'),
  replies: sql.raw('replies'),
  mentions: sql.raw('mentions'),
  reactions: sql.raw('reactions'),
  follows: sql.raw('follows'),
  groups: sql.raw('groups'),
};

/** Whether the fan of `p` (a LEFT JOINed push_preferences row, maybe absent) wants `kind`. */
const wants = (kind: PushKind, alias = 'p'): SQL => sql`coalesce(${sql.raw(alias)}.${PREFERENCE_COLUMNS[kind]}, ${PUSH_KIND_DEFAULTS[kind]})`;

/** A claimed message: where it goes, with what keys, and what it carries. */
export interface ClaimedMessage {
  id: number;
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  kind: PushKind;
  /** The message's own payload; null for a broadcast's (on the broadcast row: `broadcastPayload`). */
  payload: PushPayload | null;
  broadcastId: string | null;
  /** Attempts counting this one. */
  attempts: number;
  /** The claim's token (claimed_at as PostgreSQL writes it): the confirmation must carry it back. */
  claim: string;
}

export type ClaimScope = { broadcastId: string } | { ids: number[] } | { all: true };

/**
 * Claims up to `limit` due messages of `scope` (oldest due first, skipping those another worker is
 * locking right now): pending ones whose next attempt is due, and 'sending' ones whose claim is
 * older than PUSH_LIMITS.claimTimeoutSeconds (their worker died before confirming). Each counts an
 * attempt. One statement: committed before any request goes out.
 */
export async function claimDue(db: DbOrTx, scope: ClaimScope, limit: number): Promise<ClaimedMessage[]> {
  const filter =
    'broadcastId' in scope
      ? sql`AND m.broadcast_id = ${scope.broadcastId}`
      : 'ids' in scope
        ? sql`AND m.id = ANY(${`{${scope.ids.join(',')}}`}::bigint[])`
        : sql``;
  const rows = await db.execute<{
    id: string | number;
    subscription_id: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    kind: PushKind;
    payload: PushPayload | null;
    broadcast_id: string | null;
    attempts: number;
    claim: string;
  }>(sql`
    WITH due AS (
      SELECT m.id FROM ${pushMessages} m
      WHERE m.state IN ('pending', 'sending') AND m.next_attempt_at <= now() ${filter}
        AND (m.state = 'pending' OR m.claimed_at < now() - make_interval(secs => ${PUSH_LIMITS.claimTimeoutSeconds}))
      ORDER BY m.next_attempt_at, m.id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ),
    claimed AS (
      UPDATE ${pushMessages} m SET state = 'sending', claimed_at = clock_timestamp(), attempts = m.attempts + 1
      FROM due WHERE m.id = due.id
      RETURNING m.id, m.subscription_id, m.kind, m.payload, m.broadcast_id, m.attempts, m.claimed_at
    )
    SELECT c.id, c.subscription_id, s.endpoint, s.p256dh, s.auth, c.kind, c.payload, c.broadcast_id, c.attempts, c.claimed_at::text AS claim
    FROM claimed c JOIN ${pushSubscriptions} s ON s.id = c.subscription_id
    ORDER BY c.id`);
  return rows.map((r) => ({
    id: Number(r.id),
    subscriptionId: r.subscription_id,
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    kind: r.kind,
    payload: r.payload,
    broadcastId: r.broadcast_id,
    attempts: r.attempts,
    claim: r.claim,
  }));
}

/** What became of a claimed message: sent; gone (404/410: the subscription is deleted); failed for good; or tried again after `delayMs`. */
export type Confirmation =
  | { id: number; claim: string; subscriptionId: string; outcome: 'sent' }
  | { id: number; claim: string; subscriptionId: string; outcome: 'gone' | 'failed'; error: string }
  | { id: number; claim: string; subscriptionId: string; outcome: 'retry'; error: string; delayMs: number };

export interface ConfirmTotals {
  sent: number;
  gone: number;
  failed: number;
  retry: number;
  /** Confirmations whose claim was no longer theirs (another worker took the message): nothing changed. */
  stale: number;
}

/**
 * Records a batch of answers in one transaction: each message whose claim is still the one given
 * moves to its outcome, its broadcast's progress moves by what actually changed, and the
 * subscriptions the push service said are gone are deleted (their messages with them).
 */
export async function confirm(db: Db, confirmations: Confirmation[]): Promise<ConfirmTotals> {
  const totals: ConfirmTotals = { sent: 0, gone: 0, failed: 0, retry: 0, stale: 0 };
  if (confirmations.length === 0) return totals;
  const values = confirmations.map((c) => ({
    id: c.id,
    claim: c.claim,
    outcome: c.outcome,
    error: c.outcome === 'sent' ? null : c.error.slice(0, 500),
    delay_ms: c.outcome === 'retry' ? Math.round(c.delayMs) : 0,
  }));
  const rows = await db.transaction(async (tx) => {
    const changed = await tx.execute<{ outcome: Confirmation['outcome']; count: number }>(sql`
      WITH v AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id bigint, claim text, outcome text, error text, delay_ms int)
      ),
      updated AS (
        UPDATE ${pushMessages} m SET
          state = CASE v.outcome WHEN 'sent' THEN 'sent' WHEN 'retry' THEN 'pending' ELSE 'failed' END,
          sent_at = CASE WHEN v.outcome = 'sent' THEN now() ELSE m.sent_at END,
          claimed_at = CASE WHEN v.outcome = 'retry' THEN NULL ELSE m.claimed_at END,
          next_attempt_at = CASE WHEN v.outcome = 'retry' THEN clock_timestamp() + make_interval(secs => v.delay_ms / 1000.0) ELSE m.next_attempt_at END,
          last_error = v.error
        FROM v
        WHERE m.id = v.id AND m.state = 'sending' AND m.claimed_at = v.claim::timestamptz
        RETURNING m.broadcast_id, v.outcome
      ),
      progress AS (
        UPDATE ${pushBroadcasts} b SET
          sent = b.sent + u.sent, gone = b.gone + u.gone, failed = b.failed + u.failed
        FROM (
          SELECT broadcast_id,
            count(*) FILTER (WHERE outcome = 'sent')::int AS sent,
            count(*) FILTER (WHERE outcome = 'gone')::int AS gone,
            count(*) FILTER (WHERE outcome = 'failed')::int AS failed
          FROM updated WHERE broadcast_id IS NOT NULL GROUP BY broadcast_id
        ) u
        WHERE b.id = u.broadcast_id
      )
      SELECT outcome, count(*)::int AS count FROM updated GROUP BY outcome`);
    const gone = [...new Set(confirmations.filter((c) => c.outcome === 'gone').map((c) => c.subscriptionId))];
    if (gone.length > 0) await tx.execute(sql`DELETE FROM ${pushSubscriptions} WHERE id = ANY(${`{${gone.join(',')}}`}::uuid[])`);
    return changed;
  });
  let counted = 0;
  for (const row of rows) {
    totals[row.outcome] += row.count;
    counted += row.count;
  }
  totals.stale = confirmations.length - counted;
  return totals;
}

export interface BroadcastRow {
  id: string;
  kind: BroadcastPushKind;
  pollId: string;
  payload: PushPayload;
  status: 'queued' | 'sending' | 'done';
  total: number;
  sent: number;
  gone: number;
  failed: number;
}

export async function findBroadcast(db: DbOrTx, broadcastId: string): Promise<BroadcastRow | null> {
  const rows = await db
    .select({
      id: pushBroadcasts.id,
      kind: pushBroadcasts.kind,
      pollId: pushBroadcasts.pollId,
      payload: pushBroadcasts.payload,
      status: pushBroadcasts.status,
      total: pushBroadcasts.total,
      sent: pushBroadcasts.sent,
      gone: pushBroadcasts.gone,
      failed: pushBroadcasts.failed,
    })
    .from(pushBroadcasts)
    .where(sql`${pushBroadcasts.id} = ${broadcastId}`);
  return rows[0] ?? null;
}

/**
 * Lists a queued broadcast's devices once: every subscription that existed when the broadcast was
 * created whose fan wants its kind gets one pending message, in the transaction that moves the
 * broadcast to 'sending' (a retried or concurrent run finds it 'sending' and lists nobody; the
 * unique (broadcast, subscription) would refuse a second row anyway). Answers how many were listed
 * (0 when it was not queued).
 */
export async function listBroadcast(db: Db, broadcastId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const taken = await tx.execute<{ kind: BroadcastPushKind; created_at: string }>(sql`
      UPDATE ${pushBroadcasts} SET status = 'sending' WHERE id = ${broadcastId} AND status = 'queued'
      RETURNING kind, created_at::text`);
    const row = taken[0];
    if (!row) return 0;
    const listed = await tx.execute<{ count: number }>(sql`
      WITH inserted AS (
        INSERT INTO ${pushMessages} (subscription_id, broadcast_id, kind)
        SELECT s.id, ${broadcastId}::uuid, ${row.kind} FROM ${pushSubscriptions} s
        LEFT JOIN ${pushPreferences} p ON p.user_id = s.user_id
        WHERE s.created_at <= ${row.created_at}::timestamptz AND (s.expires_at IS NULL OR s.expires_at > now()) AND ${wants(row.kind)}
        ON CONFLICT (broadcast_id, subscription_id) WHERE broadcast_id IS NOT NULL DO NOTHING
        RETURNING 1
      )
      SELECT count(*)::int AS count FROM inserted`);
    const count = listed[0]!.count;
    await tx.execute(sql`UPDATE ${pushBroadcasts} SET total = total + ${count} WHERE id = ${broadcastId}`);
    return count;
  });
}

/** Marks a sending broadcast done once none of its messages is pending or claimed. Answers whether it is done. */
export async function finishBroadcast(db: DbOrTx, broadcastId: string): Promise<boolean> {
  const rows = await db.execute<{ status: string }>(sql`
    UPDATE ${pushBroadcasts} b SET status = 'done', finished_at = now()
    WHERE b.id = ${broadcastId} AND b.status = 'sending'
      AND NOT EXISTS (SELECT 1 FROM ${pushMessages} m WHERE m.broadcast_id = b.id AND m.state IN ('pending', 'sending'))
    RETURNING b.status`);
  if (rows.length > 0) return true;
  const current = await db.execute<{ status: string }>(sql`SELECT status FROM ${pushBroadcasts} WHERE id = ${broadcastId}`);
  return current[0]?.status === 'done';
}

/**
 * Broadcasts to repair: queued for more than `queuedForSeconds` (their job was lost: listed here),
 * and sending ones (finished here once nothing is left).
 */
export async function unfinishedBroadcasts(db: DbOrTx, queuedForSeconds: number): Promise<{ id: string; status: 'queued' | 'sending' }[]> {
  return db.execute<{ id: string; status: 'queued' | 'sending' }>(sql`
    SELECT id, status FROM ${pushBroadcasts}
    WHERE status = 'sending' OR (status = 'queued' AND created_at < now() - make_interval(secs => ${queuedForSeconds}))
    ORDER BY created_at`);
}

export interface ClosingPoll {
  id: string;
  title: string;
}

/** Active polls ending within the lead time that have no 'Cierra pronto' yet. */
export async function pollsClosingSoon(db: DbOrTx): Promise<ClosingPoll[]> {
  return db.execute<{ id: string; title: string }>(sql`
    SELECT p.id, p.title FROM ${schema.polls} p
    WHERE p.status = 'active' AND p.end_date > now() AND p.end_date <= now() + make_interval(mins => ${PUSH_LIMITS.closingLeadMinutes})
      AND NOT EXISTS (SELECT 1 FROM ${pushBroadcasts} b WHERE b.poll_id = p.id AND b.kind = 'poll_closing')
    ORDER BY p.end_date`);
}

/** A broadcast of `kind` for a poll, unless it has one (the unique (poll, kind)): its id, or null. */
export async function insertBroadcast(db: DbOrTx, pollId: string, kind: BroadcastPushKind, payload: PushPayload): Promise<string | null> {
  const rows = await db.execute<{ id: string }>(sql`
    INSERT INTO ${pushBroadcasts} (kind, poll_id, created_by, payload) VALUES (${kind}, ${pollId}, NULL, ${JSON.stringify(payload)}::jsonb)
    ON CONFLICT (poll_id, kind) DO NOTHING
    RETURNING id`);
  return rows[0]?.id ?? null;
}

/** A fan's preferences, locked for this transaction (created first, from their oldest device, if they had none). Null: no device. */
export async function lockPreferences(tx: Tx, userId: string): Promise<{ notifiedThrough: string; wanted: Record<PushKind, boolean> } | null> {
  await tx.execute(sql`
    INSERT INTO ${pushPreferences} (user_id, notified_through)
    SELECT ${userId}::uuid, min(s.created_at) FROM ${pushSubscriptions} s WHERE s.user_id = ${userId} HAVING count(*) > 0
    ON CONFLICT (user_id) DO NOTHING`);
  const rows = await tx.execute<Record<string, unknown>>(sql`
    SELECT notified_through::text AS notified_through, poll_opened, poll_closing, replies, mentions, reactions, follows, groups
    FROM ${pushPreferences} WHERE user_id = ${userId} FOR UPDATE`);
  const row = rows[0];
  if (!row) return null;
  return {
    notifiedThrough: row.notified_through as string,
    wanted: {
      poll_opened: row.poll_opened as boolean,
      poll_closing: row.poll_closing as boolean,
      replies: row.replies as boolean,
      mentions: row.mentions as boolean,
      reactions: row.reactions as boolean,
      follows: row.follows as boolean,
      groups: row.groups as boolean,
    },
  };
}

/** What happened to a fan since their watermark, newest first: a notification or a post in one of their groups. */
export interface ActivityEntry {
  source: 'notification' | 'group_post';
  /** The notification's type; null for a group post. */
  type: NotificationType | null;
  actorId: string;
  actorName: string;
  postId: string | null;
  groupId: string | null;
  groupName: string | null;
  reactionType: ReactionType | null;
  /** The comment's or post's text quoted (null for a follow). */
  excerpt: string | null;
  /** created_at as PostgreSQL writes it (the watermark's unit), and as ISO 8601 (the payload's `at`). */
  createdAt: string;
  at: string;
}

/** How many entries a run reads (the newest; the rest are counted). */
export const ACTIVITY_READ = 20;

/**
 * A fan's notifications (of the types pushed, on visible posts) and the posts in their groups
 * (others', visible, after they joined) created after `since` and by now, newest first (at most
 * ACTIVITY_READ, `total` counts them all), with the newest created_at of everything after `since`,
 * passed over or not (report outcomes, hidden posts): where the watermark moves, so the sweep
 * does not find the fan again for what is never pushed.
 */
export async function activitySince(tx: Tx, userId: string, since: string): Promise<{ entries: ActivityEntry[]; total: number; newest: string | null }> {
  const pushedTypes = Object.keys(PUSH_KIND_OF_NOTIFICATION);
  const rows = await tx.execute<{
    source: 'notification' | 'group_post';
    type: NotificationType | null;
    actor_id: string;
    actor_name: string | null;
    post_id: string | null;
    group_id: string | null;
    group_name: string | null;
    reaction_type: ReactionType | null;
    excerpt: string | null;
    created_at: string;
    at: string;
    total: number;
    newest: string | null;
  }>(sql`
    WITH entries AS (
      SELECT 'notification' AS source, n.type, n.actor_id, n.post_id, NULL::uuid AS group_id, n.reaction_type,
        coalesce(c.content, po.content) AS excerpt, n.created_at,
        (n.type = ANY(${`{${pushedTypes.join(',')}}`}::text[]) AND (n.post_id IS NULL OR NOT po.is_hidden)) AS pushable
      FROM ${notifications} n
      LEFT JOIN ${comments} c ON c.id = n.comment_id AND n.type IN ('post_comment', 'comment_reply', 'comment_mention', 'comment_reaction')
      LEFT JOIN ${posts} po ON po.id = n.post_id
      WHERE n.user_id = ${userId} AND n.created_at > ${since}::timestamptz AND n.created_at <= now()
      UNION ALL
      SELECT 'group_post', NULL, p.user_id, p.id, p.group_id, NULL, p.content, p.created_at, NOT p.is_hidden
      FROM ${groupMembers} gm
      JOIN ${posts} p ON p.group_id = gm.group_id AND p.created_at > greatest(${since}::timestamptz, gm.joined_at) AND p.created_at <= now()
      WHERE gm.user_id = ${userId} AND p.user_id <> ${userId}
    ),
    counted AS (SELECT (count(*) FILTER (WHERE pushable))::int AS total, max(created_at)::text AS newest FROM entries)
    SELECT e.source, e.type, e.actor_id, coalesce(a.display_name, a.username) AS actor_name, e.post_id, e.group_id, g.name AS group_name,
      e.reaction_type, e.excerpt, e.created_at::text AS created_at, to_json(e.created_at) #>> '{}' AS at, counted.total, counted.newest
    FROM counted LEFT JOIN LATERAL (SELECT * FROM entries WHERE pushable ORDER BY created_at DESC LIMIT ${ACTIVITY_READ}) e ON true
    LEFT JOIN ${profiles} a ON a.id = e.actor_id
    LEFT JOIN ${groups} g ON g.id = e.group_id
    ORDER BY e.created_at DESC NULLS LAST`);
  const first = rows[0];
  const entries = rows
    .filter((r) => r.source !== null && r.created_at !== null)
    .map((r) => ({
      source: r.source,
      type: r.type,
      actorId: r.actor_id,
      actorName: r.actor_name ?? '',
      postId: r.post_id,
      groupId: r.group_id,
      groupName: r.group_name,
      reactionType: r.reaction_type,
      excerpt: r.excerpt,
      createdAt: r.created_at,
      at: new Date(r.at).toISOString(),
    }));
  return { entries, total: first?.total ?? 0, newest: first?.newest ?? null };
}

export async function advanceWatermark(tx: Tx, userId: string, through: string): Promise<void> {
  await tx.execute(sql`
    UPDATE ${pushPreferences} SET notified_through = greatest(notified_through, ${through}::timestamptz) WHERE user_id = ${userId}`);
}

/** One pending message per device of the fan, with `payload`: their ids. */
export async function insertUserMessages(tx: Tx, userId: string, kind: PushKind, payload: PushPayload): Promise<number[]> {
  const rows = await tx.execute<{ id: string | number }>(sql`
    INSERT INTO ${pushMessages} (subscription_id, kind, payload)
    SELECT s.id, ${kind}, ${JSON.stringify(payload)}::jsonb FROM ${pushSubscriptions} s
    WHERE s.user_id = ${userId} AND (s.expires_at IS NULL OR s.expires_at > now())
    RETURNING id`);
  return rows.map((r) => Number(r.id));
}

/**
 * Fans with a device and something after their watermark older than `olderThanSeconds` (their
 * `push.user` job should have run by then: it was lost), at most `limit`.
 */
export async function fansWithLostPushes(db: DbOrTx, olderThanSeconds: number, limit: number): Promise<string[]> {
  const rows = await db.execute<{ user_id: string }>(sql`
    WITH fans AS (
      SELECT s.user_id, coalesce(p.notified_through, min(s.created_at)) AS since
      FROM ${pushSubscriptions} s LEFT JOIN ${pushPreferences} p ON p.user_id = s.user_id
      GROUP BY s.user_id, p.notified_through
    )
    SELECT f.user_id FROM fans f
    WHERE EXISTS (
        SELECT 1 FROM ${notifications} n
        WHERE n.user_id = f.user_id AND n.created_at > f.since AND n.created_at < now() - make_interval(secs => ${olderThanSeconds})
          AND n.type NOT IN ('report_actioned', 'report_dismissed')
      )
      OR EXISTS (
        SELECT 1 FROM ${groupMembers} gm JOIN ${posts} p ON p.group_id = gm.group_id
        WHERE gm.user_id = f.user_id AND p.user_id <> f.user_id AND p.created_at > greatest(f.since, gm.joined_at)
          AND p.created_at < now() - make_interval(secs => ${olderThanSeconds})
      )
    LIMIT ${limit}`);
  return rows.map((r) => r.user_id);
}

/** Sent and failed messages older than a day go (a broadcast's listing is guarded by its status, not by them). */
export async function purgeOldMessages(db: DbOrTx): Promise<number> {
  const rows = await db.execute<{ count: number }>(sql`
    WITH gone AS (
      DELETE FROM ${pushMessages} WHERE state IN ('sent', 'failed') AND created_at < now() - interval '1 day' RETURNING 1
    ) SELECT count(*)::int AS count FROM gone`);
  return rows[0]!.count;
}
