// A worker killed with -9 in the middle of a web push broadcast (issue 31), against the local push
// service (test/support/pushService.ts: it verifies each request's VAPID JWT and decrypts every
// payload with the device's keys). 2,000 fans with one device each; 'Votación abierta' to all of
// them; the worker is killed as soon as the push service has accepted some hundreds of pushes.
// A new worker resumes (BullMQ hands the stalled broadcast job back; push.deliver sends what is due
// and, once the claim timeout has passed, what the dead worker had claimed without confirming):
// - every device ends with the push, and its RFC 8030 stored message is exactly one (topic
//   replacement), carrying the broadcast's payload id;
// - no message recorded 'sent' at the kill is sent again;
// - a resend (a message claimed but unconfirmed at the kill) carries the same payload id and topic;
// - the broadcast is done with sent = 2,000, and every message row is 'sent'.
import { describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { pushJobIds } from '@tribuna/contracts/jobs';
import { PUSH_LIMITS, type PushPayload } from '@tribuna/contracts/pushRules';
import { generateVapidKeys } from '../../server/src/push/vapid.ts';
import { buildPoll } from '../support/factories.ts';
import { waitForNoBackends } from '../support/locks.ts';
import { startPushService, type BrowserSubscription } from '../support/pushService.ts';
import { startFaultStack } from './support/stack.ts';
import { startWorkerProcess, type RunningProcess } from './support/processes.ts';
import { GiveUp, waitUntil } from './support/wait.ts';

const DEVICES = 2_000;
/** The kill comes once the push service has accepted this many pushes. */
const KILL_AFTER = 300;
/**
 * After the kill: BullMQ's stall recovery (lock 30 s, stalled checks every 30 s) and the claim
 * timeout (PUSH_LIMITS.claimTimeoutSeconds, 120 s) followed by a push.deliver run (every 15 s).
 */
const RECOVERY_TIMEOUT_MS = 300_000;

const stack = await startFaultStack();
const service = await startPushService();
const vapid = generateVapidKeys();
const input = {
  ...stack.processInput(),
  extra: { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_TEST_ENDPOINT_ORIGINS: service.origin },
};

async function startWorker(): Promise<RunningProcess> {
  const worker = await startWorkerProcess(input);
  stack.running.push(worker);
  return worker;
}

describe('worker killed in the middle of a push broadcast', () => {
  it(
    'a new worker resumes: every device ends with one stored push, nothing recorded sent is sent again, and resends carry the same payload id and topic',
    async () => {
      const first = await startWorker();
      const database = createDatabase(input.databaseUrl, { max: 4, applicationName: 'tribuna-faults-test' });
      stack.database = database;
      const db = database.db;

      // 2,000 fans, one device each (keys made by the push service), created before the broadcast.
      await db.execute(sql`
        INSERT INTO profiles (display_name, username) SELECT 'Fan ' || g, 'push_' || g FROM generate_series(1, ${DEVICES}) g`);
      const users = await db.execute<{ id: string }>(sql`SELECT id FROM profiles WHERE username LIKE 'push\\_%' ORDER BY username`);
      const devices = new Map<string, BrowserSubscription>();
      const rows = users.map((user) => {
        const subscription = service.newSubscription({ applicationServerKey: vapid.publicKey });
        devices.set(subscription.endpoint, subscription);
        return {
          userId: user.id,
          endpoint: subscription.endpoint,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
          browser: 'Chrome en Android',
        };
      });
      for (let i = 0; i < rows.length; i += 500) await db.insert(schema.pushSubscriptions).values(rows.slice(i, i + 500));
      expect(devices.size).toBe(DEVICES);

      // An admin's 'Notificar a los fans', as the server writes it (the row, then its job).
      const { poll } = await buildPoll(db, { title: '¿Quién se queda?' });
      const payload: PushPayload = {
        id: crypto.randomUUID(),
        kind: 'poll_opened',
        title: '¡Ya pueden votar!',
        body: 'Votación abierta: ¿Quién se queda?',
        url: `/?encuesta=${poll.id}`,
        at: new Date().toISOString(),
      };
      const [broadcast] = await db.insert(schema.pushBroadcasts).values({ kind: 'poll_opened', pollId: poll.id, payload }).returning();
      const queue = new Queue('push', { connection: { url: input.redisUrl }, prefix: input.redisPrefix });
      try {
        const killed = service.waitFor(() => service.counts().delivered >= KILL_AFTER, 120_000).then(() => first.kill9());
        const job = await queue.add(
          'push.broadcast',
          { broadcastId: broadcast!.id },
          { jobId: pushJobIds.broadcast({ broadcastId: broadcast!.id }), attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
        );
        await killed;
        const killedAt = Date.now();
        // Everything the dead worker had sent is in: its connections to the push service are closed
        // (the service read them to their end) and its database sessions are gone.
        await waitUntil(async () => (await service.connections()) === 0, { what: 'the killed worker’s connections to the push service to close' });
        await waitForNoBackends(database.sql, 'the killed worker’s database sessions to end');

        // --- At the kill.
        const deliveredAtKill = new Map<string, number>();
        for (const message of service.received()) deliveredAtKill.set(message.endpoint, (deliveredAtKill.get(message.endpoint) ?? 0) + 1);
        const states = await db.execute<{ endpoint: string; state: string }>(sql`
          SELECT s.endpoint, m.state FROM push_messages m JOIN push_subscriptions s ON s.id = m.subscription_id WHERE m.broadcast_id = ${broadcast!.id}`);
        const byState = (state: string) => new Set(states.filter((r) => r.state === state).map((r) => r.endpoint));
        const sentAtKill = byState('sent');
        const claimedAtKill = byState('sending');
        const pendingAtKill = byState('pending');
        const figuresAtKill = {
          listed: states.length,
          sent: sentAtKill.size,
          claimedUnconfirmed: claimedAtKill.size,
          pending: pendingAtKill.size,
          acceptedByThePushService: service.counts().delivered,
          acceptedButUnconfirmed: [...claimedAtKill].filter((e) => deliveredAtKill.has(e)).length,
        };
        console.log('push-crash: at the kill', JSON.stringify(figuresAtKill));
        expect(states.length).toBe(DEVICES);
        expect(sentAtKill.size).toBeGreaterThan(0);
        // Killed mid-broadcast: some devices still had nothing.
        expect(claimedAtKill.size + pendingAtKill.size).toBeGreaterThan(0);
        // Recorded sent ⇒ accepted exactly once; never contacted ⇒ pending.
        for (const endpoint of sentAtKill) expect(deliveredAtKill.get(endpoint)).toBe(1);
        for (const endpoint of pendingAtKill) expect(deliveredAtKill.get(endpoint)).toBeUndefined();

        // --- A new worker.
        const second = await startWorker();
        await waitUntil(
          async () => {
            if (second.child.exitCode !== null) throw new GiveUp(`worker exited: ${second.output().slice(-3000)}`);
            const [row] = await db
              .select()
              .from(schema.pushBroadcasts)
              .where(sql`${schema.pushBroadcasts.id} = ${broadcast!.id}`);
            return row!.status === 'done' && (await queue.getJob(job.id!))?.finishedOn !== undefined;
          },
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 500, what: 'the broadcast to be done and its job finished on the new worker' },
        );
        const recoveredInS = Math.round((Date.now() - killedAt) / 1000);

        // --- After.
        const resent: string[] = [];
        for (const [endpoint, subscription] of devices) {
          const copies = service.received(subscription);
          expect(copies.length, endpoint).toBeGreaterThanOrEqual(1);
          // Every copy is the broadcast's push, with its topic: the device shows it once (id = tag).
          for (const copy of copies)
            expect({ data: copy.data, topic: copy.topic, urgency: copy.urgency }).toEqual({ data: payload, topic: 'votacion-abierta', urgency: 'high' });
          // RFC 8030: what the push service holds for the device is exactly one message.
          const stored = service.stored(subscription);
          expect(stored.map((m) => (m.data as PushPayload).id)).toEqual([payload.id]);
          if (copies.length > 1) resent.push(endpoint);
        }
        // Nothing recorded sent at the kill was sent again; only claims left unconfirmed were.
        for (const endpoint of sentAtKill) expect(service.received(endpoint)).toHaveLength(1);
        for (const endpoint of pendingAtKill) expect(service.received(endpoint)).toHaveLength(1);
        expect(resent.every((endpoint) => claimedAtKill.has(endpoint))).toBe(true);
        for (const endpoint of resent) expect(service.received(endpoint)).toHaveLength(2);
        // A resend is exactly an accepted-but-unconfirmed message (the answer came, the confirmation did not).
        expect(resent.sort()).toEqual([...claimedAtKill].filter((e) => deliveredAtKill.has(e)).sort());

        const [after] = await db
          .select()
          .from(schema.pushBroadcasts)
          .where(sql`${schema.pushBroadcasts.id} = ${broadcast!.id}`);
        expect(after).toMatchObject({ status: 'done', total: DEVICES, sent: DEVICES, gone: 0, failed: 0 });
        const finalStates = await db.execute<{ state: string; attempts: number; n: number }>(sql`
          SELECT state, attempts, count(*)::int AS n FROM push_messages WHERE broadcast_id = ${broadcast!.id} GROUP BY 1, 2 ORDER BY 1, 2`);
        // Claimed at the kill: a second attempt; the rest: one.
        expect(finalStates).toEqual(
          [
            { state: 'sent', attempts: 1, n: DEVICES - claimedAtKill.size },
            { state: 'sent', attempts: 2, n: claimedAtKill.size },
          ].filter((r) => r.n > 0),
        );
        expect(claimedAtKill.size).toBeLessThanOrEqual(PUSH_LIMITS.broadcastBatch * 2);

        console.log(
          'push-crash: after recovery',
          JSON.stringify({
            devices: DEVICES,
            accepted: service.counts().delivered,
            devicesWithTheirPush: [...devices.values()].filter((d) => service.received(d).length > 0).length,
            resent: resent.length,
            resentAmongSentAtKill: resent.filter((e) => sentAtKill.has(e)).length,
            storedPerDevice: 1,
            recoveredInS,
          }),
        );
        expect(service.counts().delivered).toBe(DEVICES + resent.length);
      } finally {
        await queue.close();
      }
    },
    RECOVERY_TIMEOUT_MS + 120_000,
  );
});
