// Follows (issue 28): 'Seguir' / 'Siguiendo' on profiles with their counters and paged lists,
// 'X empezó a seguirte', followers-only posts readable by the author's followers (post page,
// comments, reactions, live topic, mentions, profile tab), and the 'Siguiendo' wall.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { FollowPage, FollowState, PublicProfile } from '@tribuna/contracts/api/profiles';
import type { NotificationPage, NotificationsLiveMessage } from '@tribuna/contracts/api/notifications';
import type { FeedPage, PostView } from '@tribuna/contracts/api/wall';
import { FOLLOW_MESSAGES } from '@tribuna/contracts/followRules';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { buildApp, type App } from '../app.ts';
import { testConfig } from '../../../test/support/env.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;
const rateLimits = {
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

type Fan = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string>; cookie: string };

describe('follows', () => {
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
        // Tables are emptied between tests: nothing shared outlives one; no sweep statement counts with a page's.
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

  const get = (url: string, who?: Fan) => app.inject({ method: 'GET', url, headers: who?.headers ?? { 'x-requested-with': 'tribuna' } });
  const followReq = (who: Fan, target: string) => app.inject({ method: 'PUT', url: `/api/profiles/${target}/follow`, headers: who.headers });
  const unfollowReq = (who: Fan, target: string) => app.inject({ method: 'DELETE', url: `/api/profiles/${target}/follow`, headers: who.headers });

  async function follow(who: Fan, target: { id: string }): Promise<FollowState> {
    const res = await followReq(who, target.id);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FollowState>();
  }

  async function profile(id: string, who?: Fan): Promise<PublicProfile> {
    const res = await get(`/api/profiles/${id}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PublicProfile>();
  }

  const counters = (p: PublicProfile) => ({ followers: p.followersCount, following: p.followingCount, viewerFollows: p.viewerFollows });

  async function notifications(who: Fan): Promise<NotificationPage> {
    const res = await get('/api/notifications', who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationPage>();
  }

  /** Subscribes as `who` and resolves once this instance counts a viewer of the topic (no other socket watches it). */
  async function watch(topic: string, who?: Fan): Promise<WsTestClient> {
    const client = await openWs(wsUrl, who ? { cookie: who.cookie } : {});
    client.send({ type: 'subscribe', topic });
    while (!app.live.hub.hasViewers(topic)) await new Promise((resolve) => setTimeout(resolve, 5));
    return client;
  }

  /** Subscribes as `who` and resolves with the refusal's code. */
  async function refusedWatch(topic: string, who?: Fan): Promise<string> {
    const client = await openWs(wsUrl, who ? { cookie: who.cookie } : {});
    try {
      client.send({ type: 'subscribe', topic });
      const error = await client.waitFor((m) => m.type === 'error' && m.topic === topic);
      return error.type === 'error' ? error.code : 'none';
    } finally {
      await client.close();
    }
  }

  describe('following and unfollowing', () => {
    it('follows idempotently, keeps the counters on both profiles, and unfollows idempotently', async () => {
      const ana = await fan();
      const luis = await fan();
      const eva = await fan();
      expect(await follow(ana, luis)).toEqual({ following: true, followersCount: 1 });
      // Again: nothing changes.
      expect(await follow(ana, luis)).toEqual({ following: true, followersCount: 1 });
      expect(await follow(eva, luis)).toEqual({ following: true, followersCount: 2 });
      await follow(luis, ana);

      expect(counters(await profile(luis.id, ana))).toEqual({ followers: 2, following: 1, viewerFollows: true });
      expect(counters(await profile(ana.id, luis))).toEqual({ followers: 1, following: 1, viewerFollows: true });
      expect(counters(await profile(ana.id, eva))).toEqual({ followers: 1, following: 1, viewerFollows: false });
      // Visitors and the owner: viewerFollows is false.
      expect(counters(await profile(luis.id))).toEqual({ followers: 2, following: 1, viewerFollows: false });
      expect((await profile(luis.id, luis)).viewerFollows).toBe(false);

      const unfollowed = await unfollowReq(ana, luis.id);
      expect(unfollowed.statusCode).toBe(200);
      expect(unfollowed.json()).toEqual({ following: false, followersCount: 1 });
      const again = await unfollowReq(ana, luis.id);
      expect(again.json()).toEqual({ following: false, followersCount: 1 });
      expect(counters(await profile(luis.id, ana))).toEqual({ followers: 1, following: 1, viewerFollows: false });
      expect(counters(await profile(ana.id))).toEqual({ followers: 1, following: 0, viewerFollows: false });
      const rows = await database.sql`SELECT follower_id, followee_id FROM follows ORDER BY follower_id, followee_id`;
      expect(rows.map((r) => [r.follower_id, r.followee_id]).sort()).toEqual(
        [
          [eva.id, luis.id],
          [luis.id, ana.id],
        ].sort(),
      );
    });

    it('refuses following oneself (400), an unknown or deleted account (404), visitors (401) and suspended fans (403), writing nothing', async () => {
      const ana = await fan();
      const gone = await buildUser(database.db, { deletedAt: at(0), isSuspended: true });
      const suspended = await fan({ isSuspended: true });
      const self = await followReq(ana, ana.id);
      expect([self.statusCode, self.json<{ message: string }>().message]).toEqual([400, FOLLOW_MESSAGES.self]);
      const unknown = await followReq(ana, '123e4567-e89b-42d3-a456-426614174000');
      expect([unknown.statusCode, unknown.json<{ message: string }>().message]).toEqual([404, FOLLOW_MESSAGES.userNotFound]);
      const deleted = await followReq(ana, gone.id);
      expect([deleted.statusCode, deleted.json<{ message: string }>().message]).toEqual([404, FOLLOW_MESSAGES.userNotFound]);
      const visitor = await app.inject({ method: 'PUT', url: `/api/profiles/${ana.id}/follow`, headers: { 'x-requested-with': 'tribuna' } });
      expect(visitor.statusCode).toBe(401);
      expect((await followReq(suspended, ana.id)).statusCode).toBe(403);
      // Unfollowing an unknown account: 404; a suspended fan may still unfollow.
      expect((await unfollowReq(ana, '123e4567-e89b-42d3-a456-426614174000')).statusCode).toBe(404);
      expect((await unfollowReq(suspended, ana.id)).statusCode).toBe(200);
      expect(await database.sql`SELECT 1 FROM follows`).toHaveLength(0);
      expect(await database.sql`SELECT 1 FROM notifications`).toHaveLength(0);
    });

    it("deleting an account ends its follows both ways, and the others' counters follow", async () => {
      const ana = await fan();
      const luis = await fan();
      const eva = await fan();
      await follow(ana, luis);
      await follow(luis, eva);
      const res = await app.inject({ method: 'DELETE', url: '/api/me', headers: luis.headers, payload: { confirm: 'ELIMINAR' } });
      expect(res.statusCode, res.body).toBe(204);
      expect(await database.sql`SELECT 1 FROM follows`).toHaveLength(0);
      expect(counters(await profile(ana.id))).toMatchObject({ followers: 0, following: 0 });
      expect(counters(await profile(eva.id))).toMatchObject({ followers: 0, following: 0 });
      expect(counters(await profile(luis.id))).toMatchObject({ followers: 0, following: 0 });
    });
  });

  describe('the followers and following lists', () => {
    it('pages 30 at a time, newest follow first, each with whether the viewer follows them', async () => {
      const star = await fan();
      const viewer = await fan();
      const fans = await Promise.all(Array.from({ length: 35 }, (_, i) => buildUser(database.db, { displayName: `Fan ${i}` })));
      // Fan i followed at minute i; two at the same minute are ordered by id.
      await database.db
        .insert(schema.follows)
        .values([
          ...fans.map((f, i) => ({ followerId: f.id, followeeId: star.id, createdAt: at(i < 34 ? i : 33) })),
          { followerId: viewer.id, followeeId: fans[3]!.id, createdAt: at(0) },
          { followerId: viewer.id, followeeId: fans[34]!.id, createdAt: at(0) },
          { followerId: star.id, followeeId: fans[0]!.id, createdAt: at(5) },
          { followerId: star.id, followeeId: fans[1]!.id, createdAt: at(6) },
        ]);
      const expectedOrder = fans
        .map((f, i) => ({ id: f.id, minute: i < 34 ? i : 33 }))
        .sort((a, b) => b.minute - a.minute || (a.id < b.id ? 1 : -1))
        .map((f) => f.id);

      const first = await get(`/api/profiles/${star.id}/followers`, viewer);
      expect(first.statusCode, first.body).toBe(200);
      const page1 = first.json<FollowPage>();
      expect(page1.items).toHaveLength(30);
      expect(page1.nextCursor).not.toBeNull();
      const page2 = (await get(`/api/profiles/${star.id}/followers?cursor=${page1.nextCursor}`, viewer)).json<FollowPage>();
      expect(page2.nextCursor).toBeNull();
      expect([...page1.items, ...page2.items].map((e) => e.user.id)).toEqual(expectedOrder);
      const newest = fans.find((f) => f.id === expectedOrder[0])!;
      expect(page1.items[0]).toEqual({
        user: { id: newest.id, displayName: newest.displayName, username: newest.username, avatarUrl: null },
        since: '2026-03-01T12:33:00.000Z',
        viewerFollows: newest.id === fans[34]!.id,
      });
      expect([...page1.items, ...page2.items].filter((e) => e.viewerFollows).map((e) => e.user.id)).toEqual(
        expectedOrder.filter((id) => id === fans[3]!.id || id === fans[34]!.id),
      );

      const following = (await get(`/api/profiles/${star.id}/following`)).json<FollowPage>();
      expect(following).toEqual({
        items: [
          { user: expect.objectContaining({ id: fans[1]!.id }), since: '2026-03-01T12:06:00.000Z', viewerFollows: false },
          { user: expect.objectContaining({ id: fans[0]!.id }), since: '2026-03-01T12:05:00.000Z', viewerFollows: false },
        ],
        nextCursor: null,
      });
      expect((await get(`/api/profiles/${viewer.id}/followers`)).json()).toEqual({ items: [], nextCursor: null });
    });

    it('answers 404 for an unknown profile and 400 for a bad cursor', async () => {
      const star = await fan();
      const unknown = await get('/api/profiles/123e4567-e89b-42d3-a456-426614174000/followers');
      expect([unknown.statusCode, unknown.json<{ message: string }>().message]).toEqual([404, FOLLOW_MESSAGES.userNotFound]);
      expect((await get(`/api/profiles/${star.id}/following?cursor=bm9wZQ`)).statusCode).toBe(400);
    });
  });

  describe("'X empezó a seguirte'", () => {
    it('is written once per follower, removed on unfollow, and told live to the followed', async () => {
      const star = await fan();
      const ana = await fan({ displayName: 'Ana' });
      const badge = await watch(`user:${star.id}`, star);
      const isBadge = (reason: string) => (m: AnyServerMessage) => m.type === 'notifications' && (m as NotificationsLiveMessage).reason === reason;

      await follow(ana, star);
      expect(await badge.waitFor(isBadge('new'))).toMatchObject({ type: 'notifications', topic: `user:${star.id}`, unreadCount: 1 });
      await follow(ana, star);
      const page = await notifications(star);
      expect(page.unreadCount).toBe(1);
      expect(page.items).toEqual([
        {
          id: `f:${ana.id}`,
          type: 'follow',
          actor: { id: ana.id, displayName: 'Ana', username: ana.username, avatarUrl: null },
          othersCount: 0,
          reactionTypes: [],
          postId: null,
          commentId: null,
          excerpt: null,
          createdAt: expect.any(String),
          read: false,
        },
      ]);

      const from = badge.messages.length;
      expect((await unfollowReq(ana, star.id)).statusCode).toBe(200);
      expect(await badge.waitFor(isBadge('removed'), { from })).toMatchObject({ unreadCount: 0 });
      expect((await notifications(star)).items).toEqual([]);

      // Following again: one entry again, never two.
      await follow(ana, star);
      await follow(ana, star);
      const again = await notifications(star);
      expect([again.unreadCount, again.items.map((e) => [e.type, e.actor.id])]).toEqual([1, [['follow', ana.id]]]);
      expect(await database.sql`SELECT 1 FROM notifications WHERE type = 'follow'`).toHaveLength(1);
      await badge.close();
    });

    it('lists a follow among post notifications (the list joins posts only where there is one)', async () => {
      const star = await fan();
      const ana = await fan();
      const post = await buildPost(database.db, star.id, { content: 'Mi publicación' });
      const reacted = await app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: ana.headers, payload: { type: 'love' } });
      expect(reacted.statusCode).toBe(200);
      await follow(ana, star);
      const page = await notifications(star);
      expect(page.items.map((e) => [e.type, e.postId, e.excerpt]).sort()).toEqual(
        [
          ['follow', null, null],
          ['post_reaction', post.id, 'Mi publicación'],
        ].sort(),
      );
      expect(page.unreadCount).toBe(2);
    });
  });

  describe('followers-only posts', () => {
    async function scene() {
      const author = await fan({ username: 'autora' });
      const follower = await fan({ username: 'seguidora' });
      const stranger = await fan({ username: 'extrana' });
      await follow(follower, author);
      const body = multipart([
        { name: 'content', value: 'Solo para mis seguidores @seguidora @extrana' },
        { name: 'visibility', value: 'followers' },
      ]);
      const created = await app.inject({ method: 'POST', url: '/api/posts', headers: { ...author.headers, ...body.headers }, payload: body.payload });
      expect(created.statusCode, created.body).toBe(201);
      const post = created.json<PostView>();
      expect(post.visibility).toBe('followers');
      return { author, follower, stranger, post };
    }

    it('are read by the author and their followers only: post page, comments, reactions, new comments', async () => {
      const { author, follower, stranger, post } = await scene();
      const status = async (who: Fan | undefined) => [
        (await get(`/api/posts/${post.id}`, who)).statusCode,
        (await get(`/api/posts/${post.id}/comments`, who)).statusCode,
      ];
      expect(await status(author)).toEqual([200, 200]);
      expect(await status(follower)).toEqual([200, 200]);
      expect(await status(stranger)).toEqual([404, 404]);
      expect(await status(undefined)).toEqual([404, 404]);

      const react = (who: Fan) => app.inject({ method: 'POST', url: `/api/posts/${post.id}/reactions`, headers: who.headers, payload: { type: 'wow' } });
      expect((await react(follower)).statusCode).toBe(200);
      expect((await react(stranger)).statusCode).toBe(404);
      const comment = (who: Fan) => {
        const body = multipart([{ name: 'content', value: 'Hola' }]);
        return app.inject({ method: 'POST', url: `/api/posts/${post.id}/comments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
      };
      expect((await comment(follower)).statusCode).toBe(201);
      expect((await comment(stranger)).statusCode).toBe(404);

      // Unfollowing takes the access away at once.
      expect((await unfollowReq(follower, author.id)).statusCode).toBe(200);
      expect(await status(follower)).toEqual([404, 404]);
    });

    it('tell only the followers they mention, and let only them watch the live topic', async () => {
      const { author, follower, stranger, post } = await scene();
      expect((await notifications(follower)).items.map((e) => [e.type, e.postId])).toEqual([['post_mention', post.id]]);
      expect((await notifications(stranger)).items).toEqual([]);
      // The author sees the follower's follow; nothing else.
      expect((await notifications(author)).items.map((e) => e.type)).toEqual(['follow']);

      expect(await refusedWatch(`post:${post.id}`, stranger)).toBe('not-found');
      expect(await refusedWatch(`post:${post.id}`)).toBe('not-found');
      const watching = await watch(`post:${post.id}`, follower);
      expect(watching.ofType('error')).toEqual([]);
      await watching.close();
    });

    it("show on the author's profile tab to followers, and are counted there for them", async () => {
      const { author, follower, stranger, post } = await scene();
      const pub = await buildPost(database.db, author.id, { content: 'Para todos', createdAt: at(0), lastActivityAt: at(0) });
      const tab = async (who: Fan) => (await get(`/api/posts?userId=${author.id}&sort=recent`, who)).json<FeedPage>().posts.map((p) => p.id);
      expect(await tab(follower)).toEqual([post.id, pub.id]);
      expect(await tab(stranger)).toEqual([pub.id]);
      const stats = async (who: Fan) => (await get(`/api/profiles/${author.id}/stats`, who)).json<{ posts: number }>().posts;
      expect([await stats(author), await stats(follower), await stats(stranger)]).toEqual([2, 2, 1]);
    });

    it('are accepted without a group, refused in one', async () => {
      const author = await fan();
      const [group] = await database.db.insert(schema.groups).values({ name: 'Club', privacy: 'public' }).returning();
      await database.db.insert(schema.groupMembers).values({ groupId: group!.id, userId: author.id });
      const parts: MultipartPart[] = [
        { name: 'content', value: 'En el grupo' },
        { name: 'visibility', value: 'followers' },
        { name: 'groupId', value: group!.id },
      ];
      const body = multipart(parts);
      const res = await app.inject({ method: 'POST', url: '/api/posts', headers: { ...author.headers, ...body.headers }, payload: body.payload });
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([400, WALL_MESSAGES.followersNotInGroup]);
      expect(await database.sql`SELECT 1 FROM posts`).toHaveLength(0);
    });
  });

  describe("the 'Siguiendo' wall", () => {
    it('is for signed-in readers only', async () => {
      const res = await get('/api/posts?following=true');
      expect(res.statusCode).toBe(401);
    });

    it('pages the posts of the people followed, outside groups, public and followers-only, in both sorts, at a constant number of statements', async () => {
      const reader = await fan();
      const ana = await fan();
      const luis = await fan();
      const other = await fan();
      await follow(reader, ana);
      await follow(reader, luis);
      const [group] = await database.db.insert(schema.groups).values({ name: 'Club', privacy: 'public' }).returning();
      const db = database.db;
      // 24 posts of the followed at minutes 1..24 (every third followers-only); by activity, the
      // oldest are the liveliest.
      const wanted: string[] = [];
      for (let i = 1; i <= 24; i++) {
        const author = i % 2 === 0 ? ana : luis;
        const p = await buildPost(db, author.id, {
          content: `Post ${i}`,
          visibility: i % 3 === 0 ? 'followers' : 'public',
          createdAt: at(i),
          lastActivityAt: at(100 - i),
        });
        wanted.push(p.id);
      }
      // Not on it: someone not followed, a group post of a followed one, a hidden one, the reader's own.
      await buildPost(db, other.id, { createdAt: at(50), lastActivityAt: at(200) });
      await buildPost(db, ana.id, { groupId: group!.id, visibility: 'public', createdAt: at(51), lastActivityAt: at(201) });
      await buildPost(db, ana.id, { isHidden: true, createdAt: at(52), lastActivityAt: at(202) });
      await buildPost(db, reader.id, { createdAt: at(53), lastActivityAt: at(203) });

      async function walk(sort: 'recent' | 'activity'): Promise<{ ids: string[]; statements: number[]; totals: number[] }> {
        const ids: string[] = [];
        const counts: number[] = [];
        const totals: number[] = [];
        let cursor: string | null = null;
        do {
          statements = [];
          const res = await get(`/api/posts?following=true&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`, reader);
          counts.push(statements.length);
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json<FeedPage>();
          expect(page.posts.length).toBeLessThanOrEqual(WALL_LIMITS.feedPageSize);
          expect(page.totalCapped).toBeUndefined();
          ids.push(...page.posts.map((p) => p.id));
          totals.push(page.total);
          cursor = page.nextCursor;
        } while (cursor);
        return { ids, statements: counts, totals };
      }

      const recent = await walk('recent');
      expect(recent.ids).toEqual([...wanted].reverse());
      expect(recent.totals).toEqual([24, 24, 24]);
      // Session lookup, page and total: the same on every page (the session is cached after the first).
      expect(new Set(recent.statements.slice(1)).size).toBe(1);
      const activity = await walk('activity');
      expect(activity.ids).toEqual(wanted);

      // A stranger's followers-only posts never appear: unfollowing Luis takes his off the wall.
      await app.inject({ method: 'DELETE', url: `/api/profiles/${luis.id}/follow`, headers: reader.headers });
      const after = await walk('recent');
      expect(after.ids).toEqual(wanted.filter((_, i) => (i + 1) % 2 === 0).reverse());
    });

    it("shares the cards of its posts among readers, never a reader's page, reaction or followees, and shows an edit or a deletion at once", async () => {
      // Statements that read post cards (their media) on the cached instance.
      let cardReads = 0;
      const cached = await buildApp(testConfig(), {
        rateLimits,
        wall: { totalsTtlMs: 60_000, pageTtlMs: 60_000, videoSweep: { everyMs: 0 } },
        onQuery: (query) => void (cardReads += query.includes('FROM post_media') ? 1 : 0),
      });
      try {
        const [ana, luis, bea, carlos] = [await fan(), await fan(), await fan(), await fan()];
        // Ana follows Bea and Carlos; Luis follows Bea only.
        await follow(ana, bea);
        await follow(ana, carlos);
        await follow(luis, bea);
        const db = database.db;
        const beaPublic = await buildPost(db, bea.id, { content: 'Bea para todos', createdAt: at(1), lastActivityAt: at(1) });
        const beaFollowers = await buildPost(db, bea.id, {
          content: 'Bea para sus seguidores',
          visibility: 'followers',
          createdAt: at(2),
          lastActivityAt: at(2),
        });
        const carlosPost = await buildPost(db, carlos.id, { content: 'Carlos', visibility: 'followers', createdAt: at(3), lastActivityAt: at(3) });
        const headersOf = async (who: Fan) => asUser(await signIn(cached, who));
        const [anaH, luisH, beaH] = [await headersOf(ana), await headersOf(luis), await headersOf(bea)];
        const wall = async (headers: Record<string, string>) => {
          const res = await cached.inject({ method: 'GET', url: '/api/posts?following=true&sort=recent', headers });
          expect(res.statusCode, res.body).toBe(200);
          return res.json<FeedPage>().posts;
        };
        expect((await wall(anaH)).map((p) => p.content)).toEqual(['Carlos', 'Bea para sus seguidores', 'Bea para todos']);
        expect(cardReads).toBe(1);
        // Luis's page takes Bea's cards from the cache, and never Carlos's post (he does not follow Carlos).
        expect((await wall(luisH)).map((p) => p.id)).toEqual([beaFollowers.id, beaPublic.id]);
        expect(cardReads).toBe(1);
        // Each reader's own reaction on a shared card.
        await cached.inject({ method: 'POST', url: `/api/posts/${beaPublic.id}/reactions`, headers: luisH, payload: { type: 'love' } });
        expect((await wall(luisH)).map((p) => p.myReaction)).toEqual([null, 'love']);
        expect((await wall(anaH)).map((p) => p.myReaction)).toEqual([null, null, null]);
        // Unfollowing takes the posts off at once, cached cards or not.
        await cached.inject({ method: 'DELETE', url: `/api/profiles/${carlos.id}/follow`, headers: anaH });
        expect((await wall(anaH)).map((p) => p.id)).not.toContain(carlosPost.id);
        // An edit and a deletion through the API show at once on every reader's wall.
        const edited = await cached.inject({ method: 'PATCH', url: `/api/posts/${beaPublic.id}`, headers: beaH, payload: { content: 'Bea editado' } });
        expect(edited.statusCode, edited.body).toBe(200);
        expect((await wall(luisH)).map((p) => p.content)).toEqual(['Bea para sus seguidores', 'Bea editado']);
        await cached.inject({ method: 'DELETE', url: `/api/posts/${beaFollowers.id}`, headers: beaH });
        expect((await wall(anaH)).map((p) => p.content)).toEqual(['Bea editado']);
      } finally {
        await cached.close();
      }
    });

    it('counts its total up to the cap', async () => {
      const reader = await fan();
      const ana = await fan();
      await follow(reader, ana);
      await database.db.execute(
        sql`INSERT INTO posts (user_id, content, created_at, last_activity_at) SELECT ${ana.id}, 'Post ' || g, ${at(0).toISOString()}::timestamptz + g * interval '1 second', ${at(0).toISOString()}::timestamptz FROM generate_series(1, ${WALL_LIMITS.followingTotalCap + 5}) g`,
      );
      const page = (await get('/api/posts?following=true', reader)).json<FeedPage>();
      expect([page.total, page.totalCapped, page.posts.length, page.hasMore]).toEqual([WALL_LIMITS.followingTotalCap, true, WALL_LIMITS.feedPageSize, true]);
    });
  });
});
