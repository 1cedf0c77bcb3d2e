import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { pushJobIds } from '@tribuna/contracts/jobs';
import { PUSH_LIMITS, type PushPayload } from '@tribuna/contracts/pushRules';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildComment, buildPoll, buildPost, buildUser } from '../../../test/support/factories.ts';
import { startPushService, type BrowserSubscription } from '../../../test/support/pushService.ts';
import { useQueueWorker } from '../../../test/support/worker.ts';
import { generateVapidKeys } from '../../../server/src/push/vapid.ts';
import * as repo from './repository.ts';
import { backoffMs, classify, parseRetryAfter } from './sender.ts';

// Web push through a real BullMQ worker to a local push service that verifies the VAPID JWT and
// decrypts every message with the device's keys (test/support/pushService.ts).

const service = await startPushService();
const vapid = generateVapidKeys();
// Own Redis namespace under the run's prefix: only this file's worker consumes these queues.
const config = testConfig({
  REDIS_PREFIX: `${testConfig().redisPrefix}_push`,
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'mailto:push-tests@tribuna.mx',
  PUSH_TEST_ENDPOINT_ORIGINS: service.origin,
});
const database = testDatabase();
const db = database.db;
const harness = useQueueWorker(config, database, 'push');

afterAll(async () => {
  await service.close();
});

beforeEach(() => {
  service.reset();
});

type User = Awaited<ReturnType<typeof buildUser>>;

/** A device of `user` subscribed (as the server's subscribe route stores it): the browser's subscription. */
async function device(user: User, createdAt?: Date): Promise<BrowserSubscription> {
  const subscription = service.newSubscription({ applicationServerKey: vapid.publicKey });
  await db.insert(schema.pushSubscriptions).values({
    userId: user.id,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    browser: 'Chrome en Android',
    ...(createdAt ? { createdAt } : {}),
  });
  return subscription;
}

/** A job id of its own (BullMQ keeps finished jobs: an id used again would not run). */
const uniqueId = () => `test-${crypto.randomUUID()}`;

let keySeq = 0;
/** A notification row, as the server's notifications service writes it. */
async function notify(values: Omit<typeof schema.notifications.$inferInsert, 'dedupeKey' | 'groupKey'>) {
  keySeq += 1;
  const [row] = await db
    .insert(schema.notifications)
    .values({ ...values, dedupeKey: `k${keySeq}`, groupKey: `g${keySeq}` })
    .returning();
  return row!;
}

const payloads = (subscription: BrowserSubscription) => service.received(subscription).map((m) => m.data as PushPayload);

async function messageRows() {
  return db.select().from(schema.pushMessages).orderBy(schema.pushMessages.id);
}

async function broadcast(kind: 'poll_opened' | 'poll_closing', pollId: string) {
  const payload: PushPayload = {
    id: crypto.randomUUID(),
    kind,
    title: '¡Ya pueden votar!',
    body: 'Votación abierta: ¿Quién se queda?',
    url: `/?encuesta=${pollId}`,
    at: new Date().toISOString(),
  };
  const [row] = await db.insert(schema.pushBroadcasts).values({ kind, pollId, payload }).returning();
  return row!;
}

