import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  PushBroadcastList,
  PushBroadcastView,
  PushConfig,
  PushDevice,
  PushPreferences,
  PushSettings,
  PushSubscriptionInput,
} from '@tribuna/contracts/api/push';
import { pushJobIds } from '@tribuna/contracts/jobs';
import {
  PUSH_ERRORS,
  PUSH_KIND_DEFAULTS,
  PUSH_KINDS,
  PUSH_LIMITS,
  broadcastPushText,
  clipPushText,
  type BroadcastPushKind,
  type PushPayload,
} from '@tribuna/contracts/pushRules';
import type { Db } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { recordAudit } from '../admin/audit.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { Outbox } from '../outbox/plugin.ts';
import { browserLabel } from './browserLabel.ts';
import type { EndpointPolicy } from './endpointPolicy.ts';
import * as repo from './repository.ts';
import type { VapidKeys } from './vapid.ts';

// Web push on the server (issue 31): the VAPID public key browsers subscribe with, a fan's devices
// and preferences, and an admin's 'Notificar a los fans'. Nothing is sent from a request: the
// broadcast is a row and an outbox job in the admin's transaction, and the worker sends it.

export interface PushContext {
  /** For transactions. */
  db: Db;
  /** Reads outside transactions. */
  reader: SqlRunner;
  /** Which endpoints may be stored (SSRF: endpointPolicy.ts). */
  policy: EndpointPolicy;
  /** null: push is off here (production without VAPID keys). */
  vapid: VapidKeys | null;
  outbox: Pick<Outbox, 'enqueue' | 'deliver'>;
  log: FastifyBaseLogger;
}

/** The newest broadcasts the queues screen lists. */
export const BROADCASTS_LISTED = 20;

/** GET /api/push/config: whether push works here, and the key to subscribe with. */
export function pushConfig(ctx: PushContext): PushConfig {
  return ctx.vapid ? { enabled: true, publicKey: ctx.vapid.publicKey } : { enabled: false, publicKey: '' };
}

function presentDevice(row: repo.DeviceRow): PushDevice {
  return { id: row.id, browser: row.browser, createdAt: row.created_at, lastSeenAt: row.last_seen_at };
}

function presentPreferences(row: repo.PreferencesRow | null): PushPreferences {
  return Object.fromEntries(PUSH_KINDS.map((kind) => [kind, row ? row[kind] : PUSH_KIND_DEFAULTS[kind]])) as PushPreferences;
}

/** GET /api/me/push: the fan's devices (newest first) and preferences (the defaults until saved). */
export async function settings(ctx: PushContext, userId: string): Promise<PushSettings> {
  const [devices, preferences] = await Promise.all([repo.listDevices(ctx.reader, userId), repo.findPreferences(ctx.reader, userId)]);
  return { devices: devices.map(presentDevice), preferences: presentPreferences(preferences) };
}

/** PushSubscription.expirationTime (ms since the epoch) as a date; beyond what a timestamp holds, none. */
function expiryOf(expirationTime: number | null | undefined): Date | null {
  if (expirationTime === null || expirationTime === undefined) return null;
  const date = new Date(expirationTime);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 ? null : date;
}

/**
 * POST /api/me/push/subscriptions: this device. The endpoint must pass the endpoint policy (https on
 * a browser's push service, public addresses only; else 400). One subscription per endpoint:
 * subscribing again updates its keys and label; an endpoint another fan subscribed (the same
 * browser, another account now) becomes this fan's, as a new device. `replaces` (the endpoint the
 * browser rotated away from) is removed in the same transaction, if it is the fan's. A fan holds at
 * most PUSH_LIMITS.subscriptionsPerUser devices (409 beyond), counted under a per-fan lock.
 */
export async function subscribe(ctx: PushContext, userId: string, input: PushSubscriptionInput, userAgent: string | undefined): Promise<PushDevice> {
  const verdict = await ctx.policy.check(input.endpoint);
  if (!verdict.ok) {
    ctx.log.info({ reason: verdict.reason, host: hostOf(input.endpoint) }, 'push endpoint refused');
    throw badRequest(PUSH_ERRORS.endpointRefused);
  }
  const row = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    await repo.lockUserDevices(runner, userId);
    if (input.replaces !== undefined && input.replaces !== input.endpoint) await repo.deleteOwnEndpoint(runner, userId, input.replaces);
    const existing = await repo.lockEndpoint(runner, input.endpoint);
    if (existing && existing.user_id !== userId) await repo.deleteSubscription(runner, existing.id);
    if (!existing || existing.user_id !== userId) {
      const devices = await repo.countDevices(runner, userId);
      if (devices >= PUSH_LIMITS.subscriptionsPerUser) throw conflict(PUSH_ERRORS.tooManyDevices);
      if (devices === 0) await repo.startWatermarkNow(runner, userId);
    }
    return repo.upsertSubscription(runner, {
      userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      browser: browserLabel(userAgent),
      expiresAt: expiryOf(input.expirationTime),
    });
  });
  return presentDevice(row);
}

