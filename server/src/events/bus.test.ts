import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { BUS_CHANNEL } from '@tribuna/contracts/events';
import { channelName } from '@tribuna/contracts/live';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { EventBus } from './bus.ts';
// The wall's transactional event ('wall.reactions') is declared next to its writer.
import '../wall/activity.ts';

const silent = { warn: () => undefined };

describe('EventBus (one instance)', () => {
  it('delivers to every subscriber of the name, and a failing subscriber neither stops the others nor the publisher', async () => {
    const warn = vi.fn();
    const bus = new EventBus({ warn });
    const heard: string[] = [];
    bus.subscribe('poll.changed', () => {
      throw new Error('boom');
    });
    bus.subscribe('poll.changed', (e) => void heard.push(e.pollId));
    await expect(bus.publish('poll.changed', { pollId: 'p1', status: 'closed', isFeatured: false })).resolves.toBeUndefined();
    expect(heard).toEqual(['p1']);
    expect(bus.stats.handlerErrors).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'poll.changed' }), 'event bus: a subscriber failed');
  });

  it('sends cluster events through its transport, and ignores them when they come back from itself', async () => {
    const sent: string[] = [];
    const bus = new EventBus(silent, async (message) => sent.push(message));
    const heard = vi.fn();
    bus.subscribe('poll.changed', heard);
    await bus.publish('poll.changed', { pollId: 'p1', status: 'active', isFeatured: true });
    expect(sent).toHaveLength(1);
    bus.receive(sent[0]!);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('drops what is not the contract (malformed JSON, unknown names, invalid payloads) and logs it', () => {
    const warn = vi.fn();
    const bus = new EventBus({ warn });
    const heard = vi.fn();
    bus.subscribe('poll.changed', heard);
    bus.receive('not json');
    bus.receive(JSON.stringify({ name: 'poll.exploded', origin: 'other', payload: {} }));
    bus.receive(JSON.stringify({ name: 'poll.changed', origin: 'other', payload: { pollId: 'p1', status: 'gone', isFeatured: false } }));
    bus.receive(JSON.stringify({ name: 'poll.changed', origin: 'other', payload: { pollId: 'p1', status: 'closed' } }));
    expect(heard).not.toHaveBeenCalled();
    expect(bus.stats.dropped).toBe(4);
    expect(warn).toHaveBeenCalledTimes(4);
    bus.receive(JSON.stringify({ name: 'poll.changed', origin: 'other', payload: { pollId: 'p1', status: 'closed', isFeatured: false } }));
    expect(heard).toHaveBeenCalledWith({ pollId: 'p1', status: 'closed', isFeatured: false });
  });

  it('still delivers locally when the transport fails (Redis down)', async () => {
    const bus = new EventBus(silent, () => Promise.reject(new Error('redis down')));
    const heard = vi.fn();
    bus.subscribe('poll.changed', heard);
    await bus.publish('poll.changed', { pollId: 'p1', status: 'closed', isFeatured: false });
    expect(heard).toHaveBeenCalledTimes(1);
    expect(bus.stats.transportErrors).toBe(1);
  });
});

/** Two server instances sharing one Redis prefix and one database, as behind a load balancer. */
describe('EventBus transactional stage', () => {
  it("sends every joined handler's statements at once, in joining order, and hands back their after-commit work", async () => {
    const bus = new EventBus(silent);
    const sent: string[] = [];
    const tx = { execute: async (query: unknown) => void sent.push(String((query as { label: string }).label)) as never };
    bus.joinTransactions('wall.reactions', async (runner, payload) => {
      const done = runner.execute({ label: `first ${payload.taps.length}` } as never);
      await done;
      return async () => void sent.push('after first');
    });
    const leave = bus.joinTransactions('wall.reactions', async (runner) => {
      await runner.execute({ label: 'second' } as never);
    });
    const running = bus.inTransaction('wall.reactions', tx, { kind: 'post', taps: [{ itemId: 'i', userId: 'u' }] });
    // Both statements were issued before the first await settled: pipelined behind the writer's.
    expect(sent).toEqual(['first 1', 'second']);
    const after = await running;
    expect(after).toHaveLength(1);
    await after[0]!();
    expect(sent).toEqual(['first 1', 'second', 'after first']);

    // A handler that fails fails the writer's transaction; one that left takes no part.
    leave();
    bus.joinTransactions('wall.reactions', async () => {
      throw new Error('cannot write');
    });
    await expect(bus.inTransaction('wall.reactions', tx, { kind: 'post', taps: [] })).rejects.toThrow('cannot write');
    expect(sent.filter((s) => s === 'second')).toHaveLength(1);
  });
});

describe('event bus across server instances', () => {
  let a: App;
  let b: App;
  let database: Database;
  let raw: Redis;
  const config = testConfig();

  beforeAll(async () => {
    database = testDatabase();
    await truncateAll(database);
    // A poll cache that would keep a stale poll for a minute: only poll.changed can refresh it in time.
    a = await buildApp(config, { polls: { pollCacheTtlMs: 60_000 } });
    b = await buildApp(config, { polls: { pollCacheTtlMs: 60_000 } });
    raw = new Redis(config.redisUrl);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    raw.disconnect();
    await database.close();
  });

  it('carries a cluster event published on one instance to the other, where an invalid one is dropped', async () => {
    const heard = vi.fn();
    const unsubscribe = b.events.subscribe('poll.changed', heard);
    try {
      await raw.publish(channelName(config.redisPrefix, BUS_CHANNEL), JSON.stringify({ name: 'poll.changed', origin: 'x', payload: { pollId: 1 } }));
      await a.events.publish('poll.changed', { pollId: 'p9', status: 'closed', isFeatured: false });
      await vi.waitFor(() => expect(heard).toHaveBeenCalledWith({ pollId: 'p9', status: 'closed', isFeatured: false }));
      expect(heard).toHaveBeenCalledTimes(1);
      expect(b.events.stats.dropped).toBeGreaterThanOrEqual(1);
    } finally {
      unsubscribe();
    }
  });

  it('a poll closed through one instance refuses votes on the other at once (poll.changed drops its cached poll)', async () => {
    const { poll, options } = await buildPoll(database.db);
    const user = await buildUser(database.db);
    const headers = asUser(await signIn(b, user));
    const vote = (optionId: string) =>
      b.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers, payload: { optionId, deviceFingerprint: 'bus_test_fp' } });
    const first = await vote(options[0]!.id);
    expect(first.statusCode, first.body).toBe(201); // B caches the poll as active

    await database.db.update(schema.polls).set({ status: 'closed' }).where(eq(schema.polls.id, poll.id));
    await a.events.publish('poll.changed', { pollId: poll.id, status: 'closed', isFeatured: false });
    await vi.waitFor(async () => expect((await vote(options[1]!.id)).statusCode).not.toBe(201), { timeout: 2000, interval: 20 });
    const rows = await database.db.select().from(schema.votes).where(eq(schema.votes.pollId, poll.id));
    expect(rows.map((r) => r.optionId)).toEqual([options[0]!.id]);
  });
});