describe('a fan’s own push (push.user)', () => {
  it('a comment on my post arrives once, decrypted, with the sentence, the excerpt and the post’s URL', async () => {
    const me = await buildUser(db);
    const ana = await buildUser(db, { displayName: 'Ana' });
    const phone = await device(me);
    const post = await buildPost(db, me.id);
    const comment = await buildComment(db, post.id, ana.id, { content: '¡Qué buena publicación, totalmente de acuerdo!' });
    await notify({ userId: me.id, actorId: ana.id, type: 'post_comment', postId: post.id, commentId: comment.id });

    const result = await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 1)));
    expect(result).toMatchObject({ devices: 1, sent: 1 });

    const [received, ...more] = service.received(phone);
    expect(more).toEqual([]);
    expect(received).toMatchObject({
      ttl: 86_400,
      urgency: 'normal',
      topic: 'actividad',
      vapidKey: vapid.publicKey,
      vapidSubject: 'mailto:push-tests@tribuna.mx',
    });
    expect(received!.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'replies',
      title: 'Ana comentó tu publicación',
      body: '¡Qué buena publicación, totalmente de acuerdo!',
      url: `/wall?post=${post.id}`,
      at: expect.any(String),
    });
    const [message] = await messageRows();
    expect(message).toMatchObject({ state: 'sent', attempts: 1, kind: 'replies' });

    // Run again (a duplicate job, the sweep): nothing new after the watermark, nothing sent.
    await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 2)));
    expect(service.received(phone)).toHaveLength(1);
    expect(await messageRows()).toHaveLength(1);
  });

  it('a burst of notifications within a window gives one push per device, the newest first and ‘+N más’', async () => {
    const me = await buildUser(db);
    const [ana, beto, caro] = [
      await buildUser(db, { displayName: 'Ana' }),
      await buildUser(db, { displayName: 'Beto' }),
      await buildUser(db, { displayName: 'Caro' }),
    ];
    const phone = await device(me);
    const laptop = await device(me);
    const post = await buildPost(db, me.id, { content: 'Mi publicación' });
    await notify({ userId: me.id, actorId: ana.id, type: 'post_comment', postId: post.id, commentId: (await buildComment(db, post.id, ana.id)).id });
    await notify({ userId: me.id, actorId: beto.id, type: 'post_mention', postId: (await buildPost(db, beto.id, { content: 'Hola @alguien' })).id });
    await notify({ userId: me.id, actorId: caro.id, type: 'follow', postId: null });

    // The server adds push.user with the window's job id after each commit: one job runs.
    const jobId = pushJobIds.user(me.id, Math.floor(Date.now() / 1000 / PUSH_LIMITS.userWindowSeconds));
    const jobs = await Promise.all([1, 2, 3].map(() => harness.app.enqueue('push.user', { userId: me.id }, jobId)));
    expect(new Set(jobs.map((j) => j.id))).toEqual(new Set([jobId]));
    await harness.run(Promise.resolve(jobs[0]!));

    for (const subscription of [phone, laptop]) {
      expect(payloads(subscription)).toEqual([
        expect.objectContaining({ kind: 'follows', title: 'Caro empezó a seguirte', body: '+2 más', url: `/perfil/${caro.id}` }),
      ]);
    }
    // The same push (one id) on both devices.
    expect(payloads(phone)[0]!.id).toBe(payloads(laptop)[0]!.id);
  });

  it('leaves out kinds the fan turned off (reactions by default) and moves the watermark past them', async () => {
    const me = await buildUser(db);
    const ana = await buildUser(db, { displayName: 'Ana' });
    const phone = await device(me);
    const post = await buildPost(db, me.id);
    await notify({ userId: me.id, actorId: ana.id, type: 'post_reaction', postId: post.id, reactionType: 'love' });

    expect(await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 1)))).toMatchObject({ devices: 0 });
    expect(service.received(phone)).toEqual([]);
    const [preferences] = await db.select().from(schema.pushPreferences).where(eq(schema.pushPreferences.userId, me.id));
    expect(preferences).toMatchObject({ reactions: false, replies: true });

    // Reactions on: the next one is pushed, grouped as the list words it; the older one is not again.
    await db.update(schema.pushPreferences).set({ reactions: true }).where(eq(schema.pushPreferences.userId, me.id));
    const beto = await buildUser(db, { displayName: 'Beto' });
    await notify({ userId: me.id, actorId: beto.id, type: 'post_reaction', postId: post.id, reactionType: 'haha' });
    await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 2)));
    expect(payloads(phone)).toEqual([expect.objectContaining({ kind: 'reactions', title: 'A Beto le divierte tu publicación', body: expect.any(String) })]);
  });

  it('a post in my group: ‘Ana publicó en <grupo>’, with the group’s URL', async () => {
    const me = await buildUser(db);
    const ana = await buildUser(db, { displayName: 'Ana' });
    const [group] = await db.insert(schema.groups).values({ name: 'Fans de la casa' }).returning();
    await db.insert(schema.groupMembers).values([
      { groupId: group!.id, userId: me.id, joinedAt: new Date(Date.now() - 60_000) },
      { groupId: group!.id, userId: ana.id },
    ]);
    const phone = await device(me);
    await buildPost(db, ana.id, { groupId: group!.id, visibility: 'group', content: 'Nos vemos en la gala' });
    await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 1)));
    expect(payloads(phone)).toEqual([
      expect.objectContaining({ kind: 'groups', title: 'Ana publicó en Fans de la casa', body: 'Nos vemos en la gala', url: `/grupos/${group!.id}` }),
    ]);
    expect(service.received(phone)[0]).toMatchObject({ topic: 'grupos' });
  });
});

