import { describe, expect, it, vi } from 'vitest';
import { LIVE_TOPIC_FAMILIES, type LiveErrorMessage } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { TopicRegistry } from './topics.ts';

describe('live topics', () => {
  let app: App;
  let database: Database;
  let url = '';
  useListeningTestApp({}, (ready) => {
    ({ app, database } = ready);
    url = `ws://127.0.0.1:${ready.port}/ws`;
  });

  const open = async (cookie?: string) => openWs(url, cookie ? { cookie } : {});

  /** Subscribes and returns the refusal, or null once the server counts the subscription. */
  const subscribe = async (client: WsTestClient, topic: string): Promise<LiveErrorMessage | null> => {
    const from = client.messages.length;
    const before = app.live.stats().subscriptions;
    client.send({ type: 'subscribe', topic });
    return Promise.race([
      client.waitFor<LiveErrorMessage>((m) => m.type === 'error', { from, timeoutMs: 3000 }),
      vi.waitFor(() => expect(app.live.stats().subscriptions).toBe(before + 1), { timeout: 3000 }).then(() => null),
    ]);
  };

  it('lets a visitor watch polls and the feed, but not a user’s notifications nor the admin dashboard', async () => {
    const { poll } = await buildPoll(database.db);
    const visitor = await open();
    expect(await subscribe(visitor, `poll:${poll.id}`)).toBeNull();
    expect(await subscribe(visitor, 'feed')).toBeNull();
    const someone = await buildUser(database.db);
    expect(await subscribe(visitor, `user:${someone.id}`)).toEqual({ type: 'error', code: 'forbidden', topic: `user:${someone.id}` });
    expect(await subscribe(visitor, 'admin')).toEqual({ type: 'error', code: 'forbidden', topic: 'admin' });
    await visitor.close();
  });

  it('gives user:{id} to that user only, and admin to administrators only', async () => {
    const ana = await buildUser(database.db);
    const bea = await buildUser(database.db);
    const boss = await buildUser(database.db, { role: 'admin' });
    const anaSocket = await open((await signIn(app, ana)).cookie);
    expect(await subscribe(anaSocket, `user:${ana.id}`)).toBeNull();
    expect(await subscribe(anaSocket, `user:${bea.id}`)).toMatchObject({ code: 'forbidden' });
    expect(await subscribe(anaSocket, 'admin')).toMatchObject({ code: 'forbidden' });
    const bossSocket = await open((await signIn(app, boss)).cookie);
    expect(await subscribe(bossSocket, 'admin')).toBeNull();
    expect(await subscribe(bossSocket, `user:${ana.id}`)).toMatchObject({ code: 'forbidden' });
    await anaSocket.close();
    await bossSocket.close();
  });

  it('answers malformed and unknown topics without closing the socket', async () => {
    const client = await open();
    expect(await subscribe(client, 'poll:not-a-uuid')).toMatchObject({ code: 'invalid-message' });
    expect(await subscribe(client, 'feed:extra')).toMatchObject({ code: 'invalid-message' });
    expect(await subscribe(client, 'somewhere')).toMatchObject({ code: 'invalid-message' });
    expect(await subscribe(client, 'post:00000000-0000-4000-8000-000000000001')).toMatchObject({ code: 'not-found' });
    expect(await subscribe(client, 'poll:00000000-0000-4000-8000-000000000001')).toMatchObject({ code: 'not-found' });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    await client.close();
  });
});

describe('TopicRegistry', () => {
  it('names every family of the contract without a handler, and refuses a family registered twice', () => {
    const registry = new TopicRegistry();
    expect(registry.missing()).toEqual([...LIVE_TOPIC_FAMILIES]);
    expect(() => registry.assertComplete()).toThrow(/poll, feed, post, group, user, admin/);
    const feed = { family: 'feed' as const, normalizeKey: () => null, authorize: async () => ({ ok: true as const, snapshots: false }) };
    registry.register(feed);
    expect(() => registry.register(feed)).toThrow(/twice/);
    expect(registry.missing()).not.toContain('feed');
  });
});
