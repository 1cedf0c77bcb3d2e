import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql, type SQL } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { CommentList, CreatedComment, FeedPage, PostView, ReactionState, ReplyView } from '@tribuna/contracts/api/wall';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { SUSPENDED_MESSAGE } from '../identity/plugin.ts';
import { hugePng } from '../../../test/support/server/images.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';

const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_wall` });

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const jpeg = (width = 64, height = 48, r = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 40, b: 90 } } })
    .jpeg()
    .toBuffer();

describe('the wall API', () => {
  let app: App;
  let database: Database;
  let statements: string[] = [];
  const mediaDir = () => resolve(config.mediaDir);

  beforeAll(async () => {
    // No shared pages or totals: every test empties the tables, so nothing cached may outlive one.
    // No sweep of transcoded clips (videos.test.ts): its statement would count with a page's.
    app = await buildApp(config, {
      wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } },
      onQuery: (query) => void statements.push(query),
      rateLimits: {
        'wall.post-create': { store: 'local', perUser: { max: 1000, windowSeconds: 1 } },
        'wall.react': { store: 'local', perUser: { max: 1000, windowSeconds: 1 } },
        'wall.comment-create': { store: 'local', perUser: { max: 1000, windowSeconds: 1 } },
      },
    });
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const count = async (query: SQL) => Number((await database.db.execute<{ n: number }>(query))[0]!.n);
  const feed = (query = '', headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `/api/posts${query}`, headers });
  const publish = (headers: Record<string, string>, parts: MultipartPart[]) => {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url: '/api/posts', headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const comment = (headers: Record<string, string>, postId: string, parts: MultipartPart[]) => {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const react = (headers: Record<string, string>, postId: string, type: string) =>
    app.inject({ method: 'POST', url: `/api/posts/${postId}/reactions`, headers, payload: { type } });

  describe('publishing', () => {
    it('publishes trimmed text as a public post that leads the feed', async () => {
      const { user, headers } = await fan();
      const res = await publish(headers, [{ name: 'content', value: '  ¡Qué gala!  ' }]);
      expect(res.statusCode, res.body).toBe(201);
      const post = res.json<PostView>();
      expect(post).toMatchObject({
        content: '¡Qué gala!',
        visibility: 'public',
        groupId: null,
        editedAt: null,
        media: [],
        commentCount: 0,
        myReaction: null,
        reactions: { like: 0, love: 0, haha: 0, wow: 0, sad: 0, angry: 0 },
        author: { id: user.id, displayName: user.displayName, username: user.username },
      });
      const page = (await feed()).json<FeedPage>();
      expect(page).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
      expect(page.posts.map((p) => p.id)).toEqual([post.id]);
    });

    it('refuses what the spec refuses, with its messages, and stores nothing', async () => {
      const { headers } = await fan();
      const cases: [MultipartPart[], number, string][] = [
        [[{ name: 'content', value: '   ' }], 400, WALL_MESSAGES.empty],
        [[], 400, WALL_MESSAGES.empty],
        [[{ name: 'content', value: 'a'.repeat(2001) }], 400, WALL_MESSAGES.postTooLong],
        [
          [
            { name: 'content', value: 'hola' },
            { name: 'visibility', value: 'group' },
          ],
          400,
          WALL_MESSAGES.groupRequired,
        ],
        [
          [
            { name: 'content', value: 'hola' },
            { name: 'visibility', value: 'friends' },
          ],
          400,
          'visibility must be one of public, followers, group',
        ],
      ];
      for (const [parts, status, message] of cases) {
        const res = await publish(headers, parts);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json().message).toBe(message);
      }
      expect((await publish(headers, [{ name: 'content', value: 'a'.repeat(2000) }])).statusCode).toBe(201);
      expect(await count(sql`SELECT count(*)::int AS n FROM posts`)).toBe(1);
    });

    it('refuses visitors and suspended users before reading the body', async () => {
      const visitor = await publish({ 'x-requested-with': 'tribuna' }, [{ name: 'content', value: 'hola' }]);
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json().message).toBe(WALL_MESSAGES.notAuthenticated);
      const suspended = await fan({ isSuspended: true });
      const res = await publish(suspended.headers, [{ name: 'content', value: 'hola' }]);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(SUSPENDED_MESSAGE);
    });

    it('stores two images through the pipeline, in order, with thumbnails, placeholders and alt texts', async () => {
      const { headers } = await fan();
      const res = await publish(headers, [
        { name: 'content', value: 'Dos fotos' },
        { name: 'images', filename: 'a.jpg', type: 'image/jpeg', data: await jpeg(300, 200, 10) },
        { name: 'alt', value: 'El escenario' },
        { name: 'images', filename: 'b.jpg', type: 'image/jpeg', data: await jpeg(100, 150, 250) },
        { name: 'alt', value: '' },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const { media } = res.json<PostView>();
      expect(media).toHaveLength(2);
      expect(media[0]).toMatchObject({ mediaType: 'image', width: 300, height: 200, alt: 'El escenario' });
      expect(media[1]).toMatchObject({ width: 100, height: 150, alt: null });
      for (const m of media) {
        expect(m.url).toMatch(/^\/media\/.+\.webp$/);
        expect(m.thumbnailUrl).toMatch(/^\/media\/.+\.webp$/);
        expect(m.placeholder).toMatch(/^[A-Za-z0-9+/=]+$/);
        const served = await app.inject({ method: 'GET', url: m.url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.headers['cache-control']).toContain('immutable');
      }
    });

    it('a post with one bad image among good ones leaves no row and no file behind', async () => {
      const { headers } = await fan();
      const before = await listFiles(mediaDir());
      const res = await publish(headers, [
        { name: 'content', value: 'hola' },
        { name: 'images', filename: 'ok.jpg', type: 'image/jpeg', data: await jpeg(80, 80, 33) },
        { name: 'images', filename: 'virus.jpg', type: 'image/jpeg', data: Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(2048, 7)]) },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(WALL_MESSAGES.imagesOnly);
      expect(await count(sql`SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM post_media) + (SELECT count(*) FROM media) AS n`)).toBe(0);
      expect(await listFiles(mediaDir())).toEqual(before);
    });

    it('answers every bad image with a clear 4xx and stores nothing', async () => {
      const { headers } = await fan();
      const goodJpeg = await jpeg(200, 150);
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0af' } })
        .png()
        .toBuffer();
      const huge = hugePng(20_000, 20_000);
      const cases: [string, Buffer, string, number, string][] = [
        [
          'an executable renamed .jpg',
          Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(4096, 1)]),
          'image/jpeg',
          400,
          WALL_MESSAGES.imagesOnly,
        ],
        ['a PNG sent as image/gif', png, 'image/gif', 400, WALL_MESSAGES.typeMismatch],
        ['a 20000×20000 image', huge, 'image/png', 400, WALL_MESSAGES.imageTooManyPixels],
        ['a truncated JPEG', goodJpeg.subarray(0, Math.floor(goodJpeg.length * 0.6)), 'image/jpeg', 400, WALL_MESSAGES.imageUnreadable],
        [
          'a GIF/JavaScript polyglot',
          Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(document.domain)//;', 'latin1'),
          'image/gif',
          400,
          WALL_MESSAGES.imageUnreadable,
        ],
      ];
      const before = await listFiles(mediaDir());
      for (const [name, data, type, status, message] of cases) {
        const res = await publish(headers, [
          { name: 'content', value: name },
          { name: 'images', filename: 'x.jpg', type, data },
        ]);
        expect(res.statusCode, name).toBe(status);
        expect(res.json().message, name).toBe(message);
      }
      expect(await count(sql`SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM media) AS n`)).toBe(0);
      expect(await listFiles(mediaDir())).toEqual(before);
    });

    it('refuses an 11th file and a file over 10 MB with the spec messages', async () => {
      const { headers } = await fan();
      const small = await jpeg(16, 16);
      const eleven = Array.from({ length: 11 }, (_, i): MultipartPart => ({ name: 'images', filename: `${i}.jpg`, type: 'image/jpeg', data: small }));
      const tooMany = await publish(headers, [{ name: 'content', value: 'x' }, ...eleven]);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().message).toBe(WALL_MESSAGES.tooManyFiles);
      const big = await publish(headers, [
        { name: 'images', filename: 'big.jpg', type: 'image/jpeg', data: Buffer.concat([small, Buffer.alloc(12 * 1024 * 1024)]) },
      ]);
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe(WALL_MESSAGES.postImageTooLarge);
      expect(await count(sql`SELECT count(*)::int AS n FROM posts`)).toBe(0);
    });
  });

  describe('the feed', () => {
    it('pages 10 at a time with a keyset cursor: a post arriving meanwhile neither repeats nor hides a card', async () => {
      const { user, headers } = await fan();
      const base = Date.now() - 3_600_000;
      for (let i = 0; i < 25; i++)
        await buildPost(database.db, user.id, { content: `p${i}`, createdAt: new Date(base + i * 1000), lastActivityAt: new Date(base + i * 1000) });
      const first = (await feed('?sort=recent')).json<FeedPage>();
      expect(first.posts.map((p) => p.content)).toEqual(Array.from({ length: 10 }, (_, i) => `p${24 - i}`));
      expect(first).toMatchObject({ total: 25, hasMore: true });
      // Published meanwhile (through the API: the cached total follows).
      expect((await publish(headers, [{ name: 'content', value: 'new' }])).statusCode).toBe(201);
      const second = (await feed(`?sort=recent&cursor=${first.nextCursor}`)).json<FeedPage>();
      expect(second.posts.map((p) => p.content)).toEqual(Array.from({ length: 10 }, (_, i) => `p${14 - i}`));
      const third = (await feed(`?sort=recent&cursor=${second.nextCursor}`)).json<FeedPage>();
      expect(third.posts.map((p) => p.content)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
      expect(third).toMatchObject({ hasMore: false, nextCursor: null, total: 26 });
    });

    it('sorts by activity by default: a new comment brings an old post to the top, not in the recent order', async () => {
      const { user, headers } = await fan();
      const old = await buildPost(database.db, user.id, {
        content: 'old',
        createdAt: new Date(Date.now() - 60_000),
        lastActivityAt: new Date(Date.now() - 60_000),
      });
      await buildPost(database.db, user.id, { content: 'new' });
      expect((await comment(headers, old.id, [{ name: 'content', value: 'revive' }])).statusCode).toBe(201);
      expect((await feed()).json<FeedPage>().posts.map((p) => p.content)).toEqual(['old', 'new']);
      expect((await feed('?sort=recent')).json<FeedPage>().posts.map((p) => p.content)).toEqual(['new', 'old']);
    });

    it('refuses a malformed cursor or one of the other sort', async () => {
      const { user } = await fan();
      for (let i = 0; i < 11; i++) await buildPost(database.db, user.id);
      const { nextCursor } = (await feed('?sort=recent')).json<FeedPage>();
      for (const cursor of [nextCursor, 'bm90LWEtY3Vyc29y']) {
        const res = await feed(`?sort=activity&cursor=${cursor}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(WALL_MESSAGES.badCursor);
      }
    });

    it("shows others' posts only when public, groups only to who may read them, and filters by user", async () => {
      const a = await fan();
      const b = await fan();
      await buildPost(database.db, a.user.id, { content: 'public' });
      await buildPost(database.db, a.user.id, { content: 'followers', visibility: 'followers' });
      await buildPost(database.db, b.user.id, { content: 'hidden', isHidden: true });
      const [group] = await database.db.insert(schema.groups).values({ name: 'Privado', privacy: 'private' }).returning();
      await database.db.insert(schema.groupMembers).values({ groupId: group!.id, userId: a.user.id });
      await buildPost(database.db, a.user.id, { content: 'in group', groupId: group!.id, visibility: 'group' });

      const contents = async (query: string, headers: Record<string, string> = {}) =>
        (await feed(query, headers))
          .json<FeedPage>()
          .posts.map((p) => p.content)
          .sort();
      expect(await contents('')).toEqual(['public']);
      expect(await contents('', b.headers)).toEqual(['public']);
      // The wall is the public one for everybody; followers-only posts show on their author's list.
      expect(await contents('', a.headers)).toEqual(['public']);
      // A profile's posts tab: the owner's posts in groups too; others only the public ones.
      expect(await contents(`?userId=${a.user.id}`, a.headers)).toEqual(['followers', 'in group', 'public']);
      expect(await contents(`?userId=${a.user.id}`, b.headers)).toEqual(['public']);
      expect(await contents(`?userId=${b.user.id}`, a.headers)).toEqual([]);
      expect(await contents(`?groupId=${group!.id}`, a.headers)).toEqual(['in group']);
      const outsider = await feed(`?groupId=${group!.id}`, b.headers);
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json().message).toBe(WALL_MESSAGES.groupForbidden);
      const admin = await fan({ role: 'admin' });
      expect(await contents(`?groupId=${group!.id}`, admin.headers)).toEqual(['in group']);
    });

    it('answers a page in a constant number of statements whatever it holds', async () => {
      const { user, headers } = await fan();
      const others = await Promise.all(Array.from({ length: 5 }, () => buildUser(database.db)));
      for (let i = 0; i < 12; i++) {
        const post = await buildPost(database.db, others[i % 5]!.id);
        await database.db
          .insert(schema.postReactions)
          .values(others.map((o, j) => ({ postId: post.id, userId: o.id, reactionType: j % 2 ? ('like' as const) : ('wow' as const) })));
        await buildComment(database.db, post.id, user.id);
      }
      const counted = async (query: string) => {
        await feed(query, headers); // warm: the session lookup is cached from here on
        statements = [];
        const res = await feed(query, headers);
        expect(res.statusCode).toBe(200);
        return { page: res.json<FeedPage>(), count: statements.length };
      };
      const full = await counted('');
      expect(full.page.posts).toHaveLength(10);
      expect(full.page.posts[0]!.reactions.like + full.page.posts[0]!.reactions.wow).toBe(5);
      expect(full.page.posts[0]!.commentCount).toBe(1);
      const last = await counted(`?cursor=${full.page.nextCursor}`);
      expect(last.page.posts).toHaveLength(2);
      // The shared page, the reader's own reactions and the total: three statements for 10 cards as
      // for 2 (here nothing is cached; a cached page or total costs fewer).
      expect(full.count).toBe(3);
      expect(last.count).toBe(3);
      const sparse = await counted(`?userId=${user.id}`);
      expect(sparse.page.posts).toHaveLength(0);
      expect(sparse.count).toBe(2);
    });

    it('shares pages and the total of the public wall for a while, and drops them when a post appears, changes or goes', async () => {
      const cached = await buildApp(config, { wall: { totalsTtlMs: 60_000, pageTtlMs: 60_000 } });
      try {
        const { user } = await fan();
        const headers = asUser(await signIn(cached, user));
        const read = async () => (await cached.inject({ method: 'GET', url: '/api/posts', headers })).json<FeedPage>();
        const mine = await buildPost(database.db, user.id, { content: 'uno' });
        expect((await read()).total).toBe(1);
        await buildPost(database.db, user.id, { content: 'a espaldas de la API' });
        expect((await read()).posts.map((p) => p.content)).toEqual(['uno']);
        // The reader's own reaction is read apart: it is right at once even on a shared page.
        await cached.inject({ method: 'POST', url: `/api/posts/${mine.id}/reactions`, headers, payload: { type: 'love' } });
        expect((await read()).posts[0]!.myReaction).toBe('love');

        const body = multipart([{ name: 'content', value: 'nuevo' }]);
        const created = await cached.inject({ method: 'POST', url: '/api/posts', headers: { ...headers, ...body.headers }, payload: body.payload });
        expect((await read()).posts.map((p) => p.content)).toEqual(['nuevo', 'a espaldas de la API', 'uno']);
        expect((await read()).total).toBe(3);
        await cached.inject({ method: 'PATCH', url: `/api/posts/${created.json<PostView>().id}`, headers, payload: { content: 'editado' } });
        expect((await read()).posts[0]!.content).toBe('editado');
        await cached.inject({ method: 'DELETE', url: `/api/posts/${created.json<PostView>().id}`, headers });
        expect(await read()).toMatchObject({ total: 2, posts: [{ content: 'a espaldas de la API' }, { content: 'uno' }] });
      } finally {
        await cached.close();
      }
    });
  });

  describe('editing and deleting posts', () => {
    it('lets the owner edit (trimmed, Editado) and nobody else, admins included', async () => {
      const owner = await fan();
      const other = await fan();
      const admin = await fan({ role: 'admin' });
      const post = await buildPost(database.db, owner.user.id, { content: 'antes' });
      const edit = (headers: Record<string, string>, content: string) =>
        app.inject({ method: 'PATCH', url: `/api/posts/${post.id}`, headers, payload: { content } });

      for (const headers of [other.headers, admin.headers]) {
        const res = await edit(headers, 'hack');
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(WALL_MESSAGES.notAuthorizedEditPost);
      }
      const empty = await edit(owner.headers, '   ');
      expect(empty.json().message).toBe(WALL_MESSAGES.editEmpty);
      expect((await edit(owner.headers, 'x'.repeat(2001))).json().message).toBe(WALL_MESSAGES.postTooLong);
      const ok = await edit(owner.headers, '  después \n ');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<PostView>()).toMatchObject({ content: 'después', editedAt: expect.any(String) });
      const visitor = await app.inject({
        method: 'PATCH',
        url: `/api/posts/${post.id}`,
        headers: { 'x-requested-with': 'tribuna' },
        payload: { content: 'x' },
      });
      expect(visitor.statusCode).toBe(401);
    });

    it('soft-deletes for the owner or an admin; others are refused; a deleted post is gone', async () => {
      const owner = await fan();
      const other = await fan();
      const admin = await fan({ role: 'admin' });
      const mine = await buildPost(database.db, owner.user.id);
      const theirs = await buildPost(database.db, other.user.id);
      const del = (headers: Record<string, string>, id: string) => app.inject({ method: 'DELETE', url: `/api/posts/${id}`, headers });

      const refused = await del(other.headers, mine.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(WALL_MESSAGES.notAuthorizedDeletePost);
      expect((await del(owner.headers, mine.id)).statusCode).toBe(204);
      expect((await del(admin.headers, theirs.id)).statusCode).toBe(204);
      const again = await del(owner.headers, mine.id);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe(WALL_MESSAGES.postNotFound);
      expect((await app.inject({ method: 'GET', url: `/api/posts/${mine.id}` })).statusCode).toBe(404);
      expect((await feed()).json<FeedPage>().total).toBe(0);
      const rows = await database.db.select({ hidden: schema.posts.isHidden }).from(schema.posts);
      expect(rows).toEqual([{ hidden: true }, { hidden: true }]);
    });
  });

  describe('reactions', () => {
    it('one per user: a type sets it, another replaces it, the same again removes it', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      expect((await react(headers, post.id, 'like')).json<ReactionState>()).toMatchObject({ myReaction: 'like', reactions: { like: 1 } });
      expect((await react(headers, post.id, 'haha')).json<ReactionState>()).toMatchObject({ myReaction: 'haha', reactions: { like: 0, haha: 1 } });
      expect((await react(headers, post.id, 'haha')).json<ReactionState>()).toMatchObject({ myReaction: null, reactions: { haha: 0 } });
      const page = (await feed('', headers)).json<FeedPage>();
      expect(page.posts[0]!.myReaction).toBeNull();
    });

    it('concurrent taps resolve as if one after the other', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      await Promise.all([react(headers, post.id, 'love'), react(headers, post.id, 'love')]);
      expect(await database.db.select().from(schema.postReactions)).toHaveLength(0);
      await Promise.all([react(headers, post.id, 'love'), react(headers, post.id, 'love'), react(headers, post.id, 'love')]);
      const rows = await database.db.select().from(schema.postReactions);
      expect(rows.map((r) => r.reactionType)).toEqual(['love']);
      const view = (await app.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers })).json<PostView>();
      expect(view).toMatchObject({ myReaction: 'love', reactions: { love: 1 } });
    });

    it('many fans tapping at once: each answer is one of the serial orders, the counts add up', async () => {
      const { user } = await fan();
      const post = await buildPost(database.db, user.id);
      const fans = await Promise.all(Array.from({ length: 8 }, () => fan()));
      // Each fan taps like, haha, like at once: whatever the order, two likes cancel unless a haha came between.
      const answers = await Promise.all(fans.flatMap((f) => ['like', 'haha', 'like'].map((type) => react(f.headers, post.id, type))));
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      const rows = await database.db.select().from(schema.postReactions).where(eq(schema.postReactions.postId, post.id));
      expect(rows.length).toBeLessThanOrEqual(8);
      const final = new Map(rows.map((r) => [r.userId, r.reactionType]));
      for (const [i, f] of fans.entries()) {
        const mine = answers.slice(3 * i, 3 * i + 3).map((a) => a.json<ReactionState>().myReaction);
        // The last of the three to commit decides the fan's row: some answer matches it.
        expect(mine).toContain(final.get(f.user.id) ?? null);
      }
      const view = (await app.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers: fans[0]!.headers })).json<PostView>();
      expect(view.reactions.like + view.reactions.haha).toBe(rows.length);
      expect(view.reactions.like).toBe(rows.filter((r) => r.reactionType === 'like').length);
    });

    it("a tap reads the item's counters, never a count of its reactions", async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      const c = await buildComment(database.db, post.id, user.id);
      const others = await Promise.all(Array.from({ length: 6 }, () => buildUser(database.db)));
      await database.db.insert(schema.postReactions).values(others.map((o) => ({ postId: post.id, userId: o.id, reactionType: 'wow' as const })));
      await database.db.insert(schema.commentReactions).values(others.map((o) => ({ commentId: c.id, userId: o.id, reactionType: 'sad' as const })));
      await react(headers, post.id, 'like'); // warm: the session lookup is cached from here on
      statements = [];
      expect((await react(headers, post.id, 'love')).json<ReactionState>()).toMatchObject({ myReaction: 'love', reactions: { wow: 6, love: 1, like: 0 } });
      const commentTap = await app.inject({ method: 'POST', url: `/api/comments/${c.id}/reactions`, headers, payload: { type: 'haha' } });
      expect(commentTap.json<ReactionState>()).toMatchObject({ myReaction: 'haha', reactions: { sad: 6, haha: 1 } });
      expect(statements.some((q) => /\bpost_reaction_counts\b/.test(q))).toBe(true);
      expect(statements.some((q) => /\bcomment_reaction_counts\b/.test(q))).toBe(true);
      // Neither a count nor a grouping over the item's reaction rows (post_reaction_counts is another word).
      expect(statements.filter((q) => /\b(post|comment)_reactions\b/.test(q) && /count\(|GROUP BY/i.test(q))).toEqual([]);
      // Nor do the post page, the comment list and a feed page.
      statements = [];
      expect((await app.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers })).json<PostView>().reactions).toMatchObject({ wow: 6, love: 1 });
      expect((await app.inject({ method: 'GET', url: `/api/posts/${post.id}/comments`, headers })).json<CommentList>().comments[0]!.reactions).toMatchObject({
        sad: 6,
        haha: 1,
      });
      expect((await feed('', headers)).json<FeedPage>().posts[0]!.reactions).toMatchObject({ wow: 6, love: 1 });
      expect(statements.filter((q) => /count\(\*\)(::int)?( AS \w+)? FROM (post|comment)_reactions\b/.test(q))).toEqual([]);
    });

    it('refuses visitors, unknown types and hidden posts', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      expect((await react({ 'x-requested-with': 'tribuna' }, post.id, 'like')).statusCode).toBe(401);
      expect((await react(headers, post.id, 'meh')).statusCode).toBe(400);
      await database.db.update(schema.posts).set({ isHidden: true }).where(eq(schema.posts.id, post.id));
      const hidden = await react(headers, post.id, 'like');
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe(WALL_MESSAGES.postNotFound);
    });
  });

  describe('comments', () => {
    it('comments and replies one level deep, listed oldest first with their replies', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      const first = (await comment(headers, post.id, [{ name: 'content', value: ' primero ' }])).json<CreatedComment>();
      expect(first).toMatchObject({ commentCount: 1, comment: { content: 'primero', parentCommentId: null } });
      const reply = await comment(headers, post.id, [
        { name: 'content', value: 'respuesta' },
        { name: 'parentCommentId', value: first.comment.id },
      ]);
      expect(reply.statusCode, reply.body).toBe(201);
      const deep = await comment(headers, post.id, [
        { name: 'content', value: 'nivel 3' },
        { name: 'parentCommentId', value: reply.json<CreatedComment>().comment.id },
      ]);
      expect(deep.statusCode).toBe(400);
      expect(deep.json().message).toBe(WALL_MESSAGES.replyDepth);
      await comment(headers, post.id, [{ name: 'content', value: 'segundo' }]);

      const list = (await app.inject({ method: 'GET', url: `/api/posts/${post.id}/comments` })).json<CommentList>();
      expect(list.commentCount).toBe(3);
      expect(list.comments.map((c) => [c.content, c.replies.map((r) => r.content)])).toEqual([
        ['primero', ['respuesta']],
        ['segundo', []],
      ]);
    });

    it('checks text, image and target with the spec messages', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      const cases: [string, MultipartPart[], number, string][] = [
        [post.id, [{ name: 'content', value: '  ' }], 400, WALL_MESSAGES.commentEmpty],
        [post.id, [{ name: 'content', value: 'x'.repeat(501) }], 400, WALL_MESSAGES.commentTooLong],
        [
          post.id,
          [
            { name: 'content', value: 'x' },
            { name: 'image', filename: 'a.txt', type: 'text/plain', data: Buffer.from('hola mundo, no soy una imagen') },
          ],
          400,
          WALL_MESSAGES.imagesOnly,
        ],
        [
          post.id,
          [
            { name: 'content', value: 'x' },
            { name: 'image', filename: 'big.jpg', type: 'image/jpeg', data: Buffer.alloc(5 * 1024 * 1024 + 10) },
          ],
          413,
          WALL_MESSAGES.commentImageTooLarge,
        ],
        ['00000000-0000-4000-8000-000000000000', [{ name: 'content', value: 'x' }], 404, WALL_MESSAGES.postNotFound],
      ];
      for (const [postId, parts, status, message] of cases) {
        const res = await comment(headers, postId, parts);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json().message).toBe(message);
      }
      const withImage = await comment(headers, post.id, [
        { name: 'content', value: 'foto' },
        { name: 'image', filename: 'a.jpg', type: 'image/jpeg', data: await jpeg() },
      ]);
      expect(withImage.statusCode, withImage.body).toBe(201);
      expect(withImage.json<CreatedComment>().comment.media).toMatchObject({ mediaType: 'image', width: 64, height: 48 });
    });

    it('edits by the owner only; deletes by the owner or an admin, hiding the replies too', async () => {
      const owner = await fan();
      const other = await fan();
      const admin = await fan({ role: 'admin' });
      const post = await buildPost(database.db, owner.user.id);
      const top = await buildComment(database.db, post.id, owner.user.id);
      await buildComment(database.db, post.id, other.user.id, { parentCommentId: top.id });

      const edit = (headers: Record<string, string>) =>
        app.inject({ method: 'PATCH', url: `/api/comments/${top.id}`, headers, payload: { content: ' nuevo ' } });
      const refused = await edit(other.headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(WALL_MESSAGES.notAuthorizedEditComment);
      const edited = await edit(owner.headers);
      expect(edited.json<ReplyView>()).toMatchObject({ content: 'nuevo', editedAt: expect.any(String) });

      const del = (headers: Record<string, string>) => app.inject({ method: 'DELETE', url: `/api/comments/${top.id}`, headers });
      const notYours = await del(other.headers);
      expect(notYours.statusCode).toBe(403);
      expect(notYours.json().message).toBe(WALL_MESSAGES.notAuthorizedDeleteComment);
      const deleted = await del(admin.headers);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ commentCount: 0 });
      const gone = await del(admin.headers);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe(WALL_MESSAGES.commentNotFound);
    });

    it('comment reactions toggle like post reactions', async () => {
      const { user, headers } = await fan();
      const post = await buildPost(database.db, user.id);
      const c = await buildComment(database.db, post.id, user.id);
      const tap = () => app.inject({ method: 'POST', url: `/api/comments/${c.id}/reactions`, headers, payload: { type: 'like' } });
      expect((await tap()).json<ReactionState>()).toMatchObject({ myReaction: 'like', reactions: { like: 1 } });
      const list = (await app.inject({ method: 'GET', url: `/api/posts/${post.id}/comments`, headers })).json<CommentList>();
      expect(list.comments[0]).toMatchObject({ myReaction: 'like', reactions: { like: 1 } });
      expect((await tap()).json<ReactionState>()).toMatchObject({ myReaction: null, reactions: { like: 0 } });
    });
  });
});
