import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { GroupDetail } from '@tribuna/contracts/api/groups';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { multipart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { buildApp, type App } from '../app.ts';

// Two server instances on one Redis namespace: membership changed through one takes the group away
// from the sockets held by the other at once (the cluster event `group.access`).
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_groups_live` });

describe('groups, live across instances', () => {
  let writer: App;
  let reader: App;
  let readerUrl: string;
  let database: Database;
  const clients: WsTestClient[] = [];

  beforeAll(async () => {
    [writer, reader] = await Promise.all([buildApp(config), buildApp(config)]);
    await reader.listen({ host: '127.0.0.1', port: 0 });
    readerUrl = `ws://127.0.0.1:${(reader.server.address() as AddressInfo).port}/ws`;
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
    await writer.resetRateLimits();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([writer.close(), reader.close()]);
    await database.close();
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    const session = await signIn(writer, user);
    return { user, session, headers: asUser(session) };
  }
  type Fan = Awaited<ReturnType<typeof fan>>;

  const refusalOf = (client: WsTestClient, topic: string) =>
    client.messages.find((m) => m.type === 'error' && (m as { topic?: string }).topic === topic) as { code: string } | undefined;

  /** A socket on the reader instance, subscribed to `topics` once each subscribe was decided (refusals are in its messages). */
  async function watch(who: Fan | null, topics: string[]): Promise<WsTestClient> {
    const client = await openWs(readerUrl, who ? { cookie: who.session.cookie } : {});
    clients.push(client);
    for (const topic of topics) client.send({ type: 'subscribe', topic });
    for (const topic of topics) await until(async () => refusalOf(client, topic) !== undefined || (await hears(client, topic)));
    return client;
  }

  /** Waits for `condition` (the reader instance hears of a change through Redis, after the writer answered). */
  async function until(condition: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('condition never held');
  }

  /** The topics the reader instance holds for this socket: a probe published there reaches it or not. */
  async function hears(client: WsTestClient, topic: string): Promise<boolean> {
    const probe = `probe-${Math.random()}`;
    reader.live.hub.publish(topic, { type: 'probe', probe });
    const from = client.messages.length;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong', { from });
    return client.messages.some((m) => (m as { probe?: string }).probe === probe);
  }

  async function group(owner: Fan, privacy: 'public' | 'private'): Promise<GroupDetail> {
    const res = await writer.inject({ method: 'POST', url: '/api/groups', headers: owner.headers, payload: { name: 'Team Ximena', privacy } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<GroupDetail>();
  }

  async function join(g: GroupDetail): Promise<Fan> {
    const someone = await fan();
    await database.sql`INSERT INTO group_members (group_id, user_id) VALUES (${g.id}, ${someone.user.id})`;
    return someone;
  }

  const relation = (groupId: string, value: string) => (m: AnyServerMessage) =>
    m.type === 'group-relation' && (m as { groupId: string }).groupId === groupId && (m as { relation: string }).relation === value;

  it("tells a group's readers of a new post; a private group's topic is refused to others", async () => {
    const owner = await fan();
    const g = await group(owner, 'private');
    const m = await join(g);
    const member = await watch(m, [`group:${g.id}`]);
    const outsider = await watch(await fan(), [`group:${g.id}`]);
    const visitor = await watch(null, [`group:${g.id}`]);
    const admin = await watch(await fan({ role: 'admin' }), [`group:${g.id}`]);
    for (const client of [outsider, visitor]) expect(refusalOf(client, `group:${g.id}`)).toMatchObject({ type: 'error', code: 'forbidden' });
    const body = multipart([
      { name: 'content', value: 'Hola grupo' },
      { name: 'groupId', value: g.id },
    ]);
    const created = await writer.inject({ method: 'POST', url: '/api/posts', headers: { ...owner.headers, ...body.headers }, payload: body.payload });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json<{ id: string }>().id;
    const expected = { type: 'group-post', topic: `group:${g.id}`, groupId: g.id, postId, authorId: owner.user.id };
    expect(await member.waitFor((msg) => msg.type === 'group-post')).toEqual(expected);
    expect(await admin.waitFor((msg) => msg.type === 'group-post')).toEqual(expected);
    expect(outsider.messages.some((msg) => msg.type === 'group-post')).toBe(false);
  });

  it("tells a private group's staff of its pending requests, and the fan of the answer", async () => {
    const owner = await fan();
    const g = await group(owner, 'private');
    const staff = await watch(owner, [`user:${owner.user.id}`]);
    const asker = await fan();
    const askerSocket = await watch(asker, [`user:${asker.user.id}`]);
    await writer.inject({ method: 'POST', url: `/api/groups/${g.id}/join`, headers: asker.headers });
    expect(await staff.waitFor((msg) => msg.type === 'group-requests')).toEqual({
      type: 'group-requests',
      topic: `user:${owner.user.id}`,
      groupId: g.id,
      pendingRequests: 1,
    });
    const from = staff.messages.length;
    await writer.inject({ method: 'POST', url: `/api/groups/${g.id}/requests/${asker.user.id}`, headers: owner.headers, payload: { approve: true } });
    expect(await staff.waitFor((msg) => msg.type === 'group-requests', { from })).toMatchObject({ pendingRequests: 0 });
    expect(await askerSocket.waitFor(relation(g.id, 'member'))).toEqual({
      type: 'group-relation',
      topic: `user:${asker.user.id}`,
      groupId: g.id,
      relation: 'member',
    });
  });

  for (const [name, act] of [
    [
      'removed',
      (g: GroupDetail, owner: Fan, target: Fan) =>
        writer.inject({ method: 'DELETE', url: `/api/groups/${g.id}/members/${target.user.id}`, headers: owner.headers }),
    ],
    [
      'banned',
      (g: GroupDetail, owner: Fan, target: Fan) =>
        writer.inject({ method: 'DELETE', url: `/api/groups/${g.id}/members/${target.user.id}?ban=true`, headers: owner.headers }),
    ],
    [
      'leaving',
      (g: GroupDetail, _owner: Fan, target: Fan) => writer.inject({ method: 'POST', url: `/api/groups/${g.id}/leave`, headers: target.headers, payload: {} }),
    ],
  ] as const) {
    it(`takes a private group's topic and its posts' topics from a fan's open sockets at once when ${name}`, async () => {
      const owner = await fan();
      const g = await group(owner, 'private');
      const [target, stays] = [await join(g), await join(g)];
      const post = await buildPost(database.db, owner.user.id, { groupId: g.id, visibility: 'group' });
      const outside = await buildPost(database.db, owner.user.id);
      const topics = [`group:${g.id}`, `post:${post.id}`, `post:${outside.id}`, `user:${target.user.id}`];
      const [targetSocket, secondTab] = [await watch(target, topics), await watch(target, topics)];
      const other = await watch(stays, topics.slice(0, 2));
      for (const client of [targetSocket, secondTab]) for (const topic of topics) expect(await hears(client, topic)).toBe(true);

      const res = await act(g, owner, target);
      expect(res.statusCode, res.body).toBeLessThan(300);
      const expectedRelation = name === 'banned' ? 'banned' : 'none';
      for (const client of [targetSocket, secondTab]) {
        await client.waitFor(relation(g.id, expectedRelation));
        // By the time the fan is told, the topics of the group are gone; the others stay.
        expect(await hears(client, `group:${g.id}`)).toBe(false);
        expect(await hears(client, `post:${post.id}`)).toBe(false);
        expect(await hears(client, `post:${outside.id}`)).toBe(true);
        expect(await hears(client, `user:${target.user.id}`)).toBe(true);
      }
      expect(await hears(other, `group:${g.id}`)).toBe(true);
      expect(await hears(other, `post:${post.id}`)).toBe(true);
      // Subscribing again is refused, over HTTP too.
      const again = await watch(target, [`group:${g.id}`, `post:${post.id}`]);
      expect([refusalOf(again, `group:${g.id}`)?.code, refusalOf(again, `post:${post.id}`)?.code]).toEqual(['forbidden', 'not-found']);
      expect((await writer.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers: target.headers })).statusCode).toBe(404);
    });
  }

  it("takes a group's topics from visitors and non-members when it turns private, and from everybody when it is deleted", async () => {
    const owner = await fan();
    const g = await group(owner, 'public');
    const m = await join(g);
    const post = await buildPost(database.db, owner.user.id, { groupId: g.id, visibility: 'group' });
    const topics = [`group:${g.id}`, `post:${post.id}`];
    const [visitor, outsider, member] = [await watch(null, topics), await watch(await fan(), topics), await watch(m, [...topics, `user:${m.user.id}`])];
    for (const client of [visitor, outsider, member]) expect(await hears(client, `group:${g.id}`)).toBe(true);

    const turned = await writer.inject({ method: 'PATCH', url: `/api/groups/${g.id}`, headers: owner.headers, payload: { privacy: 'private' } });
    expect(turned.statusCode).toBe(200);
    for (const client of [visitor, outsider]) for (const topic of topics) await until(async () => !(await hears(client, topic)));
    for (const topic of topics) expect(await hears(member, topic)).toBe(true);

    expect((await writer.inject({ method: 'DELETE', url: `/api/groups/${g.id}`, headers: owner.headers })).statusCode).toBe(204);
    await member.waitFor(relation(g.id, 'none'));
    for (const topic of topics) expect(await hears(member, topic)).toBe(false);
    expect(reader.live.hub.hasViewers(`group:${g.id}`)).toBe(false);
  });
});
