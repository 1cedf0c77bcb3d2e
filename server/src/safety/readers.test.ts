// What mutes and blocks hide (issue 29), reader by reader: the walls (the public wall's and a group's
// pages shared among readers, the 'Siguiendo' wall), the post page, comment threads, reactions,
// replies, mentions, notifications and live topics. A mute hides one way, a block both ways.
import { describe, expect, it } from 'vitest';
import { sql as drizzleSql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { SafetyState } from '@tribuna/contracts/api/moderation';
import type { NotificationPage } from '@tribuna/contracts/api/notifications';
import type { CommentList, CreatedComment, FeedPage, PostView } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { testConfig } from '../../../test/support/env.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { buildApp, type App } from '../app.ts';
import { listedAuthor, visiblePost } from '../access/predicates.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;
const rateLimits = {
  'safety.write': WIDE,
  'follows.write': WIDE,
  'profiles.read': WIDE,
  'wall.read': WIDE,
  'wall.react': WIDE,
  'wall.post-create': WIDE,
  'wall.comment-create': WIDE,
  'notifications.read': WIDE,
};

/** A fixed day: every dated row below is a number of minutes after it. */
const DAY = Date.parse('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(DAY + minutes * 60_000);
const dated = (minute: number) => ({ createdAt: at(minute), lastActivityAt: at(minute) });

type Fan = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string>; cookie: string };

describe('what mutes and blocks hide', () => {
  let app: App;
  let database: Database;
  let wsUrl: string;
  let statements: string[] = [];
  useListeningTestApp(
    {},
    (ready) => {
      ({ app, database } = ready);
      wsUrl = `${ready.baseUrl.replace('http', 'ws')}/ws`;
    },
    {
      build: () => ({
        rateLimits,
        wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } },
        onQuery: (query) => void statements.push(query),
      }),
    },
  );

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}): Promise<Fan> {
    const user = await buildUser(database.db, overrides);
    const session = await signIn(app, user);
    return { ...user, headers: asUser(session), cookie: session.cookie };
  }
  const get = (url: string, who: { headers: Record<string, string> }, on: App = app) => on.inject({ method: 'GET', url, headers: who.headers });
  async function act(method: 'PUT' | 'DELETE', what: 'mute' | 'block', who: { headers: Record<string, string> }, target: { id: string }, on: App = app) {
    const res = await on.inject({ method, url: `/api/profiles/${target.id}/${what}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SafetyState>();
  }
  async function wall(query: string, who: { headers: Record<string, string> }, on: App = app): Promise<string[]> {
    const res = await get(`/api/posts${query}`, who, on);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FeedPage>().posts.map((p) => p.content);
  }
  async function thread(postId: string, who: Fan): Promise<string[]> {
    const res = await get(`/api/posts/${postId}/comments`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CommentList>().comments.flatMap((c) => [c.content, ...c.replies.map((r) => `  ${r.content}`)]);
  }
  async function notifications(who: Fan): Promise<NotificationPage> {
    const res = await get('/api/notifications', who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationPage>();
  }
  async function publish(who: Fan, content: string, extra: MultipartPart[] = []): Promise<PostView> {
    const body = multipart([{ name: 'content', value: content }, ...extra]);
    const res = await app.inject({ method: 'POST', url: '/api/posts', headers: { ...who.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<PostView>();
  }
  function comment(who: Fan, postId: string, content: string, parentCommentId?: string) {
    const body = multipart([{ name: 'content', value: content }, ...(parentCommentId ? [{ name: 'parentCommentId', value: parentCommentId }] : [])]);
    return app.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
  }
  const react = (who: Fan, path: string) => app.inject({ method: 'POST', url: `/api/${path}/reactions`, headers: who.headers, payload: { type: 'love' } });
  /** A public group with these members. */
  async function club(...members: Fan[]): Promise<string> {
    const [group] = await database.db.insert(schema.groups).values({ name: 'Club', privacy: 'public' }).returning();
    await database.db.insert(schema.groupMembers).values(members.map((m) => ({ groupId: group!.id, userId: m.id })));
    return group!.id;
  }
  /** A second instance of the app over the same database, its walls' pages, cards and totals shared for a minute. */
  async function cachedApp(onQuery?: (query: string) => void): Promise<App> {
    return buildApp(testConfig(), { rateLimits, wall: { totalsTtlMs: 60_000, pageTtlMs: 60_000, videoSweep: { everyMs: 0 } }, onQuery });
  }
  const headersOn = async (on: App, who: Fan) => ({ headers: asUser(await signIn(on, who)) });

  describe('a mute', () => {
    it("hides the muted person's posts and comments from the muter only, on every wall with its pages shared, and an unmute shows them again", async () => {
      let pageReads = 0;
      const cached = await cachedApp((query) => void (pageReads += /WITH page AS/.test(query) ? 1 : 0));
      try {
        const [muter, troll, other, author] = [await fan(), await fan(), await fan(), await fan()];
        const groupId = await club(muter, troll, other, author);
        const db = database.db;
        await buildPost(db, troll.id, { content: 'Troll 1', ...dated(1) });
        const authorPost = await buildPost(db, author.id, { content: 'Autora 1', ...dated(2) });
        const trollPost = await buildPost(db, troll.id, { content: 'Troll 2', ...dated(3) });
        await buildPost(db, troll.id, { content: 'Troll en el club', groupId, visibility: 'group', ...dated(4) });
        await buildPost(db, author.id, { content: 'Autora en el club', groupId, visibility: 'group', ...dated(5) });
        const trollComment = await buildComment(db, authorPost.id, troll.id, { content: 'Comentario del troll', createdAt: at(6) });
        await buildComment(db, authorPost.id, other.id, { content: 'Respuesta al troll', parentCommentId: trollComment.id, createdAt: at(7) });
        await buildComment(db, authorPost.id, other.id, { content: 'Comentario de otra', createdAt: at(8) });
        await buildComment(db, authorPost.id, other.id, { content: 'Respuesta de otra', parentCommentId: trollComment.id, createdAt: at(9) });
        await db.insert(schema.follows).values([
          { followerId: muter.id, followeeId: troll.id },
          { followerId: muter.id, followeeId: author.id },
        ]);
        const [muterOn, otherOn] = [await headersOn(cached, muter), await headersOn(cached, other)];
        const everything = ['Troll 2', 'Autora 1', 'Troll 1'];
        const clubWall = ['Autora en el club', 'Troll en el club'];

        // Before: both read the same shared pages (one read of each page for the two of them).
        expect(await wall('?sort=recent', muterOn, cached)).toEqual(everything);
        expect(await wall('?sort=recent', otherOn, cached)).toEqual(everything);
        expect(await wall(`?groupId=${groupId}&sort=recent`, muterOn, cached)).toEqual(clubWall);
        expect(await wall(`?groupId=${groupId}&sort=recent`, otherOn, cached)).toEqual(clubWall);
        expect(pageReads).toBe(2);

        expect(await act('PUT', 'mute', muterOn, troll, cached)).toEqual({ muted: true, blocked: false });
        pageReads = 0;
        // The muter's walls leave the troll out, at once: the public wall, the group's, 'Siguiendo'.
        expect(await wall('?sort=recent', muterOn, cached)).toEqual(['Autora 1']);
        expect(await wall(`?groupId=${groupId}&sort=recent`, muterOn, cached)).toEqual(['Autora en el club']);
        expect(await wall('?following=true&sort=recent', muterOn, cached)).toEqual(['Autora 1']);
        // The muter hides one author: their pages are the shared ones (three pages' worth, here the
        // wall's end) with the troll left out in memory, not read again; 'Siguiendo' is their own.
        expect(pageReads).toBe(0);
        // The others still read the shared pages, unchanged and not read again.
        expect(await wall('?sort=recent', otherOn, cached)).toEqual(everything);
        expect(await wall(`?groupId=${groupId}&sort=recent`, otherOn, cached)).toEqual(clubWall);
        expect(pageReads).toBe(0);
        // The troll's comments, and the replies to them, leave the muter's threads only.
        expect(await thread(authorPost.id, muter)).toEqual(['Comentario de otra']);
        expect(await thread(authorPost.id, other)).toEqual(['Comentario del troll', '  Respuesta al troll', '  Respuesta de otra', 'Comentario de otra']);
        // Muting is one way: the troll reads everything as before.
        expect(await thread(authorPost.id, troll)).toEqual(['Comentario del troll', '  Respuesta al troll', '  Respuesta de otra', 'Comentario de otra']);
        expect(await wall('?sort=recent', troll)).toEqual(everything);
        // A post of the muted person opened by its address still shows (the muter asked for it).
        expect((await get(`/api/posts/${trollPost.id}`, muter)).statusCode).toBe(200);

        expect(await act('DELETE', 'mute', muterOn, troll, cached)).toEqual({ muted: false, blocked: false });
        expect(await wall('?sort=recent', muterOn, cached)).toEqual(everything);
        expect(await wall(`?groupId=${groupId}&sort=recent`, muterOn, cached)).toEqual(clubWall);
        expect(await wall('?following=true&sort=recent', muterOn, cached)).toEqual(everything);
        expect(await thread(authorPost.id, muter)).toHaveLength(4);
      } finally {
        await cached.close();
      }
    });

    it("pages a muter's walls in full pages on the same keyset, at a constant number of statements", async () => {
      const muter = await fan();
      const authors = [await fan(), await fan(), await fan()];
      const groupId = await club(muter, ...authors);
      const db = database.db;
      // 45 posts on each wall, by three authors in turn; the muter mutes the second.
      for (let i = 1; i <= 45; i++) {
        await buildPost(db, authors[i % 3]!.id, { content: `Post ${i}`, ...dated(i) });
        await buildPost(db, authors[i % 3]!.id, { content: `Club ${i}`, groupId, visibility: 'group', ...dated(i) });
      }
      await act('PUT', 'mute', muter, authors[1]!);
      const kept = (prefix: string) =>
        Array.from({ length: 45 }, (_, k) => 45 - k)
          .filter((i) => i % 3 !== 1)
          .map((i) => `${prefix} ${i}`);

      async function walk(query: string): Promise<{ contents: string[]; counts: number[]; sizes: number[] }> {
        const contents: string[] = [];
        const counts: number[] = [];
        const sizes: number[] = [];
        let cursor: string | null = null;
        do {
          statements = [];
          const res = await get(`/api/posts?sort=recent${query}${cursor ? `&cursor=${cursor}` : ''}`, muter);
          counts.push(statements.length);
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json<FeedPage>();
          contents.push(...page.posts.map((p) => p.content));
          sizes.push(page.posts.length);
          cursor = page.nextCursor;
        } while (cursor);
        return { contents, counts, sizes };
      }
      const publicWall = await walk('');
      expect(publicWall.contents).toEqual(kept('Post'));
      expect(publicWall.sizes).toEqual([10, 10, 10].map(() => WALL_LIMITS.feedPageSize));
      // The ids with the muter's reactions, the cards, the wall's total: the same on every page (the
      // first also asks whether the muter hides anybody, then kept in memory).
      expect(new Set(publicWall.counts.slice(1))).toEqual(new Set([3]));
      // The group's pinned posts come on top of its first page, the muted author's left out too.
      await database.sql`UPDATE posts SET is_pinned = TRUE WHERE group_id = ${groupId} AND content IN ('Club 1', 'Club 2')`;
      const first = await get(`/api/posts?sort=recent&groupId=${groupId}`, muter);
      expect(first.json<FeedPage>().pinned?.map((p) => p.content)).toEqual(['Club 2']);
      const groupWall = await walk(`&groupId=${groupId}`);
      expect(groupWall.contents).toEqual(kept('Club').filter((c) => c !== 'Club 2'));
      expect(groupWall.counts.slice(1).every((n) => n === groupWall.counts[0])).toBe(true);

      // Hiding two authors of three, a full shared page (three pages' worth) no longer fills a page:
      // the muter's own ids are asked, with the same pages and the same keyset.
      await act('PUT', 'mute', muter, authors[0]!);
      const third = await walk('');
      expect(third.contents).toEqual(
        Array.from({ length: 45 }, (_, k) => 45 - k)
          .filter((i) => i % 3 === 2)
          .map((i) => `Post ${i}`),
      );
      expect(third.sizes).toEqual([10, 5]);
      // A page from the muter's own ids also paid the shared page it could not fill from (one more
      // statement, and none when that shared page is cached); the wall's end comes from the shared page.
      expect(third.counts.slice(1).every((n) => n <= 4)).toBe(true);
    });
  });

  it("keeps the comments of somebody muted or in a block out of a thread's live messages, for them only", async () => {
    const [ana, luis, eva, troll] = [await fan(), await fan(), await fan(), await fan()];
    const evaPost = await buildPost(database.db, eva.id, { content: 'De Eva' });
    const topic = `post:${evaPost.id}`;
    await act('PUT', 'block', ana, luis);
    await act('PUT', 'mute', ana, troll);
    const watch = async (who: Fan): Promise<WsTestClient> => {
      const client = await openWs(wsUrl, { cookie: who.cookie });
      client.send({ type: 'subscribe', topic });
      await client.waitFor((m) => m.type === 'post-reactions' && m.topic === topic);
      return client;
    };
    const [anaWatch, luisWatch, evaWatch] = [await watch(ana), await watch(luis), await watch(eva)];
    try {
      const created = (client: WsTestClient) =>
        client.messages.flatMap((m) => (m.type === 'comment-created' ? [(m as { comment: { content: string } }).comment.content] : []));
      const troll1 = await comment(troll, evaPost.id, 'Del troll');
      expect(troll1.statusCode, troll1.body).toBe(201);
      expect((await comment(luis, evaPost.id, 'De Luis')).statusCode).toBe(201);
      const edited = await app.inject({
        method: 'PATCH',
        url: `/api/comments/${troll1.json<CreatedComment>().comment.id}`,
        headers: troll.headers,
        payload: { content: 'Del troll, editado' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((await comment(ana, evaPost.id, 'De Ana')).statusCode).toBe(201);
      expect((await comment(eva, evaPost.id, 'Fin')).statusCode).toBe(201);
      // Each socket hears the messages in order: once Eva's last comment arrived, nothing before it is still on its way.
      const ended = (m: AnyServerMessage) => m.type === 'comment-created' && (m as { comment: { content: string } }).comment.content === 'Fin';
      await Promise.all([anaWatch.waitFor(ended), luisWatch.waitFor(ended), evaWatch.waitFor(ended)]);
      expect(created(anaWatch)).toEqual(['De Ana', 'Fin']);
      expect(anaWatch.messages.some((m) => m.type === 'comment-updated')).toBe(false);
      expect(created(evaWatch)).toEqual(['Del troll', 'De Luis', 'De Ana', 'Fin']);
      expect(evaWatch.messages.some((m) => m.type === 'comment-updated')).toBe(true);
      // Luis, blocked by Ana, does not hear her comment; the troll's he does (a mute is Ana's alone).
      expect(created(luisWatch)).toEqual(['Del troll', 'De Luis', 'Fin']);
      expect(luisWatch.messages.some((m) => m.type === 'comment-updated')).toBe(true);
    } finally {
      await Promise.all([anaWatch.close(), luisWatch.close(), evaWatch.close()]);
    }
  });

  it("reads a muter's wall page on the wall's index, their thousand mutes and their blocks hashed once (no probe per post, no sort)", async () => {
    const muter = await fan();
    const writers = await Promise.all(Array.from({ length: 20 }, () => buildUser(database.db)));
    await database.sql`
      INSERT INTO profiles (display_name) SELECT 'Silenciado ' || g FROM generate_series(1, 1000) g`;
    await database.sql`INSERT INTO user_mutes (user_id, muted_id) SELECT ${muter.id}, id FROM profiles WHERE display_name LIKE 'Silenciado %'`;
    await database.sql`INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (${writers[0]!.id}, ${muter.id}), (${muter.id}, ${writers[1]!.id})`;
    await database.sql`
      INSERT INTO posts (user_id, content, created_at, last_activity_at)
      SELECT (${writers.map((w) => w.id)}::uuid[])[1 + g % 20], 'hola', timestamptz '2025-01-01' + g * interval '1 minute', timestamptz '2025-01-01' + g * interval '1 minute'
      FROM generate_series(1, 3000) g`;
    await database.sql`ANALYZE posts`;
    await database.sql`ANALYZE user_mutes`;
    for (const [order, index] of [
      ['created_at', 'posts_feed_recent_idx'],
      ['last_activity_at', 'posts_feed_activity_idx'],
    ] as const) {
      const plan = await database.db.execute<{ 'QUERY PLAN': string }>(drizzleSql`
        EXPLAIN SELECT p.id FROM posts p
        WHERE ${visiblePost(null)} AND p.group_id IS NULL AND p.visibility = 'public' AND ${listedAuthor(muter.id, drizzleSql`p.user_id`)}
        ORDER BY ${drizzleSql.raw(`p.${order}`)} DESC NULLS LAST, p.id DESC NULLS LAST LIMIT 11`);
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text, text).toContain(index);
      expect(text, text).toMatch(/hashed SubPlan/);
      expect(text, text).not.toMatch(/Sort Key/);
    }
  });

  describe('a block', () => {
    it("hides each one's posts from the other on every wall (shared pages on), and an unblock shows them again", async () => {
      const cached = await cachedApp();
      try {
        const [ana, luis, eva] = [await fan(), await fan(), await fan()];
        const groupId = await club(ana, luis, eva);
        const db = database.db;
        await buildPost(db, ana.id, { content: 'De Ana', ...dated(1) });
        await buildPost(db, luis.id, { content: 'De Luis', ...dated(2) });
        await buildPost(db, eva.id, { content: 'De Eva', ...dated(3) });
        await buildPost(db, ana.id, { content: 'Ana en el club', groupId, visibility: 'group', ...dated(4) });
        await buildPost(db, luis.id, { content: 'Luis en el club', groupId, visibility: 'group', ...dated(5) });
        await db.insert(schema.follows).values([
          { followerId: ana.id, followeeId: luis.id },
          { followerId: luis.id, followeeId: ana.id },
          { followerId: eva.id, followeeId: ana.id },
          { followerId: eva.id, followeeId: luis.id },
        ]);
        const [anaOn, luisOn, evaOn] = [await headersOn(cached, ana), await headersOn(cached, luis), await headersOn(cached, eva)];
        // The shared pages are read (and kept) before the block.
        expect(await wall('?sort=recent', evaOn, cached)).toEqual(['De Eva', 'De Luis', 'De Ana']);
        expect(await wall(`?groupId=${groupId}&sort=recent`, evaOn, cached)).toEqual(['Luis en el club', 'Ana en el club']);

        // Luis is blocked by Ana: from here neither sees the other, whoever blocked.
        await act('PUT', 'block', anaOn, luis, cached);
        for (const [me, mine, theirs] of [
          [anaOn, 'Ana', 'Luis'],
          [luisOn, 'Luis', 'Ana'],
        ] as const) {
          const wallNow = await wall('?sort=recent', me, cached);
          expect(wallNow).toEqual(['De Eva', `De ${mine}`]);
          expect(await wall(`?groupId=${groupId}&sort=recent`, me, cached)).toEqual([`${mine} en el club`]);
          // Their follows ended with the block: 'Siguiendo' is empty.
          expect(await wall('?following=true', me, cached)).toEqual([]);
          expect(wallNow).not.toContain(`De ${theirs}`);
        }
        expect(await wall('?sort=recent', evaOn, cached)).toEqual(['De Eva', 'De Luis', 'De Ana']);
        expect(await wall('?following=true&sort=recent', evaOn, cached)).toEqual(['De Luis', 'De Ana']);

        await act('DELETE', 'block', anaOn, luis, cached);
        expect(await wall('?sort=recent', anaOn, cached)).toEqual(['De Eva', 'De Luis', 'De Ana']);
        expect(await wall(`?groupId=${groupId}&sort=recent`, luisOn, cached)).toEqual(['Luis en el club', 'Ana en el club']);
        // The follows do not come back.
        expect(await wall('?following=true', anaOn, cached)).toEqual([]);
      } finally {
        await cached.close();
      }
    });

    it("hides each one's post page, comments and threads from the other, and refuses comments, replies and reactions between them as not found", async () => {
      const [ana, luis, eva] = [await fan(), await fan(), await fan()];
      const db = database.db;
      const anaPost = await buildPost(db, ana.id, { content: 'De Ana', ...dated(1) });
      const luisPost = await buildPost(db, luis.id, { content: 'De Luis', ...dated(2) });
      const evaPost = await buildPost(db, eva.id, { content: 'De Eva', ...dated(3) });
      const anaComment = await buildComment(db, evaPost.id, ana.id, { content: 'Ana comenta', createdAt: at(4) });
      const luisComment = await buildComment(db, evaPost.id, luis.id, { content: 'Luis comenta', createdAt: at(5) });
      await buildComment(db, evaPost.id, luis.id, { content: 'Luis responde a Ana', parentCommentId: anaComment.id, createdAt: at(6) });
      await act('PUT', 'block', luis, ana);

      for (const [me, theirPost, theirComment] of [
        [ana, luisPost, luisComment],
        [luis, anaPost, anaComment],
      ] as const) {
        // The other's post: not found on its page, its thread, and to comment on or react to.
        for (const res of [
          await get(`/api/posts/${theirPost.id}`, me),
          await get(`/api/posts/${theirPost.id}/comments`, me),
          await comment(me, theirPost.id, 'Hola'),
        ]) {
          expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([404, WALL_MESSAGES.postNotFound]);
        }
        expect((await react(me, `posts/${theirPost.id}`)).statusCode).toBe(404);
        // On a third person's post, the other's comments are left out, and they cannot be replied to or reacted to.
        expect((await react(me, `comments/${theirComment.id}`)).statusCode).toBe(404);
        const reply = await comment(me, evaPost.id, 'Respondo', theirComment.id);
        expect([reply.statusCode, reply.json<{ message: string }>().message]).toEqual([404, WALL_MESSAGES.parentNotFound]);
      }
      // Ana reads her own comment without Luis's reply to it; Luis reads only his own.
      expect(await thread(evaPost.id, ana)).toEqual(['Ana comenta']);
      expect(await thread(evaPost.id, luis)).toEqual(['Luis comenta']);
      expect(await thread(evaPost.id, eva)).toEqual(['Ana comenta', '  Luis responde a Ana', 'Luis comenta']);
      // Each may still deal with their own comment on the other's post written before the block.
      const before = await buildComment(db, luisPost.id, ana.id, { content: 'Antes del bloqueo' });
      const edited = await app.inject({ method: 'PATCH', url: `/api/comments/${before.id}`, headers: ana.headers, payload: { content: 'Editado' } });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((await app.inject({ method: 'DELETE', url: `/api/comments/${before.id}`, headers: ana.headers })).statusCode).toBe(200);
      expect(await database.sql`SELECT 1 FROM comments WHERE content = 'Hola' OR content = 'Respondo'`).toHaveLength(0);
      expect(await database.sql`SELECT 1 FROM post_reactions UNION ALL SELECT 1 FROM comment_reactions`).toHaveLength(0);

      await act('DELETE', 'block', luis, ana);
      expect((await get(`/api/posts/${luisPost.id}`, ana)).statusCode).toBe(200);
      expect((await react(ana, `posts/${luisPost.id}`)).statusCode).toBe(200);
      const created = await comment(luis, evaPost.id, 'Ya hablamos', anaComment.id);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<CreatedComment>().comment.content).toBe('Ya hablamos');
    });

    it('leaves no mention notification either way, and hides the notifications of the other until the unblock', async () => {
      const [ana, luis, eva] = [await fan({ username: 'ana_b' }), await fan({ username: 'luis_b' }), await fan({ username: 'eva_b' })];
      const evaPost = await buildPost(database.db, eva.id, { content: 'De Eva' });
      const anaPost = await buildPost(database.db, ana.id, { content: 'De Ana' });
      // Before the block Luis reacted to Ana's post: she was told.
      expect((await react(luis, `posts/${anaPost.id}`)).statusCode).toBe(200);
      expect((await notifications(ana)).unreadCount).toBe(1);

      await act('PUT', 'block', ana, luis);
      expect(await notifications(ana)).toMatchObject({ items: [], unreadCount: 0 });
      await publish(luis, 'Hola @ana_b y @eva_b');
      await publish(ana, 'Hola @luis_b y @eva_b');
      expect((await comment(luis, evaPost.id, 'Mira @ana_b')).statusCode).toBe(201);
      expect((await comment(ana, evaPost.id, 'Mira @luis_b')).statusCode).toBe(201);
      // Eva, mentioned by both, is told of each; neither of them of the other.
      expect((await notifications(eva)).items.filter((e) => e.type === 'post_mention')).toHaveLength(2);
      expect(await notifications(ana)).toMatchObject({ items: [], unreadCount: 0 });
      expect(await notifications(luis)).toMatchObject({ items: [], unreadCount: 0 });
      expect(
        await database.sql`SELECT 1 FROM notifications WHERE type IN ('post_mention', 'comment_mention') AND user_id IN (${ana.id}, ${luis.id})`,
      ).toHaveLength(0);

      await act('DELETE', 'block', ana, luis);
      const back = await notifications(ana);
      expect([back.unreadCount, back.items.map((e) => [e.type, e.actor.id])]).toEqual([1, [['post_reaction', luis.id]]]);
    });

    it("refuses each one's live topics of the other's posts, and drops those already watched when the block begins", async () => {
      const [ana, luis, eva] = [await fan(), await fan(), await fan()];
      const anaPost = await buildPost(database.db, ana.id, { content: 'De Ana' });
      const luisPost = await buildPost(database.db, luis.id, { content: 'De Luis' });
      const watch = async (who: Fan, topic: string): Promise<WsTestClient> => {
        const client = await openWs(wsUrl, { cookie: who.cookie });
        const from = client.messages.length;
        client.send({ type: 'subscribe', topic });
        await client.waitFor((m) => m.type === 'post-reactions' && m.topic === topic, { from });
        return client;
      };
      const subscriptions = () => app.live.hub.stats().subscriptions;
      const luisWatches = await watch(luis, `post:${anaPost.id}`);
      const evaWatches = await watch(eva, `post:${anaPost.id}`);
      const before = subscriptions();
      try {
        await act('PUT', 'block', ana, luis);
        // Luis's subscription to Ana's post is gone (Eva's stays): the route answered after every instance heard the block.
        expect(subscriptions()).toBe(before - 1);
        expect(app.live.hub.hasViewers(`post:${anaPost.id}`)).toBe(true);
        for (const [who, topic] of [
          [luis, `post:${anaPost.id}`],
          [ana, `post:${luisPost.id}`],
        ] as const) {
          const client = await openWs(wsUrl, { cookie: who.cookie });
          try {
            client.send({ type: 'subscribe', topic });
            const refused = await client.waitFor((m) => m.type === 'error' && m.topic === topic);
            expect(refused).toMatchObject({ type: 'error', code: 'not-found', topic });
          } finally {
            await client.close();
          }
        }
      } finally {
        await luisWatches.close();
        await evaWatches.close();
      }
    });
  });
});