describe('push.sweep', () => {
  it('sends a fan’s push whose push.user job was lost, once, and moves past what is never pushed', async () => {
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    const me = await buildUser(db);
    const other = await buildUser(db);
    const ana = await buildUser(db, { displayName: 'Ana' });
    const phone = await device(me, minutesAgo(10));
    const otherPhone = await device(other, minutesAgo(10));
    const post = await buildPost(db, me.id);
    await notify({
      userId: me.id,
      actorId: ana.id,
      type: 'post_comment',
      postId: post.id,
      commentId: (await buildComment(db, post.id, ana.id)).id,
      createdAt: minutesAgo(2),
    });
    // A comment on a post hidden since is never pushed: looked at once, passed over.
    const hidden = await buildPost(db, other.id, { isHidden: true });
    await notify({
      userId: other.id,
      actorId: ana.id,
      type: 'post_comment',
      postId: hidden.id,
      commentId: (await buildComment(db, hidden.id, ana.id)).id,
      createdAt: minutesAgo(2),
    });
    // A report's outcome is never pushed, and not looked at.
    await notify({ userId: other.id, actorId: ana.id, type: 'report_dismissed', postId: null, createdAt: minutesAgo(3) });
    // Recent: its push.user job is still due, the sweep leaves it.
    const fresh = await buildUser(db);
    const freshPhone = await device(fresh, minutesAgo(10));
    await notify({ userId: fresh.id, actorId: ana.id, type: 'follow', postId: null });

    expect(await harness.run(harness.app.enqueue('push.sweep', {}, uniqueId()))).toMatchObject({ fans: 2, pushed: 1 });
    expect(payloads(phone)).toEqual([expect.objectContaining({ kind: 'replies', title: 'Ana comentó tu publicación' })]);
    expect(service.received(otherPhone)).toEqual([]);
    expect(service.received(freshPhone)).toEqual([]);

    expect(await harness.run(harness.app.enqueue('push.sweep', {}, uniqueId()))).toMatchObject({ fans: 0, pushed: 0 });
    expect(service.received(phone)).toHaveLength(1);
  });
});

describe('broadcasts', () => {
  it('a poll opened reaches each opted-in device once, not the opted-out fan’s, with progress on the broadcast', async () => {
    const { poll } = await buildPoll(db);
    const [fan, optedOut, optedIn] = [await buildUser(db), await buildUser(db), await buildUser(db)];
    const fanDevices = [await device(fan), await device(fan)];
    const optedOutDevice = await device(optedOut);
    const optedInDevice = await device(optedIn);
    await db.insert(schema.pushPreferences).values([
      { userId: optedOut.id, pollOpened: false },
      { userId: optedIn.id, pollOpened: true, replies: false },
    ]);
    const row = await broadcast('poll_opened', poll.id);

    const result = await harness.run(harness.app.enqueue('push.broadcast', { broadcastId: row.id }, pushJobIds.broadcast({ broadcastId: row.id })));
    expect(result).toMatchObject({ status: 'done', listed: 3, sent: 3 });

    for (const subscription of [...fanDevices, optedInDevice]) {
      expect(service.received(subscription)).toEqual([expect.objectContaining({ data: row.payload, topic: 'votacion-abierta', urgency: 'high', ttl: 3600 })]);
    }
    expect(service.received(optedOutDevice)).toEqual([]);
    const [after] = await db.select().from(schema.pushBroadcasts).where(eq(schema.pushBroadcasts.id, row.id));
    expect(after).toMatchObject({ status: 'done', total: 3, sent: 3, gone: 0, failed: 0, finishedAt: expect.any(Date) });
    // One VAPID JWT signed for the push service's origin, reused for every request.
    expect(service.counts().vapidTokens).toBe(1);

    // The job again (a retry, a duplicate): lists nobody, sends nothing.
    await harness.run(harness.app.enqueue('push.broadcast', { broadcastId: row.id }, `again-${row.id}`));
    expect(service.counts().delivered).toBe(3);
  });

  it('‘Cierra pronto’ goes once to each opted-in device of an active poll ending within 10 minutes, and once per poll', async () => {
    const { poll: closing } = await buildPoll(db, { title: '¿Quién sale hoy?', endDate: new Date(Date.now() + 5 * 60_000) });
    await buildPoll(db, { endDate: new Date(Date.now() + 30 * 60_000) });
    await buildPoll(db, { status: 'closed', endDate: new Date(Date.now() + 5 * 60_000) });
    const [fan, optedOut] = [await buildUser(db), await buildUser(db)];
    const phone = await device(fan);
    const optedOutDevice = await device(optedOut);
    await db.insert(schema.pushPreferences).values({ userId: optedOut.id, pollClosing: false });

    const result = await harness.run(harness.app.enqueue('push.closing-soon', {}, uniqueId()));
    expect(result).toMatchObject({ broadcasts: 1 });
    expect(service.received(phone)).toEqual([
      expect.objectContaining({
        topic: 'cierra-pronto',
        urgency: 'high',
        ttl: 600,
        data: expect.objectContaining({
          kind: 'poll_closing',
          title: 'Cierra pronto',
          body: 'Quedan 10 minutos para votar: ¿Quién sale hoy?',
          url: `/?encuesta=${closing.id}`,
        }),
      }),
    ]);
    expect(service.received(optedOutDevice)).toEqual([]);

    // The next minute's run: the poll has its broadcast, nothing more.
    expect(await harness.run(harness.app.enqueue('push.closing-soon', {}, uniqueId()))).toMatchObject({ broadcasts: 0 });
    expect(service.received(phone)).toHaveLength(1);
    expect(service.stored(phone)).toHaveLength(1);
  });
});

