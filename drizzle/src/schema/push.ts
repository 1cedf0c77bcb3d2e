import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BROADCAST_PUSH_KINDS, PUSH_KINDS, type PushPayload } from '@tribuna/contracts/pushRules';
import { createdAt, id, oneOf } from './columns.ts';
import { profiles } from './profiles.ts';
import { polls } from './polls.ts';

/**
 * A device a fan subscribed for web push (issue 31): the browser's PushSubscription. One row per
 * endpoint (a URL of a browser's push service, checked against the allowlist when stored and again
 * when the worker connects); removed when the fan says 'Quitar' or the push service answers 404/410.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The device's P-256 public key and auth secret (base64url), for RFC 8291 encryption. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** 'Chrome en Android', … (from the user agent when it subscribed). */
    browser: text('browser').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_uq').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * A fan's push preferences per kind (no row: PUSH_KIND_DEFAULTS), and `notifiedThrough`: the
 * watermark of their own pushes (notifications and group posts created up to then were pushed or
 * passed over), advanced in the transaction that writes a `push.user` run's messages.
 */
export const pushPreferences = pgTable('push_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  pollOpened: boolean('poll_opened').notNull().default(true),
  pollClosing: boolean('poll_closing').notNull().default(true),
  replies: boolean('replies').notNull().default(true),
  mentions: boolean('mentions').notNull().default(true),
  reactions: boolean('reactions').notNull().default(false),
  follows: boolean('follows').notNull().default(true),
  groups: boolean('groups').notNull().default(true),
  notifiedThrough: timestamp('notified_through', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A poll's 'Votación abierta' (an admin's 'Notificar a los fans') or 'Cierra pronto' (the worker's
 * schedule) to every opted-in device: once per poll and kind. `payload` is encrypted for each device
 * by the worker; `total`, `sent`, `gone` and `failed` are its progress (the queues screen).
 */
export const pushBroadcasts = pgTable(
  'push_broadcasts',
  {
    id: id(),
    kind: text('kind', { enum: BROADCAST_PUSH_KINDS }).notNull(),
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    payload: jsonb('payload').$type<PushPayload>().notNull(),
    status: text('status', { enum: ['queued', 'sending', 'done'] })
      .notNull()
      .default('queued'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    gone: integer('gone').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('push_broadcasts_kind', oneOf(t.kind, BROADCAST_PUSH_KINDS)),
    check('push_broadcasts_status', oneOf(t.status, ['queued', 'sending', 'done'])),
    uniqueIndex('push_broadcasts_poll_kind_uq').on(t.pollId, t.kind),
    index('push_broadcasts_created_idx').on(t.createdAt.desc()),
  ],
);

/**
 * One push to one device: a broadcast's (its payload on the broadcast row; one per broadcast and
 * device) or a fan's own (`payload` here). 'pending' → 'sending' (claimed by a worker at
 * `claimedAt`) → 'sent' / 'failed'. A claim older than PUSH_LIMITS.claimTimeoutSeconds was a worker
 * that died before confirming: the message is sent again with the same id and topic (the device
 * shows it once: the id is the notification's tag). Sent and failed rows are kept a day.
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    broadcastId: uuid('broadcast_id').references(() => pushBroadcasts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PUSH_KINDS }).notNull(),
    payload: jsonb('payload').$type<PushPayload>(),
    state: text('state', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    check('push_messages_kind', oneOf(t.kind, PUSH_KINDS)),
    check('push_messages_state', oneOf(t.state, ['pending', 'sending', 'sent', 'failed'])),
    check('push_messages_payload', sql`(${t.broadcastId} IS NULL) = (${t.payload} IS NOT NULL)`),
    uniqueIndex('push_messages_broadcast_uq')
      .on(t.broadcastId, t.subscriptionId)
      .where(sql`${t.broadcastId} IS NOT NULL`),
    // The sender's claim: due messages in order.
    index('push_messages_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.state} IN ('pending', 'sending')`),
    index('push_messages_subscription_idx').on(t.subscriptionId),
  ],
);
