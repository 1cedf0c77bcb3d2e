import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import type { Db } from '@tribuna/drizzle/client';
import { notificationText } from '@tribuna/contracts/notificationRules';
import { PUSH_KIND_OF_NOTIFICATION, PUSH_LIMITS, broadcastPushText, clipPushText, type PushKind, type PushPayload } from '@tribuna/contracts/pushRules';
import { loadVapidKeys } from '../../../server/src/push/vapid.ts';
import * as repo from './repository.ts';
import { ThreadEncryptor } from './encryptor.ts';
import { backoffMs, PushSender } from './sender.ts';

// Web push in the worker (issue 31): claim → send → confirm, for a broadcast's devices, a fan's
// own push, and whatever is due (retries, claims of dead workers). See repository.ts for the
// message's states and sender.ts for the requests.

export interface PushRuntime {
  sender: PushSender;
}

const runtimes = new WeakMap<Config, Promise<PushRuntime | null>>();

/**
 * The process's sender for this configuration (VAPID keys loaded once; one set of keep-alive
 * agents and one concurrency bound for every push job of the process); null when web push is off
 * (production without VAPID keys).
 */
export function pushRuntime(config: Config): Promise<PushRuntime | null> {
  let runtime = runtimes.get(config);
  if (!runtime) {
    runtime = loadVapidKeys(config).then((keys) =>
      keys
        ? {
            sender: new PushSender({
              keys,
              subject: config.push.subject,
              testEndpointOrigins: config.push.testEndpointOrigins,
              // Above 0, payloads are encrypted on a thread in the idle scheduling class (PUSH_NICENESS).
              ...(config.pushNiceness > 0 ? { encryptor: new ThreadEncryptor(config.pushNiceness) } : {}),
            }),
          }
        : null,
    );
    // A failure (an unreadable keys file) is not kept: the next job tries again.
    runtime.catch(() => runtimes.delete(config));
    runtimes.set(config, runtime);
  }
  return runtime;
}

/** Confirmations are written at least this often while sending, and always before a run ends. */
const CONFIRM_EVERY_MS = 50;
/** …or as soon as this many answers wait. */
const CONFIRM_BATCH = 100;
/**
 * Answers not yet written (waiting or being written) a run lets pile up before it sends more: what
 * a crash can leave accepted by push services but unconfirmed, so sent again (with the same id and
 * topic) after the claim timeout, stays about this many plus the requests in flight.
 */
const MAX_UNCONFIRMED = 200;

export interface DrainTotals extends repo.ConfirmTotals {
  claimed: number;
}

export interface DrainOptions {
  /** Messages claimed at a time (PUSH_LIMITS.broadcastBatch). */
  batch?: number;
  /** Stop claiming after this time (ms since epoch): a scheduled run leaves the rest to the next. */
  deadline?: number;
}

/**
 * Claims due messages of `scope` batch after batch and sends each (bounded by the sender's slots),
 * writing the answers back in batches (every CONFIRM_EVERY_MS, CONFIRM_BATCH answers, and at the
 * end), until nothing of the scope is due. The next batch is claimed while the current one's last
 * requests are in flight.
 */
