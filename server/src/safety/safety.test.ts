// A fan's own mutes and blocks (issue 29): the routes, the settings' lists, what a block does to
// follows, and the profile as each side of a block reads it. What they hide on the walls, threads,
// live topics, mentions and notifications: readers.test.ts.
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { SafetyPage, SafetyState } from '@tribuna/contracts/api/moderation';
import type { FollowPage, ProfileCommentPage, ProfileGroupList, ProfileStats, PublicProfile } from '@tribuna/contracts/api/profiles';
import type { FeedPage } from '@tribuna/contracts/api/wall';
import type { NotificationPage } from '@tribuna/contracts/api/notifications';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import type { App } from '../app.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;
const rateLimits = {
  'safety.write': WIDE,
  'follows.write': WIDE,
  'profiles.read': WIDE,
  'wall.read': WIDE,
  'notifications.read': WIDE,
};

/** A fixed day: every dated row below is a number of minutes after it. */
const DAY = Date.parse('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(DAY + minutes * 60_000);
const UNKNOWN = '123e4567-e89b-42d3-a456-426614174000';

type Fan = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string> };

describe('mute and block', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits, wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } } }),
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}): Promise<Fan> {
    const user = await buildUser(database.db, overrides);
    return { ...user, headers: asUser(await signIn(app, user)) };
  }
  const get = (url: string, who?: Fan) => app.inject({ method: 'GET', url, headers: who?.headers ?? { 'x-requested-with': 'tribuna' } });
  const act = (method: 'PUT' | 'DELETE', what: 'mute' | 'block', who: Fan, target: string) =>
    app.inject({ method, url: `/api/profiles/${target}/${what}`, headers: who.headers });
  async function done(method: 'PUT' | 'DELETE', what: 'mute' | 'block', who: Fan, target: { id: string }): Promise<SafetyState> {
    const res = await act(method, what, who, target.id);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SafetyState>();
  }
  const follow = async (who: Fan, target: { id: string }) => app.inject({ method: 'PUT', url: `/api/profiles/${target.id}/follow`, headers: who.headers });
  async function profile(id: string, who?: Fan): Promise<PublicProfile> {
    const res = await get(`/api/profiles/${id}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PublicProfile>();
  }
  const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

  describe('the routes', () => {
    it('mute and unmute idempotently, answer the viewer’s state, and show it on the profile to the viewer only', async () => {
      const ana = await fan();
      const luis = await fan();
      const eva = await fan();
      expect(await done('PUT', 'mute', ana, luis)).toEqual({ muted: true, blocked: false });
      expect(await done('PUT', 'mute', ana, luis)).toEqual({ muted: true, blocked: false });
      expect(await database.sql`SELECT user_id, muted_id FROM user_mutes`).toEqual([{ user_id: ana.id, muted_id: luis.id }]);
      expect(await profile(luis.id, ana)).toMatchObject({ viewerMuted: true, viewerBlocked: false });
      expect(await profile(luis.id, eva)).toMatchObject({ viewerMuted: false, viewerBlocked: false });
      expect(await profile(luis.id)).toMatchObject({ viewerMuted: false, viewerBlocked: false });
      // Muting is one way: Luis sees Ana as before.
      expect(await profile(ana.id, luis)).toMatchObject({ viewerMuted: false, viewerBlocked: false });

      expect(await done('PUT', 'block', ana, luis)).toEqual({ muted: true, blocked: true });
      expect(await profile(luis.id, ana)).toMatchObject({ viewerMuted: true, viewerBlocked: true });
      expect(await done('DELETE', 'mute', ana, luis)).toEqual({ muted: false, blocked: true });
      expect(await done('DELETE', 'mute', ana, luis)).toEqual({ muted: false, blocked: true });
      expect(await done('DELETE', 'block', ana, luis)).toEqual({ muted: false, blocked: false });
      expect(await done('DELETE', 'block', ana, luis)).toEqual({ muted: false, blocked: false });
      expect(await profile(luis.id, ana)).toMatchObject({ viewerMuted: false, viewerBlocked: false });
      expect(await database.sql`SELECT 1 FROM user_mutes UNION ALL SELECT 1 FROM user_blocks`).toHaveLength(0);
    });

    it('refuse oneself (400), an unknown or deleted account (404) and visitors (401), writing nothing', async () => {
      const ana = await fan();
      const gone = await buildUser(database.db, { deletedAt: at(0), isSuspended: true });
      for (const what of ['mute', 'block'] as const) {
        const self = MODERATION_MESSAGES[what === 'mute' ? 'muteSelf' : 'blockSelf'];
        for (const method of ['PUT', 'DELETE'] as const) {
          const res = await act(method, what, ana, ana.id);
          expect([res.statusCode, message(res)]).toEqual([400, self]);
          const unknown = await act(method, what, ana, UNKNOWN);
          expect([unknown.statusCode, message(unknown)]).toEqual([404, MODERATION_MESSAGES.userNotFound]);
          const deleted = await act(method, what, ana, gone.id);
          expect([deleted.statusCode, message(deleted)]).toEqual([404, MODERATION_MESSAGES.userNotFound]);
          const visitor = await app.inject({ method, url: `/api/profiles/${gone.id}/${what}`, headers: { 'x-requested-with': 'tribuna' } });
          expect(visitor.statusCode).toBe(401);
        }
      }
      expect(await database.sql`SELECT 1 FROM user_mutes UNION ALL SELECT 1 FROM user_blocks`).toHaveLength(0);
    });

    it('let a suspended fan still mute and block', async () => {
      const suspended = await fan({ isSuspended: true });
      const troll = await fan();
      expect(await done('PUT', 'mute', suspended, troll)).toEqual({ muted: true, blocked: false });
      expect(await done('PUT', 'block', suspended, troll)).toEqual({ muted: true, blocked: true });
    });
  });

  describe('the settings’ lists', () => {
    it('page 30 at a time, newest first, the viewer’s own only, and refuse a bad cursor', async () => {
      const me = await fan();
      const other = await fan();
      const people = await Promise.all(Array.from({ length: 35 }, (_, i) => buildUser(database.db, { displayName: `Fan ${i}` })));
      // Person i muted at minute i (two at minute 33, ordered by id); the first five blocked too.
      await database.db.insert(schema.userMutes).values(people.map((p, i) => ({ userId: me.id, mutedId: p.id, createdAt: at(i < 34 ? i : 33) })));
      await database.db.insert(schema.userBlocks).values(people.slice(0, 5).map((p, i) => ({ blockerId: me.id, blockedId: p.id, createdAt: at(i) })));
      await database.db.insert(schema.userMutes).values({ userId: other.id, mutedId: me.id });
      const expected = people
        .map((p, i) => ({ id: p.id, minute: i < 34 ? i : 33 }))
        .sort((a, b) => b.minute - a.minute || (a.id < b.id ? 1 : -1))
        .map((p) => p.id);

      const first = await get('/api/me/muted', me);
      expect(first.statusCode, first.body).toBe(200);
      const page1 = first.json<SafetyPage>();
      expect(page1.items).toHaveLength(30);
      expect(page1.nextCursor).not.toBeNull();
      const page2 = (await get(`/api/me/muted?cursor=${page1.nextCursor}`, me)).json<SafetyPage>();
      expect(page2.nextCursor).toBeNull();
      expect([...page1.items, ...page2.items].map((e) => e.user.id)).toEqual(expected);
      const newest = people.find((p) => p.id === expected[0])!;
      expect(page1.items[0]).toEqual({
        user: { id: newest.id, displayName: newest.displayName, username: newest.username, avatarUrl: null },
        since: '2026-03-01T12:33:00.000Z',
      });

      const blocked = (await get('/api/me/blocked', me)).json<SafetyPage>();
      expect(blocked).toEqual({
        items: [4, 3, 2, 1, 0].map((i) => ({ user: expect.objectContaining({ id: people[i]!.id }), since: at(i).toISOString() })),
        nextCursor: null,
      });
      expect((await get('/api/me/blocked', other)).json()).toEqual({ items: [], nextCursor: null });
      expect((await get('/api/me/muted', other)).json<SafetyPage>().items.map((e) => e.user.id)).toEqual([me.id]);
      expect((await get('/api/me/muted?cursor=bm9wZQ', me)).statusCode).toBe(400);
      expect((await get('/api/me/muted')).statusCode).toBe(401);
    });
  });

  describe('a block and follows', () => {
    it('ends the follows both ways with their notifications and counters, refuses new ones either way, and unblocking brings none back', async () => {
      const ana = await fan();
      const luis = await fan();
      const eva = await fan();
      for (const [who, whom] of [
        [ana, luis],
        [luis, ana],
        [eva, luis],
      ] as const) {
        expect((await follow(who, whom)).statusCode).toBe(200);
      }
      expect(await database.sql`SELECT 1 FROM notifications WHERE type = 'follow'`).toHaveLength(3);

      expect(await done('PUT', 'block', ana, luis)).toEqual({ muted: false, blocked: true });
      const follows = await database.sql`SELECT follower_id, followee_id FROM follows`;
      expect(follows).toEqual([{ follower_id: eva.id, followee_id: luis.id }]);
      // 'X empezó a seguirte' goes with each follow that ended; Eva's stays.
      const notes = await database.sql`SELECT user_id, actor_id FROM notifications WHERE type = 'follow'`;
      expect(notes).toEqual([{ user_id: luis.id, actor_id: eva.id }]);
      expect(await profile(ana.id)).toMatchObject({ followersCount: 0, followingCount: 0 });
      expect(await profile(luis.id)).toMatchObject({ followersCount: 1, followingCount: 0 });

      // Neither may follow the other while the block stands.
      for (const [who, whom] of [
        [ana, luis],
        [luis, ana],
      ] as const) {
        const refused = await follow(who, whom);
        expect([refused.statusCode, message(refused)]).toEqual([403, MODERATION_MESSAGES.blockedUser]);
      }
      // Blocking again: nothing changes.
      expect(await done('PUT', 'block', ana, luis)).toEqual({ muted: false, blocked: true });

      expect(await done('DELETE', 'block', ana, luis)).toEqual({ muted: false, blocked: false });
      expect(await database.sql`SELECT 1 FROM follows WHERE follower_id IN (${ana.id}, ${luis.id}) AND followee_id IN (${ana.id}, ${luis.id})`).toHaveLength(0);
      expect(await profile(ana.id)).toMatchObject({ followersCount: 0, followingCount: 0 });
      // After the unblock they may follow again.
      expect((await follow(luis, ana)).statusCode).toBe(200);
    });

    it("the blocked one's block of the blocker is a second block: both stand until each is undone", async () => {
      const ana = await fan();
      const luis = await fan();
      await done('PUT', 'block', ana, luis);
      expect(await done('PUT', 'block', luis, ana)).toEqual({ muted: false, blocked: true });
      await done('DELETE', 'block', ana, luis);
      const refused = await follow(ana, luis);
      expect([refused.statusCode, message(refused)]).toEqual([403, MODERATION_MESSAGES.blockedUser]);
      await done('DELETE', 'block', luis, ana);
      expect((await follow(ana, luis)).statusCode).toBe(200);
    });

    it('deleting an account ends its mutes and blocks both ways', async () => {
      const ana = await fan();
      const luis = await fan();
      await done('PUT', 'mute', ana, luis);
      await done('PUT', 'block', luis, ana);
      const res = await app.inject({ method: 'DELETE', url: '/api/me', headers: luis.headers, payload: { confirm: 'ELIMINAR' } });
      expect(res.statusCode, res.body).toBe(204);
      expect(await database.sql`SELECT 1 FROM user_mutes UNION ALL SELECT 1 FROM user_blocks`).toHaveLength(0);
      expect((await get('/api/me/muted', ana)).json()).toEqual({ items: [], nextCursor: null });
    });
  });

  describe('the profile and its tabs', () => {
    it('are not found for the blocked one; the blocker sees the header (to unblock) and empty tabs; a mute hides nothing there', async () => {
      const ana = await fan();
      const luis = await fan();
      const eva = await fan();
      const [group] = await database.db.insert(schema.groups).values({ name: 'Club', privacy: 'public' }).returning();
      await database.db.insert(schema.groupMembers).values([
        { groupId: group!.id, userId: ana.id },
        { groupId: group!.id, userId: luis.id },
      ]);
      const evaPost = await buildPost(database.db, eva.id, { content: 'De Eva' });
      const anaPost = await buildPost(database.db, ana.id, { content: 'De Ana' });
      const luisPost = await buildPost(database.db, luis.id, { content: 'De Luis' });
      await buildComment(database.db, evaPost.id, ana.id, { content: 'Ana comenta' });
      await buildComment(database.db, evaPost.id, luis.id, { content: 'Luis comenta' });
      expect((await follow(eva, ana)).statusCode).toBe(200);

      const tabs = (owner: Fan, who: Fan) =>
        Promise.all(['', '/stats', '/comments', '/groups', '/followers', '/following'].map((tab) => get(`/api/profiles/${owner.id}${tab}`, who)));
      const posts = async (owner: Fan, who: Fan) => (await get(`/api/posts?userId=${owner.id}`, who)).json<FeedPage>().posts.map((p) => p.id);

      // A mute hides nothing on the muted one's profile: the muter went there on purpose.
      await done('PUT', 'mute', luis, ana);
      expect((await tabs(ana, luis)).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await posts(ana, luis)).toEqual([anaPost.id]);
      expect((await get(`/api/profiles/${ana.id}/comments`, luis)).json<ProfileCommentPage>().items).toHaveLength(1);

      await done('PUT', 'block', ana, luis);
      // Luis, blocked by Ana: her profile and every tab are not found; her posts tab is empty.
      for (const res of await tabs(ana, luis)) expect([res.statusCode, message(res)]).toEqual([404, MODERATION_MESSAGES.userNotFound]);
      expect(await posts(ana, luis)).toEqual([]);
      // Ana, who blocked Luis: his header (with 'Desbloquear'), his tabs empty.
      const [header, stats, comments, groups, followers, following] = await tabs(luis, ana);
      expect(header!.json<PublicProfile>()).toMatchObject({ id: luis.id, viewerBlocked: true, viewerMuted: false });
      expect(stats!.json<ProfileStats>()).toMatchObject({ posts: 0, comments: 0 });
      expect(comments!.json<ProfileCommentPage>()).toEqual({ items: [], nextCursor: null });
      expect(groups!.json<ProfileGroupList>()).toEqual({ items: [] });
      expect(followers!.json<FollowPage>()).toEqual({ items: [], nextCursor: null });
      expect(following!.json<FollowPage>()).toEqual({ items: [], nextCursor: null });
      expect(await posts(luis, ana)).toEqual([]);
      // Everybody else reads both as before.
      expect((await tabs(ana, eva)).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await posts(luis, eva)).toEqual([luisPost.id]);
      expect((await get(`/api/profiles/${ana.id}/followers`, eva)).json<FollowPage>().items).toHaveLength(1);

      await done('DELETE', 'block', ana, luis);
      expect((await tabs(ana, luis)).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await posts(ana, luis)).toEqual([anaPost.id]);
      expect((await get(`/api/profiles/${luis.id}/comments`, ana)).json<ProfileCommentPage>().items).toHaveLength(1);
    });
  });

  it('leaves the notifications of a blocked person out of the list and the badge', async () => {
    const ana = await fan();
    const luis = await fan();
    expect((await follow(luis, ana)).statusCode).toBe(200);
    expect((await get('/api/notifications', ana)).json<NotificationPage>().unreadCount).toBe(1);
    // Muting Luis hides his follow notification from Ana, and unmuting shows it again.
    await done('PUT', 'mute', ana, luis);
    expect((await get('/api/notifications', ana)).json<NotificationPage>()).toMatchObject({ items: [], unreadCount: 0 });
    await done('DELETE', 'mute', ana, luis);
    expect((await get('/api/notifications', ana)).json<NotificationPage>()).toMatchObject({ unreadCount: 1 });
  });
});
