import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '@tribuna/drizzle/client';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { multipart } from '../../../test/support/server/multipart.ts';
import type { FlushScheduler } from './live.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';

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
    // Reaction counts come as the topic's paced snapshot (the reader instance's hub reads them again).
    const counted = await postViewer.waitFor((m) => m.type === 'post-reactions' && m.reactions.wow === 1);
    expect(counted).toMatchObject({ topic, postId, reactions: { wow: 1, like: 0 }, seq: expect.any(Number) });

    await writer.inject({ method: 'PATCH', url: `/api/posts/${postId}`, headers: author.headers, payload: { content: 'Corregido' } });
    expect(await postViewer.waitFor(isWall('post-updated'))).toMatchObject({ topic, postId, content: 'Corregido', editedAt: expect.any(String) });

    await writer.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: author.headers });
    expect(await postViewer.waitFor(isWall('post-deleted'))).toEqual({ type: 'post-deleted', topic, postId });
  });

  it('does not announce posts outside the public wall, and refuses to watch a hidden or private post', async () => {
    const author = await fan();
    const feedViewer = await watch('feed');
    const body = multipart([
      { name: 'content', value: 'Solo seguidores' },
      { name: 'visibility', value: 'followers' },
    ]);
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
  // Comment counts are paced by the wall's flusher, fired here by hand; the post's by the hub (wall/topics.ts).
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

  /** A viewer of the post, once the topic's first snapshot (the counts as they are) has arrived. */
  async function watch(topic: string): Promise<WsTestClient> {
    const client = await openWs(url);
    clients.push(client);
    client.send({ type: 'subscribe', topic });
    await client.waitFor((m) => m.type === 'post-reactions');
    await settled(client);
    return client;
  }

  /** The post's snapshots until one has `expected` counts (they only ever come paced, never one per tap). */
  async function untilCounts(viewer: WsTestClient, expected: Record<string, number>) {
    await viewer.waitFor((m) => m.type === 'post-reactions' && JSON.stringify(m.reactions) === JSON.stringify(expected));
    return viewer.ofType('post-reactions');
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

  it("gives a new viewer the counts at once, then snapshots with growing seq that end with the database's counts", async () => {
    const [author, ...tappers] = await fans(51);
    const post = await buildPost(database.db, author!.user.id);
    const topic = `post:${post.id}`;
    const viewer = await watch(topic);
    expect(viewer.ofType('post-reactions')).toEqual([
      { type: 'post-reactions', topic, postId: post.id, reactions: { like: 0, love: 0, haha: 0, wow: 0, sad: 0, angry: 0 }, seq: expect.any(Number) },
    ]);

    const answers = await Promise.all(
      tappers.map((fan, i) =>
        app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: fan.headers, payload: { type: TYPES[i % TYPES.length] } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(tappers.map(() => 200));
    const stored = await storedCounts('post_reactions', 'post_id', post.id);
    expect(Object.values(stored).reduce((a, b) => a + b, 0)).toBe(50);
    const frames = await untilCounts(viewer, stored);
    const seqs = frames.map((f) => f.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);

    const late = await app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: author!.headers, payload: { type: 'wow' } });
    expect(late.statusCode).toBe(200);
    const after = await untilCounts(viewer, { ...stored, wow: stored.wow! + 1 });
    expect(after.at(-1)!.seq).toBeGreaterThan(frames.at(-1)!.seq);
  });

  it('ends exact when change events arrive out of order (the snapshot reads the counts again)', async () => {
    const [author, a, b] = await fans(3);
    const post = await buildPost(database.db, author!.user.id);
    const topic = `post:${post.id}`;
    const viewer = await watch(topic);

    // b's tap is committed but its event has not arrived yet; a's (a later tap) has: the snapshot has both.
    await database.db.execute(sql`INSERT INTO post_reactions (post_id, user_id, reaction_type) VALUES (${post.id}::uuid, ${b!.user.id}::uuid, 'love')`);
    await app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: a!.headers, payload: { type: 'haha' } });
    const frames = await untilCounts(viewer, { like: 0, love: 1, haha: 1, wow: 0, sad: 0, angry: 0 });

    // b's event at last: a newer snapshot, with the same exact counts.
    await app.events.publish('wall.live', { type: 'reactions-changed', topic, postId: post.id, commentId: null });
    await viewer.waitFor((m) => m.type === 'post-reactions' && m.seq > frames.at(-1)!.seq);
    expect(viewer.ofType('post-reactions').at(-1)!.reactions).toEqual(await storedCounts('post_reactions', 'post_id', post.id));
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
      {
        type: 'comment-reactions',
        topic,
        postId: post.id,
        commentId: comment.id,
        reactions: await storedCounts('comment_reactions', 'comment_id', comment.id),
        seq: expect.any(Number),
      },
    ]);
    expect(viewer.ofType('comment-reactions')[0]!.reactions.like).toBe(5);

    // Nothing changed since: no tick is armed and no frame comes.
    expect(manual.armed).toBe(false);
    await settled(viewer);
    expect(viewer.ofType('comment-reactions')).toHaveLength(1);
    // The post's own counts did not change: only the snapshot the viewer got on subscribing.
    expect(viewer.ofType('post-reactions')).toHaveLength(1);
  });
});