export async function drain(db: Db, sender: PushSender, scope: repo.ClaimScope, logger: Logger, options: DrainOptions = {}): Promise<DrainTotals> {
  const batchSize = options.batch ?? PUSH_LIMITS.broadcastBatch;
  const totals: DrainTotals = { claimed: 0, sent: 0, gone: 0, failed: 0, retry: 0, stale: 0 };
  const broadcastPayloads = new Map<string, PushPayload | null>();
  let answers: repo.Confirmation[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let flushError: unknown = null;
  let writing = 0;

  const flush = (): Promise<void> => {
    if (answers.length === 0) return flushing;
    const batch = answers;
    answers = [];
    writing += batch.length;
    flushing = flushing.then(async () => {
      try {
        const done = await repo.confirm(db, batch);
        totals.sent += done.sent;
        totals.gone += done.gone;
        totals.failed += done.failed;
        totals.retry += done.retry;
        totals.stale += done.stale;
      } catch (error) {
        // Unconfirmed claims are sent again after the claim timeout, with the same payload id.
        flushError ??= error;
        logger.warn({ err: error, messages: batch.length }, 'push: confirmations could not be written');
      } finally {
        writing -= batch.length;
      }
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), CONFIRM_EVERY_MS);
  timer.unref();

  const payloadOf = async (message: repo.ClaimedMessage): Promise<PushPayload | null> => {
    if (message.payload) return message.payload;
    if (!message.broadcastId) return null;
    if (!broadcastPayloads.has(message.broadcastId)) {
      broadcastPayloads.set(message.broadcastId, (await repo.findBroadcast(db, message.broadcastId))?.payload ?? null);
    }
    return broadcastPayloads.get(message.broadcastId) ?? null;
  };

  const answer = (message: repo.ClaimedMessage, outcome: Awaited<ReturnType<PushSender['send']>>) => {
    const base = { id: message.id, claim: message.claim, subscriptionId: message.subscriptionId };
    if (outcome.outcome === 'sent') answers.push({ ...base, outcome: 'sent' });
    else if (outcome.outcome === 'gone' || outcome.outcome === 'failed') answers.push({ ...base, outcome: outcome.outcome, error: outcome.error });
    else if (message.attempts >= PUSH_LIMITS.maxAttempts)
      answers.push({ ...base, outcome: 'failed', error: `${outcome.error} (attempt ${message.attempts}, giving up)` });
    else answers.push({ ...base, outcome: 'retry', error: outcome.error, delayMs: outcome.retryAfterMs ?? backoffMs(message.attempts) });
    if (answers.length >= CONFIRM_BATCH) void flush();
  };

  const inFlight = new Set<Promise<void>>();
  try {
    let next: Promise<repo.ClaimedMessage[]> | null = repo.claimDue(db, scope, batchSize);
    while (next) {
      const batch: repo.ClaimedMessage[] = await next;
      next = null;
      if (batch.length === 0) break;
      totals.claimed += batch.length;
      const prefetchAt = Math.max(0, batch.length - sender.slots.size * 2);
      for (const [index, message] of batch.entries()) {
        if (index === prefetchAt && (!options.deadline || Date.now() < options.deadline) && !('ids' in scope)) {
          next = repo.claimDue(db, scope, batchSize);
          // Held until the loop awaits it; a rejection is rethrown there.
          next.catch(() => undefined);
        }
        while (answers.length + writing >= MAX_UNCONFIRMED) await flush();
        const release = await sender.slots.acquire();
        const payload = await payloadOf(message);
        if (!payload) {
          release();
          answer(message, { outcome: 'failed', status: null, error: 'no payload' });
          continue;
        }
        const sending = sender
          .deliver({ endpoint: message.endpoint, p256dh: message.p256dh, auth: message.auth, kind: message.kind, payload })
          .then((outcome) => answer(message, outcome))
          .finally(() => {
            release();
            inFlight.delete(sending);
          });
        inFlight.add(sending);
      }
    }
    await Promise.all(inFlight);
  } finally {
    await Promise.allSettled(inFlight);
    clearInterval(timer);
    await flush();
  }
  if (flushError) throw flushError;
  return totals;
}

/**
 * A broadcast's run: lists its devices (once, if still queued), sends every pending message, and
 * marks it done when none is left pending or claimed (claims of a dead worker are taken again by
 * push.deliver once they time out).
 */
export async function runBroadcast(db: Db, sender: PushSender, broadcastId: string, logger: Logger) {
  const broadcast = await repo.findBroadcast(db, broadcastId);
  if (!broadcast) return { broadcastId, status: 'missing' as const };
  if (broadcast.status === 'done') return { broadcastId, status: 'done' as const, listed: 0 };
  const listed = await repo.listBroadcast(db, broadcastId);
  const totals = await drain(db, sender, { broadcastId }, logger);
  const done = await repo.finishBroadcast(db, broadcastId);
  logger.info({ broadcastId, kind: broadcast.kind, listed, ...totals, done }, 'push broadcast run');
  return { broadcastId, status: done ? ('done' as const) : ('sending' as const), listed, ...totals };
}

/** The path a fan's push opens. */
function entryUrl(entry: repo.ActivityEntry): string {
  if (entry.source === 'group_post') return `/grupos/${entry.groupId}`;
  if (entry.postId) return `/wall?post=${encodeURIComponent(entry.postId)}`;
  return `/perfil/${entry.actorId}`;
}

function entryKind(entry: repo.ActivityEntry): PushKind {
  return entry.source === 'group_post' ? 'groups' : PUSH_KIND_OF_NOTIFICATION[entry.type!]!;
}

/**
 * The push of what happened to a fan: the newest entry's sentence as the title (the notification
 * list's, notificationText; 'Ana publicó en <grupo>' for a group post), its excerpt as the body,
 * '+N más' for the others.
 */
export function userPushPayload(entries: repo.ActivityEntry[], total: number): { kind: PushKind; payload: PushPayload } {
  const newest = entries[0]!;
  const kind = entryKind(newest);
  const actorName = newest.actorName || 'Usuario';
  let title: string;
  if (newest.source === 'group_post') title = `${actorName} publicó en ${newest.groupName ?? 'tu grupo'}`;
  else {
    // Reactions to the same item in this push group into one sentence, as in the list.
    const sameItem = entries.filter((e) => e.type === newest.type && e.postId === newest.postId && e.source === 'notification');
    const reactions = newest.type === 'post_reaction' || newest.type === 'comment_reaction';
    title = notificationText({
      type: newest.type!,
      actorName,
      othersCount: reactions ? new Set(sameItem.map((e) => e.actorId)).size - 1 : 0,
      reactionTypes: reactions ? sameItem.map((e) => e.reactionType).filter((t) => t !== null) : [],
    });
  }
  const others = total - 1;
  const excerpt = newest.excerpt ? clipPushText(newest.excerpt, PUSH_LIMITS.bodyLength) : '';
  const more = others > 0 ? `+${others} más` : '';
  const body = excerpt && more ? `${clipPushText(excerpt, PUSH_LIMITS.bodyLength - more.length - 3)} · ${more}` : excerpt || more;
  return {
    kind,
    payload: {
      id: randomUUID(),
      kind,
      title: clipPushText(title, PUSH_LIMITS.titleLength),
      body,
      url: entryUrl(newest),
      at: newest.at,
    },
  };
}

/**
 * A fan's own push: in one transaction, their preferences row locked (created from their oldest
 * device if missing), what happened after their watermark read, the watermark moved past it, and
 * one message per device written (when anything they opted into happened); then those are sent.
 */
export async function runUserPush(db: Db, sender: PushSender, userId: string, logger: Logger) {
  const written = await db.transaction(async (tx) => {
    const preferences = await repo.lockPreferences(tx, userId);
    if (!preferences) return null;
    const activity = await repo.activitySince(tx, userId, preferences.notifiedThrough);
    if (activity.newest) await repo.advanceWatermark(tx, userId, activity.newest);
    const wanted = activity.entries.filter((e) => preferences.wanted[entryKind(e)]);
    if (wanted.length === 0) return { ids: [] as number[], entries: activity.total };
    // Counted among the wanted ones only (what was read; more than ACTIVITY_READ: all of them).
    const total = activity.total > activity.entries.length ? activity.total - (activity.entries.length - wanted.length) : wanted.length;
    const { kind, payload } = userPushPayload(wanted, total);
    return { ids: await repo.insertUserMessages(tx, userId, kind, payload), entries: activity.total, payloadId: payload.id };
  });
  if (!written) return { userId, devices: 0 };
  if (written.ids.length === 0) return { userId, devices: written.ids.length, entries: written.entries };
  const totals = await drain(db, sender, { ids: written.ids }, logger);
  return { userId, devices: written.ids.length, entries: written.entries, ...totals };
}

/** A poll's 'Cierra pronto' payload (as the admin's broadcast: the poll's URL, a fresh id). */
export function closingPayload(poll: repo.ClosingPoll, now = new Date()): PushPayload {
  const text = broadcastPushText('poll_closing', poll.title);
  return {
    id: randomUUID(),
    kind: 'poll_closing',
    title: clipPushText(text.title, PUSH_LIMITS.titleLength),
    body: clipPushText(text.body, PUSH_LIMITS.bodyLength),
    url: `/?encuesta=${poll.id}`,
    at: now.toISOString(),
  };
}

/** Every minute: each active poll ending within the lead time gets its 'Cierra pronto' broadcast (once: the unique (poll, kind)), sent now. */
export async function runClosingSoon(db: Db, sender: PushSender, logger: Logger) {
  const created: string[] = [];
  for (const poll of await repo.pollsClosingSoon(db)) {
    const id = await repo.insertBroadcast(db, poll.id, 'poll_closing', closingPayload(poll));
    if (id) created.push(id);
  }
  const runs = [];
  for (const id of created) runs.push(await runBroadcast(db, sender, id, logger));
  return { broadcasts: created.length, runs };
}

/** A broadcast still queued this long had its job lost (or never delivered): listed by push.deliver. */
const LOST_BROADCAST_SECONDS = 60;
/** A scheduled push.deliver stops claiming after this long; the next run goes on. */
const DELIVER_RUN_MS = 50_000;

/**
 * Sends what is due: retries whose time came, claims of dead workers (older than the claim
 * timeout), messages of broadcasts whose job was lost; lists broadcasts left queued and finishes
 * those with nothing left.
 */
export async function runDeliver(db: Db, sender: PushSender, logger: Logger) {
  for (const broadcast of await repo.unfinishedBroadcasts(db, LOST_BROADCAST_SECONDS)) {
    if (broadcast.status === 'queued') await repo.listBroadcast(db, broadcast.id);
  }
  const totals = await drain(db, sender, { all: true }, logger, { deadline: Date.now() + DELIVER_RUN_MS });
  let finished = 0;
  for (const broadcast of await repo.unfinishedBroadcasts(db, LOST_BROADCAST_SECONDS)) {
    if (broadcast.status === 'sending' && (await repo.finishBroadcast(db, broadcast.id))) finished++;
  }
  return { ...totals, finished };
}

/** Fans looked at per sweep. */
const SWEEP_FANS = 200;

/** Every minute: fans whose push.user job was lost get their push now; old sent and failed messages go. */
export async function runSweep(db: Db, sender: PushSender, logger: Logger) {
  const fans = await repo.fansWithLostPushes(db, PUSH_LIMITS.userWindowSeconds * 3, SWEEP_FANS);
  let pushed = 0;
  for (const userId of fans) {
    const result = await runUserPush(db, sender, userId, logger);
    if (result.devices > 0) pushed++;
  }
  const purged = await repo.purgeOldMessages(db);
  return { fans: fans.length, pushed, purged };
}
