import { describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { FeedPage } from '@tribuna/contracts/api/wall';
import type { NotificationPage } from '@tribuna/contracts/api/notifications';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { multipart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { buildApp, type App } from '../app.ts';
import { testConfig } from '../../../test/support/env.ts';

// A private group's posts, comments, reactions, mentions and notifications reach its members only
// (and site admins), and a removed member loses them at once (sockets: live.test.ts).

describe("a private group's privacy", () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), { build: () => ({ wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } } }) });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }
  type Fan = Awaited<ReturnType<typeof fan>>;

  /** A private group run by `owner` with a member, a non-member, a site admin, and a post of the owner with a comment. */
  async function world() {
    const owner = await fan();
    const created = await app.inject({ method: 'POST', url: '/api/groups', headers: owner.headers, payload: { name: 'Secreto', privacy: 'private' } });
    const groupId = created.json<{ id: string }>().id;
    const [member, outsider, admin] = [await fan(), await fan(), await fan({ role: 'admin' })];
    await database.sql`INSERT INTO group_members (group_id, user_id) VALUES (${groupId}, ${member.user.id})`;
    const post = await buildPost(database.db, owner.user.id, { groupId, visibility: 'group', content: 'Solo para el club' });
    const comment = await buildComment(database.db, post.id, owner.user.id);
    return { owner, member, outsider, admin, groupId, post, comment };
  }

  const get = (who: Fan | null, url: string) => app.inject({ method: 'GET', url, headers: who?.headers ?? { 'x-requested-with': 'XMLHttpRequest' } });

  /** What `who` may read of the post: the post, its comments, the group's wall, and a reaction. */
  async function reads(who: Fan | null, w: Awaited<ReturnType<typeof world>>) {
    const wall = await get(who, `/api/posts?groupId=${w.groupId}`);
    const react = who
      ? (await app.inject({ method: 'POST', url: `/api/comments/${w.comment.id}/reactions`, headers: who.headers, payload: { type: 'like' } })).statusCode
      : null;
    return {
      post: (await get(who, `/api/posts/${w.post.id}`)).statusCode,
      comments: (await get(who, `/api/posts/${w.post.id}/comments`)).statusCode,
      wall: wall.statusCode === 200 ? wall.json<FeedPage>().posts.map((p) => p.id) : wall.statusCode,
      react,
      profileTab: (await get(who, `/api/posts?userId=${w.owner.user.id}`)).json<FeedPage>().posts.map((p) => p.id),
    };
  }

  it('shows its posts, comments and wall to members and site admins only; reactions of others are refused', async () => {
    const w = await world();
    for (const who of [w.member, w.admin]) {
      expect(await reads(who, w)).toMatchObject({ post: 200, comments: 200, wall: [w.post.id], react: 200 });
    }
    expect(await reads(w.outsider, w)).toEqual({ post: 404, comments: 404, wall: 403, react: 404, profileTab: [] });
    expect(await reads(null, w)).toEqual({ post: 404, comments: 404, wall: 403, react: null, profileTab: [] });
    const tap = await app.inject({ method: 'POST', url: `/api/posts/${w.post.id}/reactions`, headers: w.outsider.headers, payload: { type: 'wow' } });
    expect(tap.statusCode).toBe(404);
    const comment = multipart([{ name: 'content', value: 'Me cuelo' }]);
    const commented = await app.inject({
      method: 'POST',
      url: `/api/posts/${w.post.id}/comments`,
      headers: { ...w.outsider.headers, ...comment.headers },
      payload: comment.payload,
    });
    expect(commented.statusCode).toBe(404);
    expect(await database.sql`SELECT 1 FROM post_reactions`).toHaveLength(0);
  });

  it('takes everything away from a removed member at once, and gives it back when they are let in again', async () => {
    const w = await world();
    expect((await reads(w.member, w)).post).toBe(200);
    const removed = await app.inject({ method: 'DELETE', url: `/api/groups/${w.groupId}/members/${w.member.user.id}`, headers: w.owner.headers });
    expect(removed.statusCode).toBe(204);
    expect(await reads(w.member, w)).toMatchObject({ post: 404, comments: 404, wall: 403, react: 404 });
    // What they wrote as a member stays, unseen; let in again, they read it all again.
    await database.sql`INSERT INTO group_members (group_id, user_id) VALUES (${w.groupId}, ${w.member.user.id})`;
    expect((await reads(w.member, w)).post).toBe(200);
  });

  it('notifies mentioned members only, and a member removed no longer sees the notifications of its posts', async () => {
    const w = await world();
    const [memberName, outsiderName] = ['ana_club', 'beto_fuera'];
    await database.sql`UPDATE profiles SET username = ${memberName} WHERE id = ${w.member.user.id}`;
    await database.sql`UPDATE profiles SET username = ${outsiderName} WHERE id = ${w.outsider.user.id}`;
    const body = multipart([
      { name: 'content', value: `Hola @${memberName} y @${outsiderName}` },
      { name: 'groupId', value: w.groupId },
    ]);
    const created = await app.inject({ method: 'POST', url: '/api/posts', headers: { ...w.owner.headers, ...body.headers }, payload: body.payload });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json<{ id: string }>().id;
    const notified = async (who: Fan) => (await get(who, '/api/notifications')).json<NotificationPage>().items.filter((n) => n.postId === postId);
    expect((await notified(w.member)).map((n) => n.type)).toEqual(['post_mention']);
    expect((await get(w.member, '/api/notifications/unread')).json()).toEqual({ unreadCount: 1 });
    expect(await notified(w.outsider)).toEqual([]);
    expect(await database.sql`SELECT 1 FROM notifications WHERE user_id = ${w.outsider.user.id}`).toHaveLength(0);

    // Removed from the group, the member no longer sees the notification of its post, nor counts it.
    await app.inject({ method: 'DELETE', url: `/api/groups/${w.groupId}/members/${w.member.user.id}`, headers: w.owner.headers });
    expect(await notified(w.member)).toEqual([]);
    expect((await get(w.member, '/api/notifications/unread')).json()).toEqual({ unreadCount: 0 });
  });

  it("shares a group's wall pages among its readers, never with anybody else, and drops them when a post appears there", async () => {
    const cached = await buildApp(testConfig(), { wall: { totalsTtlMs: 60_000, pageTtlMs: 60_000, videoSweep: { everyMs: 0 } } });
    try {
      const w = await world();
      const headersOf = async (who: Fan) => asUser(await signIn(cached, who.user));
      const [owner, member, outsider] = [await headersOf(w.owner), await headersOf(w.member), await headersOf(w.outsider)];
      const wall = async (headers: Record<string, string>) => cached.inject({ method: 'GET', url: `/api/posts?groupId=${w.groupId}`, headers });
      expect((await wall(member)).json<FeedPage>().posts.map((p) => p.id)).toEqual([w.post.id]);
      // The page is cached now: an outsider is still refused, the member's own reaction is theirs alone.
      expect((await wall(outsider)).statusCode).toBe(403);
      await cached.inject({ method: 'POST', url: `/api/posts/${w.post.id}/reactions`, headers: member, payload: { type: 'love' } });
      expect((await wall(member)).json<FeedPage>().posts[0]!.myReaction).toBe('love');
      expect((await wall(owner)).json<FeedPage>().posts[0]!.myReaction).toBeNull();
      // A post written behind the API's back is not seen while the page is shared; one published is, at once.
      await buildPost(database.db, w.owner.user.id, { groupId: w.groupId, visibility: 'group', content: 'a espaldas de la API' });
      expect((await wall(member)).json<FeedPage>().posts).toHaveLength(1);
      const body = multipart([
        { name: 'content', value: 'Nuevo en el club' },
        { name: 'groupId', value: w.groupId },
        { name: 'visibility', value: 'group' },
      ]);
      const created = await cached.inject({ method: 'POST', url: '/api/posts', headers: { ...owner, ...body.headers }, payload: body.payload });
      expect(created.statusCode, created.body).toBe(201);
      const page = (await wall(member)).json<FeedPage>();
      expect(page.posts.map((p) => p.content)).toEqual(['Nuevo en el club', 'a espaldas de la API', 'Solo para el club']);
      expect(page.total).toBe(3);
      // A member removed loses the shared page at once (access is asked on every request).
      await cached.inject({ method: 'DELETE', url: `/api/groups/${w.groupId}/members/${w.member.user.id}`, headers: owner });
      expect((await wall(member)).statusCode).toBe(403);
    } finally {
      await cached.close();
    }
  });
});