describe('the push service’s answers', () => {
  it('a 410 removes the subscription (its messages with it) and counts as gone', async () => {
    const { poll } = await buildPoll(db);
    const [fan, other] = [await buildUser(db), await buildUser(db)];
    const gone = await device(fan);
    const kept = await device(other);
    service.respondWith(gone, 410);
    const row = await broadcast('poll_opened', poll.id);
    await harness.run(harness.app.enqueue('push.broadcast', { broadcastId: row.id }, pushJobIds.broadcast({ broadcastId: row.id })));

    expect(service.refused(gone)).toEqual([expect.objectContaining({ status: 410 })]);
    expect(service.received(kept)).toHaveLength(1);
    const subscriptions = await db.select({ endpoint: schema.pushSubscriptions.endpoint }).from(schema.pushSubscriptions);
    expect(subscriptions).toEqual([{ endpoint: kept.endpoint }]);
    const [after] = await db.select().from(schema.pushBroadcasts).where(eq(schema.pushBroadcasts.id, row.id));
    expect(after).toMatchObject({ status: 'done', total: 2, sent: 1, gone: 1, failed: 0 });
  });

  it('a 429 is retried after its Retry-After with the same payload; a 500 waits 5 s, then 10 s…', async () => {
    const me = await buildUser(db);
    const ana = await buildUser(db, { displayName: 'Ana' });
    const phone = await device(me);
    const post = await buildPost(db, me.id);
    await notify({ userId: me.id, actorId: ana.id, type: 'post_comment', postId: post.id, commentId: (await buildComment(db, post.id, ana.id)).id });
    service.respondWith(phone, 429, { times: 1, retryAfter: 0 });

    expect(await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 1)))).toMatchObject({ retry: 1, sent: 0 });
    const [refused] = service.refused(phone);
    expect(refused).toMatchObject({ status: 429 });
    expect((await messageRows())[0]).toMatchObject({ state: 'pending', attempts: 1, lastError: '429 from the push service', claimedAt: null });

    // push.deliver (every 15 s) sends it: the same push, once.
    expect(await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()))).toMatchObject({ sent: 1 });
    expect(payloads(phone)).toEqual([refused!.data]);
    expect((await messageRows())[0]).toMatchObject({ state: 'sent', attempts: 2 });

    // A 500 without Retry-After: attempts × 5 s doubling.
    await db.update(schema.pushMessages).set({ state: 'pending', attempts: 1, nextAttemptAt: new Date() });
    service.respondWith(phone, 500, { times: 1 });
    await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()));
    const [waiting] = await db.execute<{ state: string; attempts: number; wait: number }>(
      sql`SELECT state, attempts, extract(epoch FROM next_attempt_at - now()) AS wait FROM push_messages`,
    );
    expect(waiting).toMatchObject({ state: 'pending', attempts: 2 });
    expect(Number(waiting!.wait)).toBeGreaterThan(8);
    expect(Number(waiting!.wait)).toBeLessThanOrEqual(10);
  });

  it('gives up after PUSH_LIMITS.maxAttempts', async () => {
    const me = await buildUser(db);
    const phone = await device(me);
    const post = await buildPost(db, me.id);
    const ana = await buildUser(db);
    await notify({ userId: me.id, actorId: ana.id, type: 'post_comment', postId: post.id, commentId: (await buildComment(db, post.id, ana.id)).id });
    service.respondWith(phone, 503, { retryAfter: 0 });
    await harness.run(harness.app.enqueue('push.user', { userId: me.id }, pushJobIds.user(me.id, 1)));
    for (let run = 2; run <= PUSH_LIMITS.maxAttempts; run++) await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()));
    expect(service.refused(phone)).toHaveLength(PUSH_LIMITS.maxAttempts);
    expect((await messageRows())[0]).toMatchObject({ state: 'failed', attempts: PUSH_LIMITS.maxAttempts });
    await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()));
    expect(service.refused(phone)).toHaveLength(PUSH_LIMITS.maxAttempts);
  });

  it('an endpoint outside the push services and the test origins is never contacted', async () => {
    const me = await buildUser(db);
    const other = await startPushService();
    try {
      const subscription = other.newSubscription();
      await db
        .insert(schema.pushSubscriptions)
        .values({ userId: me.id, endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, browser: 'x' });
      const { poll } = await buildPoll(db);
      const row = await broadcast('poll_opened', poll.id);
      await harness.run(harness.app.enqueue('push.broadcast', { broadcastId: row.id }, pushJobIds.broadcast({ broadcastId: row.id })));
      expect(other.counts().requests).toBe(0);
      expect((await messageRows())[0]).toMatchObject({ state: 'failed', lastError: 'endpoint refused (scheme)' });
    } finally {
      await other.close();
    }
  });
});

