import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { multipart } from '../testing/multipart.ts';
import { asUser, signIn } from '../testing/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../testing/wsClient.ts';

// Two server instances on one Redis namespace: a change made through one reaches the viewers of the other.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_wall_live` });

describe('the wall, live across instances', () => {
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
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([writer.close(), reader.close()]);
    await database.close();
  });

  async function watch(topic: string, headers: Record<string, string> = {}): Promise<WsTestClient> {
    const client = await openWs(readerUrl, headers);
    clients.push(client);
    client.send({ type: 'subscribe', topic });
    // A subscribe without snapshots has no answer: a ping round trip shows it was handled.
    const from = client.messages.length;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong', { from });
    return client;
  }

  const isWall = (type: WallLiveMessage['type']) => (m: AnyServerMessage) => m.type === type;

  async function fan() {
    const user = await buildUser(database.db);
    return { user, headers: asUser(await signIn(writer, user)) };
  }

  it('tells feed readers of a new public post, and post viewers of comments, reactions, edits and deletion', async () => {
    const author = await fan();
    const feedViewer = await watch('feed');
    const body = multipart([{ name: 'content', value: 'En vivo' }]);
    const created = await writer.inject({ method: 'POST', url: '/api/posts', headers: { ...author.headers, ...body.headers }, payload: body.payload });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json<{ id: string }>().id;
    expect(await feedViewer.waitFor(isWall('feed-post'))).toEqual({ type: 'feed-post', topic: 'feed', postId, authorId: author.user.id });

    const topic = `post:${postId}`;
    const postViewer = await watch(topic);
    const c = multipart([{ name: 'content', value: 'Primero' }]);
    await writer.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...author.headers, ...c.headers }, payload: c.payload });
    const commentMessage = await postViewer.waitFor<Extract<WallLiveMessage, { type: 'comment-created' }>>(isWall('comment-created'));
    expect(commentMessage).toMatchObject({ topic, postId, commentCount: 1, comment: { content: 'Primero', myReaction: null } });

    await writer.inject({ method: 'POST', url: `/api/posts/${postId}/reactions`, headers: author.headers, payload: { type: 'wow' } });
    expect(await postViewer.waitFor(isWall('post-reactions'))).toMatchObject({ topic, postId, reactions: { wow: 1, like: 0 } });

    await writer.inject({ method: 'PATCH', url: `/api/posts/${postId}`, headers: author.headers, payload: { content: 'Corregido' } });
    expect(await postViewer.waitFor(isWall('post-updated'))).toMatchObject({ topic, postId, content: 'Corregido', editedAt: expect.any(String) });

    await writer.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: author.headers });
    expect(await postViewer.waitFor(isWall('post-deleted'))).toEqual({ type: 'post-deleted', topic, postId });
  });

  it('does not announce posts outside the public wall, and refuses to watch a hidden or private post', async () => {
    const author = await fan();
    const feedViewer = await watch('feed');
    const body = multipart([{ name: 'content', value: 'Solo seguidores' }, { name: 'visibility', value: 'followers' }]);
    const created = await writer.inject({ method: 'POST', url: '/api/posts', headers: { ...author.headers, ...body.headers }, payload: body.payload });
    expect(created.statusCode).toBe(201);

    const hidden = await buildPost(database.db, author.user.id, { isHidden: true });
    const from = feedViewer.messages.length;
    feedViewer.send({ type: 'subscribe', topic: `post:${hidden.id}` });
    feedViewer.send({ type: 'subscribe', topic: `post:${created.json<{ id: string }>().id}` });
    const refusals = [
      await feedViewer.waitFor((m) => m.type === 'error' && m.topic === `post:${hidden.id}`, { from }),
      await feedViewer.waitFor((m) => m.type === 'error' && m.topic === `post:${created.json<{ id: string }>().id}`, { from }),
    ];
    expect(refusals.map((m) => m.type === 'error' && m.code)).toEqual(['not-found', 'not-found']);
    expect(feedViewer.ofType('feed-post')).toEqual([]);

    // The author may watch their own followers-only post.
    const own = await openWs(readerUrl, { cookie: author.headers.cookie! });
    clients.push(own);
    own.send({ type: 'subscribe', topic: `post:${created.json<{ id: string }>().id}` });
    own.send({ type: 'ping' });
    await own.waitFor((m) => m.type === 'pong');
    expect(own.ofType('error')).toEqual([]);
  });
});
