import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { TcpProxy } from '../../../test/support/server/tcpProxy.ts';
import { buildApp, type App } from '../app.ts';
import { OutboxRelay } from './relay.ts';
import { deliverer } from './plugin.ts';

const SHARE = '123e4567-e89b-42d3-a456-426614174000';
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_outbox` });

/**
 * The transactional outbox: a job recorded in a change's transaction is enqueued at least once,
 * by the instance that wrote it or, if that one died first, by any other; a rolled-back change
 * leaves nothing; a failed delivery is retried, never dropped; a delivery repeated after a crash
 * adds nothing (the job's id).
 */
describe('the outbox', () => {
  const database = testDatabase();
  let a: App;
  let b: App;
  const pending = () => database.db.select().from(schema.outbox);
  const awardJob = (jobId: string) => b.queues.points.getJob(jobId);

  beforeAll(async () => {
    // Polling off: the tests decide when each instance's relay runs.
    a = await buildApp(config, { outbox: { pollMs: 0 } });
    b = await buildApp(config, { outbox: { pollMs: 0 } });
  });
  afterAll(async () => {
    await b.close();
    await a.queues.points.obliterate({ force: true }).catch(() => undefined);
    await a.close().catch(() => undefined);
    await database.close();
  });
  beforeEach(async () => {
    await truncateAll(database);
    await b.queues.points.obliterate({ force: true });
  });

  it('leaves nothing behind a rolled-back change', async () => {
    await expect(
      a.database.db.transaction(async (tx) => {
        await a.outbox.enqueue(tx, 'points.award-share', { shareId: SHARE }, { jobId: 'rolled-back' });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await pending()).toEqual([]);
    expect(await b.outbox.relay.relayOnce()).toEqual({ delivered: 0, failed: 0 });
    expect(await awardJob('rolled-back')).toBeUndefined();
  });

  it('is carried out right after COMMIT by the writer, and deleted', async () => {
    const id = await a.database.db.transaction((tx) => a.outbox.enqueue(tx, 'points.award-share', { shareId: SHARE }, { jobId: 'prompt' }));
    await a.outbox.deliver([id]);
    expect((await awardJob('prompt'))?.data).toEqual({ shareId: SHARE });
    expect(await pending()).toEqual([]);
  });

  it('is carried out by another instance when the writer died between its COMMIT and the delivery', async () => {
    const writer = await buildApp(config, { outbox: { pollMs: 0 } });
    await writer.database.db.transaction((tx) => writer.outbox.enqueue(tx, 'points.award-share', { shareId: SHARE }));
    // The writer stops without delivering (kill -9 after COMMIT: its process is gone, the row stays).
    await writer.close();
    const [row] = await pending();
    expect(row).toMatchObject({ kind: 'job', name: 'points.award-share', attempts: 0 });

    expect(await b.outbox.relay.relayOnce()).toEqual({ delivered: 1, failed: 0 });
    // Without an id of its own the job is named after its outbox row: a second delivery adds nothing.
    expect((await awardJob(`outbox.${row!.id}`))?.data).toEqual({ shareId: SHARE });
    expect(await pending()).toEqual([]);
  });

  it('adds one job when a delivery is repeated because the relay died before deleting the row', async () => {
    const id = await a.database.db.transaction((tx) => a.outbox.enqueue(tx, 'points.award-share', { shareId: SHARE }, { jobId: 'twice' }));
    const deliver = deliverer(a);
    // This relay adds the job, then fails before the row is deleted (as a process killed before its
    // COMMIT would: the row stays, due again once its transaction is gone).
    const dying = new OutboxRelay({
      db: a.database.db,
      log: a.log,
      deliver: async (row) => {
        await deliver(row);
        throw new Error('killed before COMMIT');
      },
    });
    await dying.relayOnce([id]);
    // Its failure was recorded as an attempt; make it due again rather than wait for the retry delay.
    await database.db.execute(sql`UPDATE outbox SET available_at = now()`);
    expect(await b.outbox.relay.relayOnce()).toEqual({ delivered: 1, failed: 0 });
    expect(await b.queues.points.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized')).toSatisfy(
      (counts: Record<string, number>) => Object.values(counts).reduce((s, n) => s + n, 0) === 1,
    );
    expect(await pending()).toEqual([]);
  });

  it('publishes a cluster event to every instance, itself included', async () => {
    const heardByA = vi.fn();
    const heardByB = vi.fn();
    const stopA = a.events.subscribe('poll.changed', heardByA);
    const stopB = b.events.subscribe('poll.changed', heardByB);
    try {
      const payload = { pollId: 'p-outbox', status: 'closed' as const, isFeatured: false };
      const id = await a.database.db.transaction((tx) => a.outbox.publish(tx, 'poll.changed', payload));
      await a.outbox.deliver([id]);
      expect(heardByA).toHaveBeenCalledWith(payload);
      await vi.waitFor(() => expect(heardByB).toHaveBeenCalledWith(payload));
      expect(await pending()).toEqual([]);
    } finally {
      stopA();
      stopB();
    }
  });
});

describe('the outbox while Redis is down', () => {
  const database = testDatabase();
  const base = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_outbox_down` });
  const redisProxy = TcpProxy.for(base.redisUrl);
  let app: App;

  beforeAll(async () => {
    await truncateAll(database);
    await redisProxy.start();
    app = await buildApp({ ...base, redisUrl: redisProxy.proxiedUrl(base.redisUrl) }, { outbox: { pollMs: 0 } });
  });
  afterAll(async () => {
    await app.queues.points.obliterate({ force: true }).catch(() => undefined);
    await app.close();
    await redisProxy.stop();
    await database.close();
  });

  it('keeps the message and retries it later, then delivers it once Redis is back', async () => {
    const id = await app.database.db.transaction((tx) => app.outbox.enqueue(tx, 'points.award-share', { shareId: SHARE }, { jobId: 'after-outage' }));
    await redisProxy.stop();
    try {
      await vi.waitFor(() => expect(app.queuesReady()).toBe(false));
      await app.outbox.deliver([id]);
      const [row] = await database.db.select().from(schema.outbox);
      expect(row).toMatchObject({ id, attempts: 1, lastError: expect.stringContaining('not ready') });
      // Postponed (1 s after a first failure): not due yet.
      expect(row!.availableAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());
      expect(await app.outbox.relay.relayOnce()).toEqual({ delivered: 0, failed: 0 });
    } finally {
      await redisProxy.start();
    }
    await vi.waitFor(() => expect(app.queuesReady()).toBe(true));
    await database.db.execute(sql`UPDATE outbox SET available_at = now()`);
    expect(await app.outbox.relay.relayOnce()).toEqual({ delivered: 1, failed: 0 });
    expect((await app.queues.points.getJob('after-outage'))?.data).toEqual({ shareId: SHARE });
    expect(await database.db.select().from(schema.outbox)).toEqual([]);
  });
});
