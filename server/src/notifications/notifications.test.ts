import { LIVE_CLOSE_CODES } from '@tribuna/contracts/liveTopics';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { NotificationEntry, NotificationPage, NotificationsLiveMessage, UnreadCount } from '@tribuna/contracts/api/notifications';
import type { CreatedComment, PostView } from '@tribuna/contracts/api/wall';
import { notificationText } from '@tribuna/contracts/notificationRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import type { RateLimitRule } from '../http/rateLimits.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { unreadCounts } from './repository.ts';
import { NOTIFICATION_CURSOR_MESSAGE } from './service.ts';

// Two instances on one Redis namespace: the wall is written through `a`, sockets watch `b`.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_notifications` });
const generous: RateLimitRule = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } };
const rateLimits = {
  'wall.post-create': generous,
  'wall.comment-create': generous,
  'wall.react': generous,
  'wall.edit': generous,
  'notifications.read': generous,
  'notifications.mark-read': generous,
};

type Fan = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string>; cookie: string };

const isNotifications = (m: AnyServerMessage): m is NotificationsLiveMessage & AnyServerMessage => m.type === 'notifications';

describe('notifications', () => {
  let a: App;
  let b: App;
  let bUrl: string;
  let database: Database;
  let statements: string[] = [];
  const clients: WsTestClient[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([
      // No sweep of transcoded clips: its statement would count with a page's.
      buildApp(config, { wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } }, rateLimits, onQuery: (query) => void statements.push(query) }),
      buildApp(config, { rateLimits }),
    ]);
    await b.listen({ host: '127.0.0.1', port: 0 });
    bUrl = `ws://127.0.0.1:${(b.server.address() as AddressInfo).port}/ws`;
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([a.close(), b.close()]);
    await database.close();
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}): Promise<Fan> {
    const user = await buildUser(database.db, overrides);
    const session = await signIn(a, user);
    return { ...user, headers: asUser(session), cookie: session.cookie };
  }

  async function post(who: Fan, content: string, parts: MultipartPart[] = []): Promise<string> {
    const body = multipart([{ name: 'content', value: content }, ...parts]);
    const res = await a.inject({ method: 'POST', url: '/api/posts', headers: { ...who.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<PostView>().id;
  }

  async function comment(who: Fan, postId: string, content: string, parentCommentId?: string): Promise<string> {
    const body = multipart([{ name: 'content', value: content }, ...(parentCommentId ? [{ name: 'parentCommentId', value: parentCommentId }] : [])]);
    const res = await a.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedComment>().comment.id;
  }

  async function react(who: Fan, postId: string, type: string) {
    const res = await a.inject({ method: 'POST', url: `/api/posts/${postId}/reactions`, headers: who.headers, payload: { type } });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function reactToComment(who: Fan, commentId: string, type: string) {
    const res = await a.inject({ method: 'POST', url: `/api/comments/${commentId}/reactions`, headers: who.headers, payload: { type } });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function list(who: Fan, cursor?: string): Promise<NotificationPage> {
    const res = await a.inject({ method: 'GET', url: `/api/notifications${cursor ? `?cursor=${cursor}` : ''}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationPage>();
  }

  async function unread(who: Fan): Promise<number> {
    const res = await a.inject({ method: 'GET', url: '/api/notifications/unread', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<UnreadCount>().unreadCount;
  }

  const text = (entry: NotificationEntry) =>
    notificationText({
      type: entry.type,
      actorName: entry.actor.displayName ?? entry.actor.username ?? 'Usuario',
      othersCount: entry.othersCount,
      reactionTypes: entry.reactionTypes,
    });

  const rowCount = async () => Number((await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM notifications`))[0]!.n);

  /** A socket on instance `b` watching `user:{who}`. */
  async function watch(who: Fan): Promise<WsTestClient> {
    const client = await openWs(bUrl, { cookie: who.cookie });
    clients.push(client);
    client.send({ type: 'subscribe', topic: `user:${who.id}` });
    const from = client.messages.length;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong', { from });
    expect(client.ofType('error')).toEqual([]);
    return client;
  }

  describe('reactions', () => {
    it('reads a badge count only on the instance where its owner watches', async () => {
      const watched = await fan({ displayName: 'Mirando' });
      const away = await fan({ displayName: 'Ausente' });
      const ana = await fan({ displayName: 'Ana' });
      const [watchedPost, awayPost] = [await post(watched, 'Estoy viendo'), await post(away, 'No estoy')];
      const socket = await watch(watched); // on instance b
      statements = [];
      await react(ana, awayPost, 'like');
      await react(ana, watchedPost, 'love');
      // The watched author's badge arrives on b; instance a, where the taps ran and nobody
      // watches, read no badge (not even the away author's).
      await socket.waitFor((m) => isNotifications(m) && m.unreadCount === 1);
      expect(statements.filter((s) => /FROM notifications WHERE user_id = r\.id AND read_at IS NULL/.test(s))).toEqual([]);
      // The away author still finds it over HTTP.
      expect(await unread(away)).toBe(1);
    });

    it('notifies the author on the other instance, groups the reactors, follows a changed type and drops a removed one', async () => {
      const author = await fan({ displayName: 'Autora' });
      const ana = await fan({ displayName: 'Ana' });
      const others = await Promise.all([fan(), fan(), fan()]);
      const postId = await post(author, 'Mi publicación sobre la gala');
      const socket = await watch(author);

      await react(ana, postId, 'love');
      // Made on instance a, heard on a socket of instance b.
      expect(await socket.waitFor(isNotifications)).toEqual({ type: 'notifications', topic: `user:${author.id}`, unreadCount: 1, reason: 'new' });
      let page = await list(author);
      expect(page.unreadCount).toBe(1);
      expect(page.items).toEqual([
        {
          id: `r:p:${postId}`,
          type: 'post_reaction',
          actor: { id: ana.id, displayName: 'Ana', username: ana.username, avatarUrl: null },
          othersCount: 0,
          reactionTypes: ['love'],
          postId,
          commentId: null,
          excerpt: 'Mi publicación sobre la gala',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
          read: false,
        },
      ]);
      expect(text(page.items[0]!)).toBe('A Ana le encanta tu publicación');

      // Three more people: one entry, the latest actor first.
      for (const other of others) await react(other, postId, 'love');
      await react(ana, postId, 'love'); // taken back…
      await react(ana, postId, 'love'); // …and given again: Ana is the latest
      page = await list(author);
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ actor: { id: ana.id }, othersCount: 3, reactionTypes: ['love'] });
      expect(text(page.items[0]!)).toBe('A Ana y 3 personas más les encanta tu publicación');
      expect(page.unreadCount).toBe(1);

      // Ana changes to haha: the entry now has two kinds.
      await react(ana, postId, 'haha');
      page = await list(author);
      expect(page.items[0]).toMatchObject({ othersCount: 3, reactionTypes: ['love', 'haha'] });
      expect(text(page.items[0]!)).toBe('Ana y 3 personas más reaccionaron a tu publicación');
      expect(await rowCount()).toBe(4);

      // Everyone takes theirs back: the notifications go, and the badge with them.
      const from = socket.messages.length;
      await react(ana, postId, 'haha');
      for (const other of others) await react(other, postId, 'love');
      expect(await rowCount()).toBe(0);
      expect(await list(author)).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
      await socket.waitFor((m) => isNotifications(m) && m.reason === 'removed' && m.unreadCount === 0, { from });
    });

    it('notifies reactions to a comment, per comment, with the comment as excerpt', async () => {
      const postAuthor = await fan();
      const commenter = await fan({ displayName: 'Carla' });
      const bea = await fan({ displayName: 'Bea' });
      const postId = await post(postAuthor, 'El post');
      const commentId = await comment(commenter, postId, 'Mi comentario');
      await reactToComment(bea, commentId, 'like');
      await reactToComment(postAuthor, commentId, 'like');
      const page = await list(commenter);
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ id: `r:c:${commentId}`, type: 'comment_reaction', postId, commentId, excerpt: 'Mi comentario', othersCount: 1 });
      expect(text(page.items[0]!)).toMatch(/^A .+ y 1 persona más les gusta tu comentario$/);
      // The post's author got the comment's notification, not the reactions to someone else's comment.
      expect((await list(postAuthor)).items.map((e) => e.type)).toEqual(['post_comment']);
    });

    it('never notifies one’s own reactions', async () => {
      const author = await fan();
      const postId = await post(author, 'Mío');
      const commentId = await comment(author, postId, 'También mío');
      await react(author, postId, 'love');
      await reactToComment(author, commentId, 'like');
      expect(await rowCount()).toBe(0);
      expect(await unread(author)).toBe(0);
    });

    it('converges to the final reactions whatever the order of concurrent taps', async () => {
      const author = await fan();
      const fans = await Promise.all(Array.from({ length: 4 }, () => fan()));
      const postId = await post(author, 'Concurrido');
      const types = ['like', 'love', 'haha', 'wow', 'sad'];
      // Each fan taps 5 times at once (different types): the last to be applied stays.
      await Promise.all(fans.flatMap((f) => types.map((t) => react(f, postId, t))));
      // Two fans tap the same type twice at once: none stays.
      await Promise.all([...fans.slice(0, 2).flatMap((f) => [react(f, postId, 'angry'), react(f, postId, 'angry')])]);
      const reactions = await database.db.execute<{ user_id: string; reaction_type: string }>(
        sql`SELECT user_id, reaction_type FROM post_reactions WHERE post_id = ${postId} ORDER BY user_id`,
      );
      const notified = await database.db.execute<{ actor_id: string; reaction_type: string }>(
        sql`SELECT actor_id, reaction_type FROM notifications WHERE post_id = ${postId} ORDER BY actor_id`,
      );
      expect(notified.map((n) => [n.actor_id, n.reaction_type])).toEqual(reactions.map((r) => [r.user_id, r.reaction_type]));
      const entry = (await list(author)).items[0];
      expect(entry?.othersCount ?? -1).toBe(reactions.length - 1);
    });

    it('is written in the tap’s own transaction: when it cannot be written, the tap is not either', async () => {
      const author = await fan();
      const x = await fan();
      const postId = await post(author, 'Todo o nada');
      // Another participant of the batch's transaction fails after the notification's statement.
      const leave = a.events.joinTransactions('wall.reactions', async (tx) => {
        await tx.execute(sql`SELECT 1 / 0`);
      });
      try {
        const refused = await a.inject({ method: 'POST', url: `/api/posts/${postId}/reactions`, headers: x.headers, payload: { type: 'love' } });
        expect(refused.statusCode).toBe(503);
      } finally {
        leave();
      }
      const reactions = await database.db.execute(sql`SELECT 1 FROM post_reactions WHERE post_id = ${postId}`);
      expect(reactions.length).toBe(0);
      expect(await rowCount()).toBe(0);
      await react(x, postId, 'love');
      expect(await rowCount()).toBe(1);
      expect(await unread(author)).toBe(1);
    });
  });

  describe('comments and replies', () => {
    it('tells the post’s author of a comment and the comment’s author of a reply, never the actor', async () => {
      const author = await fan({ displayName: 'Autora' });
      const carla = await fan({ displayName: 'Carla' });
      const dani = await fan({ displayName: 'Dani' });
      const postId = await post(author, 'Texto del post');
      const carlaComment = await comment(carla, postId, 'Comentario de Carla');
      const daniReply = await comment(dani, postId, 'Respuesta de Dani', carlaComment);

      const toAuthor = await list(author);
      expect(toAuthor.items.map((e) => [e.type, e.actor.id, e.commentId, e.excerpt, text(e)])).toEqual([
        ['post_comment', dani.id, daniReply, 'Respuesta de Dani', 'Dani comentó tu publicación'],
        ['post_comment', carla.id, carlaComment, 'Comentario de Carla', 'Carla comentó tu publicación'],
      ]);
      const toCarla = await list(carla);
      expect(toCarla.items.map((e) => [e.type, e.actor.id, e.commentId, text(e)])).toEqual([
        ['comment_reply', dani.id, daniReply, 'Dani respondió a tu comentario'],
      ]);
      expect((await list(dani)).items).toEqual([]);

      // The author replying to Carla: Carla hears of it, the author (the actor) not.
      const authorReply = await comment(author, postId, 'Gracias', carlaComment);
      expect((await list(carla)).items[0]).toMatchObject({ type: 'comment_reply', commentId: authorReply });
      expect((await list(author)).items).toHaveLength(2);
    });

    it('sends only the reply when the comment replied to is the post author’s own', async () => {
      const author = await fan();
      const eva = await fan();
      const postId = await post(author, 'Post');
      const own = await comment(author, postId, 'Yo mismo comento');
      expect(await rowCount()).toBe(0);
      const reply = await comment(eva, postId, 'Te respondo', own);
      expect((await list(author)).items.map((e) => [e.type, e.id])).toEqual([['comment_reply', `y:${reply}`]]);
      expect(await rowCount()).toBe(1);
    });
  });

  describe('mentions', () => {
    it('tells those mentioned in a post or a comment, when written and when edited in, once', async () => {
      const author = await fan({ displayName: 'Autora' });
      const mara = await fan({ username: 'mara_22', displayName: 'Mara' });
      const nico = await fan({ username: 'nico', displayName: 'Nico' });
      const postId = await post(author, 'Hola @Mara_22 y @autora_inexistente, y @mara_22 otra vez');
      expect((await list(mara)).items.map((e) => [e.type, e.postId, e.commentId, e.excerpt, text(e)])).toEqual([
        ['post_mention', postId, null, 'Hola @Mara_22 y @autora_inexistente, y @mara_22 otra vez', 'Autora te mencionó en una publicación'],
      ]);

      // An edit adding @nico tells Nico only; Mara is not told twice.
      const edit = await a.inject({ method: 'PATCH', url: `/api/posts/${postId}`, headers: author.headers, payload: { content: 'Hola @mara_22 y @nico' } });
      expect(edit.statusCode, edit.body).toBe(200);
      expect((await list(nico)).items.map((e) => e.type)).toEqual(['post_mention']);
      expect((await list(mara)).items).toHaveLength(1);

      // In a comment; the post's author is told of the comment, not of a mention too; the actor never.
      const commentId = await comment(mara, postId, '@nico @mara_22 mira, @' + author.username);
      expect((await list(nico)).items.map((e) => [e.type, e.commentId, text(e)])).toEqual([
        ['comment_mention', commentId, 'Mara te mencionó en un comentario'],
        ['post_mention', null, 'Autora te mencionó en una publicación'],
      ]);
      expect((await list(author)).items.map((e) => e.type)).toEqual(['post_comment']);
      expect((await list(mara)).items).toHaveLength(1);

      // A comment edited to mention someone new.
      const olga = await fan({ username: 'olga', displayName: 'Olga' });
      const other = await comment(nico, postId, 'Sin mención');
      expect((await list(olga)).items).toEqual([]);
      const res = await a.inject({ method: 'PATCH', url: `/api/comments/${other}`, headers: nico.headers, payload: { content: 'Ahora sí, @olga' } });
      expect(res.statusCode, res.body).toBe(200);
      expect((await list(olga)).items.map((e) => [e.type, e.commentId, e.excerpt])).toEqual([['comment_mention', other, 'Ahora sí, @olga']]);
    });

    it('does not tell those who cannot see the post, suspended accounts, or the actor', async () => {
      const author = await fan();
      const outsider = await fan({ username: 'fuera' });
      const member = await fan({ username: 'dentro' });
      await fan({ username: 'suspendida', isSuspended: true });
      const [group] = await database.db.insert(schema.groups).values({ name: 'Privado', privacy: 'private' }).returning();
      await database.db.insert(schema.groupMembers).values([
        { groupId: group!.id, userId: author.id },
        { groupId: group!.id, userId: member.id },
      ]);
      await post(author, 'Solo seguidores @fuera @dentro', [{ name: 'visibility', value: 'followers' }]);
      const groupPost = await post(author, 'En el grupo @fuera @dentro @suspendida @' + author.username, [{ name: 'groupId', value: group!.id }]);
      expect((await list(outsider)).items).toEqual([]);
      expect((await list(member)).items.map((e) => [e.type, e.postId])).toEqual([['post_mention', groupPost]]);
      expect(await rowCount()).toBe(1);
    });
  });

  describe('the list', () => {
    it('leaves out hidden posts and comments, and counts them out of the badge', async () => {
      const author = await fan();
      const fanA = await fan();
      const postId = await post(author, 'Se borrará');
      const keep = await post(author, 'Se queda');
      await react(fanA, postId, 'like');
      const commentId = await comment(fanA, keep, 'Se borrará también');
      await react(fanA, keep, 'wow');
      expect(await unread(author)).toBe(3);

      expect((await a.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: author.headers })).statusCode).toBe(204);
      expect((await a.inject({ method: 'DELETE', url: `/api/comments/${commentId}`, headers: fanA.headers })).statusCode).toBe(200);
      const page = await list(author);
      expect(page.items.map((e) => e.id)).toEqual([`r:p:${keep}`]);
      expect(page.unreadCount).toBe(1);
      expect(await unread(author)).toBe(1);
    });

    it('counts unread entries, not rows: one per post however many reacted, none for a read or hidden one', async () => {
      const author = await fan();
      const [viral, quiet, read, hidden] = await Promise.all(
        ['Viral', 'Tranquilo', 'Leído', 'Oculto'].map(async (content) => (await buildPost(database.db, author.id, { content })).id),
      );
      const reactors = await Promise.all(Array.from({ length: 40 }, () => buildUser(database.db)));
      const row = (postId: string, actorId: string, readAt: Date | null = null) => ({
        userId: author.id,
        actorId,
        type: 'post_reaction' as const,
        postId,
        reactionType: 'like' as const,
        dedupeKey: `r:p:${postId}:${actorId}`,
        groupKey: `r:p:${postId}`,
        readAt,
      });
      await database.db
        .insert(schema.notifications)
        .values([
          ...reactors.map((r) => row(viral!, r.id)),
          ...reactors.slice(0, 3).map((r) => row(quiet!, r.id)),
          ...reactors.slice(0, 5).map((r) => row(read!, r.id, new Date('2026-11-01T12:00:00Z'))),
          ...reactors.slice(0, 5).map((r) => row(hidden!, r.id)),
        ]);
      await database.db.execute(sql`UPDATE posts SET is_hidden = true WHERE id = ${hidden!}`);
      expect(await unread(author)).toBe(2);
      expect((await list(author)).unreadCount).toBe(2);
      // Several users' badges in one statement (a tap batch's owners): each their own.
      const other = await fan();
      const theirs = (await buildPost(database.db, other.id, { content: 'Otro' })).id;
      await database.db.insert(schema.notifications).values(reactors.slice(0, 2).map((r) => ({ ...row(theirs, r.id), userId: other.id })));
      const nobody = await fan();
      expect(await unreadCounts(poolRunner(database.sql), [author.id, other.id, nobody.id, author.id])).toEqual(
        new Map([
          [author.id, 2],
          [other.id, 1],
          [nobody.id, 0],
        ]),
      );
    });

    it('pages 20 entries at a time, newest first, with a constant number of statements', async () => {
      const author = await fan();
      const reactor = await fan();
      const posts: string[] = [];
      for (let i = 0; i < 23; i++) posts.push((await buildPost(database.db, author.id, { content: `Post ${i}` })).id);
      // Each tap's badge is read after its commit, while the tap has already answered: wait for
      // the author's badge message, so that read is not counted with the list's statements.
      const socket = await watch(author);
      const reactAnnounced = async (postId: string) => {
        const from = socket.messages.length;
        await react(reactor, postId, 'like');
        await socket.waitFor(isNotifications, { from });
      };
      await reactAnnounced(posts[0]!);
      await list(author); // the session is cached from here on
      statements = [];
      await list(author);
      const single = statements.length;
      // The page and the badge.
      expect(single).toBe(2);
      for (const id of posts.slice(1)) await reactAnnounced(id);
      statements = [];
      const first = await list(author);
      expect(statements.length).toBe(single);
      expect(first.items).toHaveLength(20);
      expect(first.items[0]!.postId).toBe(posts[22]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await list(author, first.nextCursor!);
      expect(second.items.map((e) => e.postId)).toEqual([posts[2], posts[1], posts[0]]);
      expect(second.nextCursor).toBeNull();
      expect(first.unreadCount).toBe(23);

      const bad = await a.inject({ method: 'GET', url: '/api/notifications?cursor=bm9wZQ', headers: author.headers });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(NOTIFICATION_CURSOR_MESSAGE);
    });

    it('cuts the excerpt to 140 characters', async () => {
      const author = await fan();
      const other = await fan();
      const long = 'ñ'.repeat(300);
      const postId = await post(author, long);
      await react(other, postId, 'like');
      expect((await list(author)).items[0]!.excerpt).toBe('ñ'.repeat(140));
    });
  });

  describe('reading', () => {
    it('marks read up to what was shown, and tells the other tabs', async () => {
      const author = await fan();
      const x = await fan();
      const postId = await post(author, 'Post');
      const other = await post(author, 'Otro');
      await react(x, postId, 'like');
      const shown = await list(author);
      await comment(x, other, 'Llega después');
      const socket = await watch(author);

      const res = await a.inject({ method: 'POST', url: '/api/notifications/read', headers: author.headers, payload: { upTo: shown.items[0]!.createdAt } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ unreadCount: 1 });
      expect(await socket.waitFor(isNotifications)).toEqual({ type: 'notifications', topic: `user:${author.id}`, unreadCount: 1, reason: 'read' });
      const page = await list(author);
      expect(page.items.map((e) => [e.type, e.read])).toEqual([
        ['post_comment', false],
        ['post_reaction', true],
      ]);

      const all = await a.inject({ method: 'POST', url: '/api/notifications/read', headers: author.headers, payload: {} });
      expect(all.json()).toEqual({ unreadCount: 0 });
      expect((await list(author)).items.every((e) => e.read)).toBe(true);

      // A new reaction in a read entry makes it unread again.
      const y = await fan();
      await react(y, postId, 'love');
      expect(await unread(author)).toBe(1);
    });

    it('lets a suspended account read its notifications', async () => {
      const author = await fan();
      const x = await fan();
      const postId = await post(author, 'Post');
      await react(x, postId, 'like');
      await database.db.execute(sql`UPDATE profiles SET is_suspended = TRUE WHERE id = ${author.id}`);
      expect((await list(author)).items).toHaveLength(1);
    });
  });

  describe('privacy', () => {
    it('shows each user only their own notifications, over HTTP and the websocket', async () => {
      const author = await fan();
      const snoop = await fan();
      const postId = await post(author, 'Privado para la autora');
      await react(snoop, postId, 'like');
      expect((await list(author)).items).toHaveLength(1);
      expect(await list(snoop)).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
      expect(await unread(snoop)).toBe(0);
      // Marking read marks one's own only.
      await a.inject({ method: 'POST', url: '/api/notifications/read', headers: snoop.headers, payload: {} });
      expect(await unread(author)).toBe(1);

      const visitor = await a.inject({ method: 'GET', url: '/api/notifications', headers: { 'x-requested-with': 'tribuna' } });
      expect(visitor.statusCode).toBe(401);

      const socket = await openWs(bUrl, { cookie: snoop.cookie });
      clients.push(socket);
      socket.send({ type: 'subscribe', topic: `user:${author.id}` });
      expect(await socket.waitFor((m) => m.type === 'error')).toEqual({ type: 'error', code: 'forbidden', topic: `user:${author.id}` });
      const anonymous = await openWs(bUrl);
      clients.push(anonymous);
      anonymous.send({ type: 'subscribe', topic: `user:${author.id}` });
      expect(await anonymous.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'forbidden' });
      // The author's next notification reaches neither.
      await react(await fan(), postId, 'wow');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...socket.ofType('notifications'), ...anonymous.ofType('notifications')]).toEqual([]);
    });

    it('drops the entries of a private group the recipient left', async () => {
      const author = await fan();
      const x = await fan();
      const [group] = await database.db.insert(schema.groups).values({ name: 'Privado', privacy: 'private' }).returning();
      await database.db.insert(schema.groupMembers).values([
        { groupId: group!.id, userId: author.id },
        { groupId: group!.id, userId: x.id },
      ]);
      const postId = await post(x, 'En el grupo', [{ name: 'groupId', value: group!.id }]);
      const commentId = await comment(author, postId, 'Mi comentario en el grupo');
      await reactToComment(x, commentId, 'like');
      expect(await unread(author)).toBe(1);
      await database.db.execute(sql`DELETE FROM group_members WHERE user_id = ${author.id}`);
      // Their own comment's post is in a group they no longer read: nothing of it is shown.
      // (Their own posts stay visible to them; this one is x's.)
      expect((await list(author)).items).toEqual([]);
      expect(await unread(author)).toBe(0);
    });

    it('stops at a deleted account: its sockets on every instance are closed and it collects no new notifications', async () => {
      const author = await fan();
      const reactor = await fan();
      const postId = await post(author, 'Me voy de la app');
      const socket = await watch(author);

      const deleted = await a.inject({ method: 'DELETE', url: '/api/me', headers: author.headers, payload: { confirm: 'ELIMINAR' } });
      expect(deleted.statusCode, deleted.body).toBe(204);
      // Deleted on instance a; the socket on instance b hears the session end and is closed.
      expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.sessionChanged, reason: 'session changed' });

      // Their old post stays, and reacting or commenting on it notifies nobody.
      await react(reactor, postId, 'love');
      await comment(reactor, postId, 'Te vamos a extrañar');
      expect(await rowCount()).toBe(0);
    });
  });
});