function hostOf(endpoint: string): string | null {
  try {
    return new URL(endpoint).host;
  } catch {
    return null;
  }
}

/** DELETE /api/me/push/subscriptions/:deviceId ('Quitar'): one of the fan's devices (404 for any other id). */
export async function removeDevice(ctx: PushContext, userId: string, deviceId: string): Promise<PushSettings> {
  const removed = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    await repo.lockUserDevices(runner, userId);
    return repo.deleteOwnDevice(runner, userId, deviceId);
  });
  if (!removed) throw notFound(PUSH_ERRORS.deviceNotFound);
  return settings(ctx, userId);
}

/** PUT /api/me/push/preferences: every kind on or off. */
export async function updatePreferences(ctx: PushContext, userId: string, preferences: PushPreferences): Promise<PushPreferences> {
  const row = await ctx.db.transaction((tx) => repo.savePreferences(drizzleRunner(tx), userId, preferences));
  return presentPreferences(row);
}

// --- Broadcasts (site admins) ---------------------------------------------------------------------

function presentBroadcast(row: repo.BroadcastRow): PushBroadcastView {
  return {
    id: row.id,
    kind: row.kind,
    pollId: row.poll_id,
    pollTitle: row.poll_title,
    status: row.status,
    total: row.total,
    sent: row.sent,
    gone: row.gone,
    failed: row.failed,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** What a poll's broadcast shows on the devices: a fresh id (its notification tag), the texts, the poll's page. */
export function broadcastPayload(kind: BroadcastPushKind, pollId: string, pollTitle: string, at: Date): PushPayload {
  const text = broadcastPushText(kind, pollTitle);
  return {
    id: randomUUID(),
    kind,
    title: clipPushText(text.title, PUSH_LIMITS.titleLength),
    body: clipPushText(text.body, PUSH_LIMITS.bodyLength),
    url: `/?encuesta=${pollId}`,
    at: at.toISOString(),
  };
}

/**
 * POST /api/admin/polls/:pollId/notify ('Notificar a los fans'): 'Votación abierta' to every device
 * whose fan keeps that kind on. Only an active poll whose end has not passed (409), once per poll
 * (409: the unique poll and kind). The broadcast row, its `push.broadcast` job (outbox) and the
 * audit entry commit together; the job is handed to the queue right after (the relay otherwise).
 */
export async function notifyPoll(ctx: PushContext, admin: { id: string }, pollId: string, now = new Date()): Promise<PushBroadcastView> {
  const kind = 'poll_opened' as const;
  const { broadcastId, job } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    const poll = await repo.lockPollForNotify(runner, pollId);
    if (!poll) throw notFound(PUSH_ERRORS.pollNotFound);
    if (!poll.open) throw conflict(PUSH_ERRORS.pollNotNotifiable);
    const payload = broadcastPayload(kind, pollId, poll.title, now);
    const id = await repo.insertBroadcast(runner, { pollId, kind, createdBy: admin.id, payload });
    if (id === null) throw conflict(PUSH_ERRORS.alreadyNotified);
    const job = await ctx.outbox.enqueue(tx, 'push.broadcast', { broadcastId: id }, { jobId: pushJobIds.broadcast({ broadcastId: id }) });
    await recordAudit(runner, admin.id, {
      action: 'poll.notify',
      entityType: 'poll',
      entityId: pollId,
      before: null,
      after: { broadcastId: id, kind, title: payload.title, body: payload.body, url: payload.url },
    });
    return { broadcastId: id, job };
  });
  await ctx.outbox.deliver([job]);
  const row = await repo.findBroadcast(ctx.reader, broadcastId);
  if (!row) throw notFound(PUSH_ERRORS.pollNotFound);
  return presentBroadcast(row);
}

/** GET /api/admin/push/broadcasts: the latest ones and their progress, newest first. */
export async function listBroadcasts(ctx: PushContext): Promise<PushBroadcastList> {
  return { items: (await repo.latestBroadcasts(ctx.reader, BROADCASTS_LISTED)).map(presentBroadcast) };
}
