import { sql, type SQL } from 'drizzle-orm';
import type { PushPayload } from '@tribuna/contracts/pushRules';
import { PUSH_KINDS, type BroadcastPushKind, type PushKind } from '@tribuna/contracts/pushRules';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';

// The SQL of web push on the server's side (issue 31): a fan's devices and preferences, the
// admin's broadcasts, and who is worth waking a `push.user` job for. Sending is the worker's.

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface DeviceRow extends Record<string, unknown> {
  id: string;
  browser: string;
  created_at: string;
  last_seen_at: string;
}

const DEVICE_COLUMNS = sql`id, browser, ${ts(sql`created_at`)} AS created_at, ${ts(sql`last_seen_at`)} AS last_seen_at`;

/** Serialises one fan's subscription changes (the device limit) until the transaction ends. */
export async function lockUserDevices(tx: SqlRunner, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`push-devices:${userId}`}, 0))`);
}

/** The fan's devices, newest first. */
export async function listDevices(db: SqlRunner, userId: string): Promise<DeviceRow[]> {
  return db.execute<DeviceRow>(sql`SELECT ${DEVICE_COLUMNS} FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`);
}

export async function countDevices(tx: SqlRunner, userId: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = ${userId}`);
  return row?.n ?? 0;
}

/** The subscription of an endpoint, locked, if any. */
export async function lockEndpoint(tx: SqlRunner, endpoint: string): Promise<{ id: string; user_id: string } | null> {
  const [row] = await tx.execute<{ id: string; user_id: string }>(sql`SELECT id, user_id FROM push_subscriptions WHERE endpoint = ${endpoint} FOR UPDATE`);
  return row ?? null;
}

/** Removes the fan's subscription of `endpoint` (a rotated one); whether there was one. */
export async function deleteOwnEndpoint(tx: SqlRunner, userId: string, endpoint: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint} AND user_id = ${userId} RETURNING 1`);
  return rows.length > 0;
}

/** Removes a subscription by id (its pending messages go with it: cascade). */
export async function deleteSubscription(tx: SqlRunner, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM push_subscriptions WHERE id = ${id}`);
}

export interface NewSubscription {
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  browser: string;
  expiresAt: Date | null;
}

/** Writes the subscription of an endpoint, or updates its keys, label and expiry (and last_seen_at) when it is there. */
export async function upsertSubscription(tx: SqlRunner, s: NewSubscription): Promise<DeviceRow> {
  const [row] = await tx.execute<DeviceRow>(sql`
    INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, browser, expires_at)
    VALUES (${s.userId}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.browser}, ${s.expiresAt?.toISOString() ?? null}::timestamptz)
    ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
      browser = EXCLUDED.browser, expires_at = EXCLUDED.expires_at, last_seen_at = now()
    RETURNING ${DEVICE_COLUMNS}`);
  return row!;
}

