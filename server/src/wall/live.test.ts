import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '@tribuna/drizzle/client';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { multipart } from '../testing/multipart.ts';
import type { FlushScheduler } from './live.ts';
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
    // Reaction counts come as a paced snapshot (the reader instance's own flusher, on its timer).
    expect(await postViewer.waitFor(isWall('post-reactions'))).toMatchObject({ topic, postId, reactions: { wow: 1, like: 0 }, seq: expect.any(Number) });

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

/** A flusher scheduler the test fires by hand: no timers, no timing assertions. */
function manualScheduler() {
  let pending: (() => Promise<void>) | null = null;
  const scheduler: FlushScheduler = (flush) => {
    pending = flush;
    return () => {
      if (pending === flush) pending = null;
    };
  };
  return {
    scheduler,
    get armed() {
      return pending !== null;
    },
    /** Runs the armed tick (waiting for a change to arm one) and the publishing it does. */
    async flush() {
      await vi.waitFor(() => expect(pending).not.toBeNull());
      const run = pending!;
      pending = null;
      await run();
    },
  };
}

describe('paced reaction counts on post:{id}', () => {
  let app: App;
  let url: string;
  let database: Database;
  const clients: WsTestClient[] = [];
  const manual = manualScheduler();

  beforeAll(async () => {
    app = await buildApp(config, { wall: { reactionFlush: { scheduler: manual.scheduler } } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
    await database.close();
  });

  async function watch(topic: string): Promise<WsTestClient> {
    const client = await openWs(url);
    clients.push(client);
    client.send({ type: 'subscribe', topic });
    await settled(client);
    return client;
  }

  /** A ping round trip: every frame sent before it has arrived. */
  async function settled(client: WsTestClient): Promise<void> {
    const from = client.messages.length;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong', { from });
  }

  async function fans(n: number) {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const user = await buildUser(database.db);
        return { user, headers: asUser(await signIn(app, user)) };
      }),
    );
  }

  async function storedCounts(table: 'post_reactions' | 'comment_reactions', column: 'post_id' | 'comment_id', id: string) {
    const rows = await database.db.execute<{ reaction_type: string; n: number }>(
      sql`SELECT reaction_type, count(*)::int AS n FROM ${sql.raw(table)} WHERE ${sql.raw(column)} = ${id}::uuid GROUP BY reaction_type`,
    );
    const counts: Record<string, number> = { like: 0, love: 0, haha: 0, wow: 0, sad: 0, angry: 0 };
    for (const row of rows) counts[row.reaction_type] = row.n;
    return counts;
  }

  const TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;

  it('coalesces 50 taps into one snapshot with the database\'s counts; a later tap gets a trailing one with a higher seq', async () => {
    const [author, ...tappers] = await fans(51);
    const post = await buildPost(database.db, author!.user.id);
    const topic = `post:${post.id}`;
    const viewer = await watch(topic);

    const answers = await Promise.all(
      tappers.map((fan, i) => app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: fan.headers, payload: { type: TYPES[i % TYPES.length] } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(tappers.map(() => 200));
    await settled(viewer);
    expect(viewer.ofType('post-reactions')).toEqual([]);

    await manual.flush();
    await settled(viewer);
    const frames = viewer.ofType('post-reactions');
    expect(frames).toHaveLength(1);
    const stored = await storedCounts('post_reactions', 'post_id', post.id);
    expect(Object.values(stored).reduce((a, b) => a + b, 0)).toBe(50);
    expect(frames[0]).toEqual({ type: 'post-reactions', topic, postId: post.id, reactions: stored, seq: expect.any(Number) });
    expect(manual.armed).toBe(false);

    const late = await app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: author!.headers, payload: { type: 'wow' } });
    expect(late.statusCode).toBe(200);
    await manual.flush();
    await settled(viewer);
    const after = viewer.ofType('post-reactions');
    expect(after).toHaveLength(2);
    expect(after[1]!.seq).toBeGreaterThan(frames[0]!.seq);
    expect(after[1]!.reactions).toEqual(await storedCounts('post_reactions', 'post_id', post.id));
    expect(after[1]!.reactions.wow).toBe(stored.wow! + 1);
  });

  it('ends exact when change events arrive out of order (the flush reads the counts again)', async () => {
    const [author, a, b] = await fans(3);
    const post = await buildPost(database.db, author!.user.id);
    const topic = `post:${post.id}`;
    const viewer = await watch(topic);

    // b's tap is committed but its event has not arrived yet; a's (a later tap) has.
    await database.db.execute(sql`INSERT INTO post_reactions (post_id, user_id, reaction_type) VALUES (${post.id}::uuid, ${b!.user.id}::uuid, 'love')`);
    await app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: a!.headers, payload: { type: 'haha' } });
    await manual.flush();
    await settled(viewer);
    const [first] = viewer.ofType('post-reactions');
    expect(first!.reactions).toEqual({ like: 0, love: 1, haha: 1, wow: 0, sad: 0, angry: 0 });

    // b's event at last: a trailing snapshot, newer, with the same exact counts.
    await app.events.publish('wall.live', { type: 'reactions-changed', topic, postId: post.id, commentId: null });
    await manual.flush();
    await settled(viewer);
    const frames = viewer.ofType('post-reactions');
    expect(frames).toHaveLength(2);
    expect(frames[1]!.seq).toBeGreaterThan(first!.seq);
    expect(frames[1]!.reactions).toEqual(await storedCounts('post_reactions', 'post_id', post.id));
  });

  it('paces comment reactions the same way, and sends nothing when nothing changed', async () => {
    const [author, ...tappers] = await fans(6);
    const post = await buildPost(database.db, author!.user.id);
    const comment = await buildComment(database.db, post.id, author!.user.id);
    const topic = `post:${post.id}`;
    const viewer = await watch(topic);

    for (const fan of tappers) {
      const answer = await app.inject({ method: 'POST', url: `/api/comments/${comment.id}/reactions`, headers: fan.headers, payload: { type: 'like' } });
      expect(answer.statusCode).toBe(200);
    }
    await manual.flush();
    await settled(viewer);
    expect(viewer.ofType('comment-reactions')).toEqual([
      { type: 'comment-reactions', topic, postId: post.id, commentId: comment.id, reactions: await storedCounts('comment_reactions', 'comment_id', comment.id), seq: expect.any(Number) },
    ]);
    expect(viewer.ofType('comment-reactions')[0]!.reactions.like).toBe(5);

    // Nothing changed since: no tick is armed and no frame comes.
    expect(manual.armed).toBe(false);
    await settled(viewer);
    expect(viewer.ofType('comment-reactions')).toHaveLength(1);
    expect(viewer.ofType('post-reactions')).toEqual([]);
  });
});