describe('answers, read', () => {
  it('2xx sent, 404/410 gone, 408/429/5xx retried (Retry-After in seconds or as a date), other 4xx failed', () => {
    expect(classify(201, undefined)).toEqual({ outcome: 'sent', status: 201 });
    expect(classify(410, undefined)).toMatchObject({ outcome: 'gone' });
    expect(classify(404, undefined)).toMatchObject({ outcome: 'gone' });
    expect(classify(429, '7')).toMatchObject({ outcome: 'retry', retryAfterMs: 7000 });
    expect(classify(503, undefined)).toMatchObject({ outcome: 'retry', retryAfterMs: null });
    expect(classify(413, undefined)).toMatchObject({ outcome: 'failed', status: 413 });
    expect(classify(403, undefined)).toMatchObject({ outcome: 'failed', status: 403 });
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('999999', now)).toBe(3_600_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([5_000, 10_000, 20_000, 40_000]);
  });
});

describe('claims', () => {
  it('a message claimed by a worker that died is sent again after the claim timeout with the same payload; a sent one never', async () => {
    const { poll } = await buildPoll(db);
    const fans = [await buildUser(db), await buildUser(db)];
    const [first, second] = [await device(fans[0]!), await device(fans[1]!)];
    const row = await broadcast('poll_opened', poll.id);
    expect(await repo.listBroadcast(db, row.id)).toBe(2);
    // A worker claimed both, sent the first (confirmed), died before the second's answer.
    const claimed = await repo.claimDue(db, { broadcastId: row.id }, 10);
    expect(claimed).toHaveLength(2);
    await repo.confirm(db, [{ id: claimed[0]!.id, claim: claimed[0]!.claim, subscriptionId: claimed[0]!.subscriptionId, outcome: 'sent' }]);

    // Within the timeout nobody takes the second one.
    expect(await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()))).toMatchObject({ claimed: 0 });
    // Its claim grows old (time passing, written into the row): push.deliver takes it.
    await db.execute(
      sql`UPDATE push_messages SET claimed_at = claimed_at - make_interval(secs => ${PUSH_LIMITS.claimTimeoutSeconds + 1}) WHERE id = ${claimed[1]!.id}`,
    );
    expect(await harness.run(harness.app.enqueue('push.deliver', {}, uniqueId()))).toMatchObject({ claimed: 1, sent: 1, finished: 1 });
    const target = claimed[1]!.endpoint === first.endpoint ? first : second;
    expect(payloads(target)).toEqual([row.payload]);
    expect(service.counts().delivered).toBe(1);

    // The dead worker's late confirmation is stale: nothing moves twice.
    expect(
      await repo.confirm(db, [{ id: claimed[1]!.id, claim: claimed[1]!.claim, subscriptionId: claimed[1]!.subscriptionId, outcome: 'sent' }]),
    ).toMatchObject({ stale: 1, sent: 0 });
    const [after] = await db.select().from(schema.pushBroadcasts).where(eq(schema.pushBroadcasts.id, row.id));
    expect(after).toMatchObject({ status: 'done', total: 2, sent: 2 });
  });
});