/** Removes one of the fan's devices; false when they have none of that id. */
export async function deleteOwnDevice(tx: SqlRunner, userId: string, deviceId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM push_subscriptions WHERE id = ${deviceId} AND user_id = ${userId} RETURNING 1`);
  return rows.length > 0;
}

/**
 * A fan who had no device and subscribes one: their own pushes start now (the watermark moves past
 * whatever happened while nothing could receive it), when they have a preferences row.
 */
export async function startWatermarkNow(tx: SqlRunner, userId: string): Promise<void> {
  await tx.execute(sql`UPDATE push_preferences SET notified_through = greatest(notified_through, now()) WHERE user_id = ${userId}`);
}

export type PreferencesRow = Record<PushKind, boolean>;

const KIND_COLUMNS = sql.join(
  PUSH_KINDS.map((kind) => sql.identifier(kind)),
  sql`, `,
);

/** The fan's saved preferences, or null (the defaults apply). */
export async function findPreferences(db: SqlRunner, userId: string): Promise<PreferencesRow | null> {
  const [row] = await db.execute<PreferencesRow>(sql`SELECT ${KIND_COLUMNS} FROM push_preferences WHERE user_id = ${userId}`);
  return row ?? null;
}

/**
 * Saves every kind. A fan's first row starts their watermark where a fan without a row starts (their
 * oldest device's subscription, else now): saving preferences never skips a push already due.
 */
export async function savePreferences(tx: SqlRunner, userId: string, preferences: PreferencesRow): Promise<PreferencesRow> {
  const values = sql.join(
    PUSH_KINDS.map((kind) => sql`${preferences[kind]}`),
    sql`, `,
  );
  const updates = sql.join(
    PUSH_KINDS.map((kind) => sql`${sql.identifier(kind)} = EXCLUDED.${sql.identifier(kind)}`),
    sql`, `,
  );
  const [row] = await tx.execute<PreferencesRow>(sql`
    INSERT INTO push_preferences (user_id, ${KIND_COLUMNS}, notified_through)
    VALUES (${userId}, ${values},
      coalesce((SELECT min(created_at) FROM push_subscriptions WHERE user_id = ${userId}), now()))
    ON CONFLICT (user_id) DO UPDATE SET ${updates}, updated_at = now()
    RETURNING ${KIND_COLUMNS}`);
  return row!;
}

// --- Broadcasts -----------------------------------------------------------------------------------

/** The poll an admin notifies, locked against a concurrent status change; whether voting is open on it now. */
export async function lockPollForNotify(tx: SqlRunner, pollId: string): Promise<{ title: string; open: boolean } | null> {
  const [row] = await tx.execute<{ title: string; open: boolean }>(sql`
    SELECT title, (status = 'active' AND (end_date IS NULL OR end_date > now())) AS open
    FROM polls WHERE id = ${pollId} FOR SHARE`);
  return row ?? null;
}

export interface BroadcastRow extends Record<string, unknown> {
  id: string;
  kind: BroadcastPushKind;
  poll_id: string;
  poll_title: string;
  status: 'queued' | 'sending' | 'done';
  total: number;
  sent: number;
  gone: number;
  failed: number;
  created_by: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The broadcast of a poll and kind, unless there is one already (null then: once per poll and kind). */
export async function insertBroadcast(
  tx: SqlRunner,
  b: { pollId: string; kind: BroadcastPushKind; createdBy: string | null; payload: PushPayload },
): Promise<string | null> {
  const [row] = await tx.execute<{ id: string }>(sql`
    INSERT INTO push_broadcasts (kind, poll_id, created_by, payload)
    VALUES (${b.kind}, ${b.pollId}, ${b.createdBy}, ${JSON.stringify(b.payload)}::jsonb)
    ON CONFLICT (poll_id, kind) DO NOTHING
    RETURNING id`);
  return row?.id ?? null;
}

const BROADCAST_SELECT = sql`
  SELECT b.id, b.kind, b.poll_id, p.title AS poll_title, b.status, b.total, b.sent, b.gone, b.failed,
    coalesce(a.display_name, a.username) AS created_by,
    ${ts(sql`b.created_at`)} AS created_at,
    CASE WHEN b.finished_at IS NULL THEN NULL ELSE ${ts(sql`b.finished_at`)} END AS finished_at
  FROM push_broadcasts b
  JOIN polls p ON p.id = b.poll_id
  LEFT JOIN profiles a ON a.id = b.created_by`;

export async function findBroadcast(db: SqlRunner, id: string): Promise<BroadcastRow | null> {
  const [row] = await db.execute<BroadcastRow>(sql`${BROADCAST_SELECT} WHERE b.id = ${id}`);
  return row ?? null;
}

/** The latest broadcasts, newest first. */
export async function latestBroadcasts(db: SqlRunner, limit: number): Promise<BroadcastRow[]> {
  return db.execute<BroadcastRow>(sql`${BROADCAST_SELECT} ORDER BY b.created_at DESC, b.id DESC LIMIT ${limit}`);
}

// --- Who to wake ------------------------------------------------------------------------------------

/** Of `userIds`, those with at least one device (the others have nobody to push to). */
export async function usersWithDevices(db: SqlRunner, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.execute<{ user_id: string }>(sql`
    SELECT DISTINCT user_id FROM push_subscriptions WHERE user_id = ANY(${`{${[...new Set(userIds)].join(',')}}`}::uuid[])`);
  return rows.map((row) => row.user_id);
}

/**
 * A post just published in a group (inside its own transaction: created_at is the transaction's
 * now(), which an edit's is not): the group's other members with a device. Empty for a post outside
 * a group, an edit, or a hidden post.
 */
export async function groupMembersToWake(tx: SqlRunner, postId: string): Promise<string[]> {
  const rows = await tx.execute<{ user_id: string }>(sql`
    SELECT DISTINCT m.user_id
    FROM posts p
    JOIN group_members m ON m.group_id = p.group_id AND m.user_id <> p.user_id
    JOIN push_subscriptions s ON s.user_id = m.user_id
    WHERE p.id = ${postId} AND p.group_id IS NOT NULL AND p.created_at = now() AND NOT p.is_hidden`);
  return rows.map((row) => row.user_id);
}
