// The moderation queue's actions (issue 29): each in one transaction with its record, its audit
// entry, the closing of the item's open reports and the reporters' notifications; hide and restore,
// delete, dismiss, suspend (admins only); what moderators may and may not do; the queue's filters
// and pages; live: walls drop a hidden post, the staff's count and the reporters' badges change.
import { describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { ModerationItem } from '@tribuna/contracts/api/moderation';
import type { NotificationPage, NotificationsLiveMessage } from '@tribuna/contracts/api/notifications';
import type { CommentList, FeedPage, PostView } from '@tribuna/contracts/api/wall';
import { MODERATION_LIMITS, MODERATION_MESSAGES, MODERATION_QUEUE_TEXTS } from '@tribuna/contracts/moderationRules';
import { notificationText } from '@tribuna/contracts/notificationRules';
import { schema } from '@tribuna/drizzle';
import { buildComment, buildPost } from '../../../test/support/factories.ts';
import { changedTables, tableDigests } from '../../../test/support/server/fuzz/fingerprint.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { MODERATION_TEST_LIMITS, act, acted, openCount, person, queue, reported, type Person } from '../../../test/support/server/moderation.ts';
import { openWs, type AnyServerMessage, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import type { App } from '../app.ts';

type AuditRow = { admin_id: string; action: string; entity_type: string; entity_id: string; before: unknown; after: unknown };

describe('moderation actions', () => {
  let app: App;
  let database: Database;
  let wsUrl: string;
  useListeningTestApp(
    { DEV_LOGIN: '1' },
    (ready) => {
      ({ app, database } = ready);
      wsUrl = `${ready.baseUrl.replace('http', 'ws')}/ws`;
    },
    { build: () => ({ rateLimits: MODERATION_TEST_LIMITS, wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } } }) },
  );

  const fan = (options: Parameters<typeof person>[2] = {}) => person(app, database.db, options);
  const get = (url: string, who?: Person) => app.inject({ method: 'GET', url, headers: who?.headers ?? { 'x-requested-with': 'tribuna' } });
  const audit = () =>
    database.sql<AuditRow[]>`SELECT admin_id, action, entity_type, entity_id, before, after FROM admin_audit_log ORDER BY id`.then((rows) => [...rows]);
  const reportsOf = (targetId: string) =>
    database.sql<{ reporter_id: string; status: string; resolved_by: string | null; resolved: boolean; action_id: string | null }[]>`
      SELECT reporter_id, status, resolved_by, resolved_at IS NOT NULL AS resolved, action_id FROM reports WHERE target_id = ${targetId} ORDER BY created_at`.then(
      (rows) => [...rows],
    );

  async function notifications(who: Person): Promise<NotificationPage> {
    const res = await get('/api/notifications', who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationPage>();
  }

  /** Subscribes as `who` and resolves once this instance counts a viewer of the topic. */
  async function watch(topic: string, who?: Person): Promise<WsTestClient> {
    const client = await openWs(wsUrl, who ? { cookie: who.cookie } : {});
    client.send({ type: 'subscribe', topic });
    while (!app.live.hub.hasViewers(topic)) await new Promise((resolve) => setTimeout(resolve, 5));
    return client;
  }

  /** An author's public post with a comment, reported by two fans. */
  async function reportedPost() {
    const author = await fan();
    const post = await buildPost(database.db, author.id);
    const comment = await buildComment(database.db, post.id, author.id);
    const reporters = [await fan(), await fan()];
    for (const [i, who] of reporters.entries()) await reported(app, who, { targetType: 'post', targetId: post.id, reason: i === 0 ? 'spam' : 'harassment' });
    return { author, post, comment, reporters };
  }

  describe('hide and restore', () => {
    it('hides a post for everybody but its author (marked, on its page and profile tab), closes its reports, tells the reporters, and restores it', async () => {
      const { author, post, reporters } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      const reader = await fan();

      const result = await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'hide', reason: '  Spam de enlaces  ' });
      expect(result.closedReports).toBe(2);
      expect(result.message).toBe(MODERATION_MESSAGES.actionDone);
      expect(result.item).toMatchObject({ targetId: post.id, state: 'hidden', autoHidden: false, reportCount: 2, actions: ['restore', 'delete', 'silence'] });
      expect(result.item!.author.history).toEqual([{ action: 'hide', targetType: 'post', at: expect.any(String), reason: 'Spam de enlaces' }]);

      expect(await database.sql`SELECT is_hidden, moderation_hidden_at IS NOT NULL AS by_moderation FROM posts WHERE id = ${post.id}`).toEqual([
        { is_hidden: true, by_moderation: true },
      ]);
      const [action] = await database.sql<{ id: string }[]>`SELECT id FROM moderation_actions WHERE action = 'hide'`;
      expect(await reportsOf(post.id)).toEqual(
        reporters.map((r) => ({ reporter_id: r.id, status: 'actioned', resolved_by: moderator.id, resolved: true, action_id: action!.id })),
      );
      expect(await audit()).toEqual([
        {
          admin_id: moderator.id,
          action: 'moderation.hide',
          entity_type: 'post',
          entity_id: post.id,
          before: { state: 'visible' },
          after: { state: 'hidden', reason: 'Spam de enlaces' },
        },
      ]);

      // Readers (admins included) no longer see it anywhere; its author does, marked.
      const admin = await fan({ role: 'admin' });
      for (const who of [reader, admin, undefined]) {
        expect((await get(`/api/posts/${post.id}`, who)).statusCode).toBe(404);
        expect((await get('/api/posts', who)).json<FeedPage>().posts.map((p) => p.id)).not.toContain(post.id);
        expect((await get(`/api/posts?userId=${author.id}`, who)).json<FeedPage>().posts.map((p) => p.id)).not.toContain(post.id);
      }
      const own = await get(`/api/posts/${post.id}`, author);
      expect(own.json<PostView>()).toMatchObject({ id: post.id, hiddenByModeration: true });
      const tab = (await get(`/api/posts?userId=${author.id}`, author)).json<FeedPage>();
      expect(tab.posts.map((p) => [p.id, p.hiddenByModeration])).toEqual([[post.id, true]]);
      expect((await get(`/api/posts/${post.id}/comments`, author)).statusCode).toBe(200);
      expect((await get(`/api/posts/${post.id}/comments`, reader)).statusCode).toBe(404);
      // Its author's walls never show it.
      expect((await get('/api/posts', author)).json<FeedPage>().posts.map((p) => p.id)).not.toContain(post.id);

      // The reporters hear the outcome, the moderator is never named.
      for (const who of reporters) {
        const page = await notifications(who);
        expect(page.unreadCount).toBe(1);
        expect(page.items).toHaveLength(1);
        const [entry] = page.items;
        expect(entry).toMatchObject({ type: 'report_actioned', postId: null, commentId: null, read: false });
        expect(entry!.actor).toEqual({ id: '00000000-0000-0000-0000-000000000000', displayName: null, username: null, avatarUrl: null });
        expect(notificationText({ type: entry!.type, actorName: 'x', othersCount: 0, reactionTypes: [] })).toBe(MODERATION_MESSAGES.outcomeActioned);
      }

      // Restore: shown again as before; its closed reports stay closed, nobody is told again.
      const restored = await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'restore' });
      expect(restored.closedReports).toBe(0);
      expect(restored.item).toMatchObject({ state: 'visible', actions: ['hide', 'delete', 'silence'] });
      expect(await database.sql`SELECT is_hidden, moderation_hidden_at FROM posts WHERE id = ${post.id}`).toEqual([
        { is_hidden: false, moderation_hidden_at: null },
      ]);
      expect((await get(`/api/posts/${post.id}`, reader)).json<PostView>()).not.toHaveProperty('hiddenByModeration');
      expect((await get('/api/posts', reader)).json<FeedPage>().posts.map((p) => p.id)).toContain(post.id);
      expect((await audit()).map((a) => [a.action, a.before, a.after])).toEqual([
        ['moderation.hide', { state: 'visible' }, { state: 'hidden', reason: 'Spam de enlaces' }],
        ['moderation.restore', { state: 'hidden' }, { state: 'visible', reason: null }],
      ]);
      expect((await notifications(reporters[0]!)).items).toHaveLength(1);
    });

    it('hides a comment: gone from its thread for everybody but its author, who reads it marked, with its replies', async () => {
      const author = await fan();
      const post = await buildPost(database.db, (await fan()).id);
      const comment = await buildComment(database.db, post.id, author.id);
      const reply = await buildComment(database.db, post.id, (await fan()).id, { parentCommentId: comment.id });
      const other = await buildComment(database.db, post.id, (await fan()).id);
      const reader = await fan();
      const admin = await fan({ role: 'admin' });
      await reported(app, reader, { targetType: 'comment', targetId: comment.id, reason: 'harassment' });
      await acted(app, admin, { targetType: 'comment', targetId: comment.id, action: 'hide' });

      const thread = async (who: Person) => (await get(`/api/posts/${post.id}/comments`, who)).json<CommentList>().comments;
      expect((await thread(reader)).map((c) => c.id)).toEqual([other.id]);
      expect((await thread(admin)).map((c) => c.id)).toEqual([other.id]);
      const own = await thread(author);
      expect(own.map((c) => [c.id, c.hiddenByModeration ?? false, c.replies.map((r) => r.id)])).toEqual([
        [comment.id, true, [reply.id]],
        [other.id, false, []],
      ]);

      await acted(app, admin, { targetType: 'comment', targetId: comment.id, action: 'restore' });
      expect((await thread(reader)).map((c) => [c.id, c.replies.map((r) => r.id)])).toEqual([
        [comment.id, [reply.id]],
        [other.id, []],
      ]);
    });

    it('drops a hidden post from every open wall live, and changes the staff count', async () => {
      const { post } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      const reader = await fan();
      const wallViewer = await watch(`post:${post.id}`, reader);
      const staff = await watch('moderation', moderator);
      await staff.waitFor((m) => m.type === 'moderation-count' && m.open === 1);

      await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'hide' });
      expect(await wallViewer.waitFor((m) => m.type === 'post-deleted')).toEqual({ type: 'post-deleted', topic: `post:${post.id}`, postId: post.id });
      await staff.waitFor((m) => m.type === 'moderation-count' && m.open === 0);
      expect(await openCount(app, moderator)).toBe(0);
      await Promise.all([wallViewer.close(), staff.close()]);
    });

    it("tells a comment's thread live when a moderator hides it", async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const comment = await buildComment(database.db, post.id, author.id);
      await buildComment(database.db, post.id, author.id);
      const reader = await fan();
      const moderator = await fan({ role: 'moderator' });
      await reported(app, reader, { targetType: 'comment', targetId: comment.id });
      const viewer = await watch(`post:${post.id}`, reader);
      await acted(app, moderator, { targetType: 'comment', targetId: comment.id, action: 'hide' });
      expect(await viewer.waitFor((m) => m.type === 'comment-deleted')).toEqual({
        type: 'comment-deleted',
        topic: `post:${post.id}`,
        postId: post.id,
        commentId: comment.id,
        commentCount: 1,
      });
      await viewer.close();
    });

    it("rings the reporters' badges live", async () => {
      const { post, reporters } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      const badge = await watch(`user:${reporters[0]!.id}`, reporters[0]);
      await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'dismiss' });
      const message = await badge.waitFor((m: AnyServerMessage) => m.type === 'notifications');
      expect(message).toEqual({ type: 'notifications', topic: `user:${reporters[0]!.id}`, unreadCount: 1, reason: 'new' } satisfies NotificationsLiveMessage);
      await badge.close();
    });
  });

  describe('delete and dismiss', () => {
    it('deletes a post as its author would (no longer even theirs to see), whether visible or hidden', async () => {
      const { author, post, reporters } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      const viewer = await watch(`post:${post.id}`, reporters[0]);
      const result = await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'delete', reason: 'Amenazas' });
      expect(result.item).toMatchObject({ state: 'deleted', post: null, actions: ['silence'] });
      expect(await database.sql`SELECT is_hidden, moderation_hidden_at FROM posts WHERE id = ${post.id}`).toEqual([
        { is_hidden: true, moderation_hidden_at: null },
      ]);
      await viewer.waitFor((m) => m.type === 'post-deleted');
      await viewer.close();
      expect((await get(`/api/posts/${post.id}`, author)).statusCode).toBe(404);
      expect((await reportsOf(post.id)).map((r) => r.status)).toEqual(['actioned', 'actioned']);

      // A hidden comment deleted: its author no longer reads it either.
      const comment = await buildComment(database.db, (await buildPost(database.db, author.id)).id, author.id);
      await reported(app, reporters[0]!, { targetType: 'comment', targetId: comment.id });
      await acted(app, moderator, { targetType: 'comment', targetId: comment.id, action: 'hide' });
      await acted(app, moderator, { targetType: 'comment', targetId: comment.id, action: 'delete' });
      expect(await database.sql`SELECT is_hidden, moderation_hidden_at FROM comments WHERE id = ${comment.id}`).toEqual([
        { is_hidden: true, moderation_hidden_at: null },
      ]);
      const again = await act(app, moderator, { targetType: 'comment', targetId: comment.id, action: 'delete' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(MODERATION_MESSAGES.actionNotAllowed);
    });

    it("dismisses: the item stays, its reports close as dismissed, the reporters read 'no infringe las normas'; once more is 409", async () => {
      const { post, reporters } = await reportedPost();
      const admin = await fan({ role: 'admin' });
      const result = await acted(app, admin, { targetType: 'post', targetId: post.id, action: 'dismiss', reason: 'Es una opinión' });
      expect(result).toMatchObject({ closedReports: 2, item: { state: 'visible', reportCount: 2, actions: ['hide', 'delete', 'silence', 'suspend'] } });
      expect((await reportsOf(post.id)).map((r) => r.status)).toEqual(['dismissed', 'dismissed']);
      expect(await database.sql`SELECT is_hidden FROM posts WHERE id = ${post.id}`).toEqual([{ is_hidden: false }]);
      expect((await audit()).map((a) => [a.action, a.before, a.after])).toEqual([
        ['moderation.dismiss', { openReports: 2 }, { openReports: 0, reason: 'Es una opinión' }],
      ]);
      const [entry] = (await notifications(reporters[1]!)).items;
      expect(entry!.type).toBe('report_dismissed');
      expect(notificationText({ type: entry!.type, actorName: 'x', othersCount: 0, reactionTypes: [] })).toBe(MODERATION_MESSAGES.outcomeDismissed);

      // Nothing open any more.
      const again = await act(app, admin, { targetType: 'post', targetId: post.id, action: 'dismiss' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(MODERATION_MESSAGES.nothingToModerate);
      // The queue lists it among the dismissed, not the open.
      expect((await queue(app, admin)).items).toEqual([]);
      expect((await queue(app, admin, { status: 'dismissed' })).items.map((i) => i.targetId)).toEqual([post.id]);
    });

    it('tells the outcome to a reporter who muted or blocked the moderator (never shown to them anyway)', async () => {
      const { post, reporters } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      await database.db.insert(schema.userMutes).values({ userId: reporters[0]!.id, mutedId: moderator.id });
      await database.db.insert(schema.userBlocks).values({ blockerId: reporters[1]!.id, blockedId: moderator.id });
      await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'delete' });
      for (const who of reporters) {
        const page = await notifications(who);
        expect([page.unreadCount, page.items.map((i) => i.type)]).toEqual([1, ['report_actioned']]);
      }
    });

    it('never notifies the moderator of their own report', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const moderator = await fan({ role: 'moderator' });
      await reported(app, moderator, { targetType: 'post', targetId: post.id });
      expect(await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'hide' })).toMatchObject({ closedReports: 1 });
      expect((await notifications(moderator)).items).toEqual([]);
    });
  });

  describe('suspension and staff', () => {
    it("suspends the author (admins only): their sessions end, the audit says who and why; a moderator's try is 403 and writes nothing", async () => {
      const { author, post, reporters } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      const before = await tableDigests(database);
      const refused = await act(app, moderator, { targetType: 'post', targetId: post.id, action: 'suspend' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(MODERATION_MESSAGES.suspendAdminsOnly);
      expect(changedTables(before, await tableDigests(database))).toEqual([]);
      // Nor is it among a moderator's actions.
      expect((await queue(app, moderator)).items[0]!.actions).not.toContain('suspend');

      const admin = await fan({ role: 'admin' });
      const result = await acted(app, admin, { targetType: 'post', targetId: post.id, action: 'suspend', reason: 'Cuenta falsa' });
      expect(result.item).toMatchObject({ author: { isSuspended: true }, actions: ['hide', 'delete'] });
      expect(await database.sql`SELECT is_suspended FROM profiles WHERE id = ${author.id}`).toEqual([{ is_suspended: true }]);
      expect(await database.sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${author.id} AND revoked_at IS NULL`).toEqual([{ n: 0 }]);
      expect((await get('/api/me', author)).statusCode).toBe(401);
      expect((await audit()).map((a) => [a.admin_id, a.action, a.entity_type, a.entity_id, a.before, a.after])).toEqual([
        [admin.id, 'moderation.suspend', 'post', post.id, { isSuspended: false, userId: author.id }, { isSuspended: true, reason: 'Cuenta falsa' }],
      ]);
      expect((await reportsOf(post.id)).map((r) => r.status)).toEqual(['actioned', 'actioned']);
      expect((await notifications(reporters[0]!)).items.map((i) => i.type)).toEqual(['report_actioned']);
    });

    it('never silences nor suspends staff (403), nor offers it', async () => {
      const admin = await fan({ role: 'admin' });
      for (const role of ['moderator', 'admin'] as const) {
        const staffer = await fan({ role });
        const post = await buildPost(database.db, staffer.id);
        await reported(app, await fan(), { targetType: 'post', targetId: post.id });
        for (const input of [{ action: 'silence', silenceFor: '1h' }, { action: 'suspend' }] as const) {
          const res = await act(app, admin, { targetType: 'post', targetId: post.id, ...input });
          expect(res.statusCode, `${role} ${input.action}`).toBe(403);
          expect(res.json().message).toBe(MODERATION_MESSAGES.cannotModerateStaff);
        }
        const [item] = (await queue(app, admin)).items.filter((i) => i.targetId === post.id);
        expect(item!.actions).toEqual(['dismiss', 'hide', 'delete']);
      }
    });

    it('refuses what does not apply: an unknown or never reported item (404), a profile hidden (400), a visible item restored (409)', async () => {
      const { post, author } = await reportedPost();
      const admin = await fan({ role: 'admin' });
      const unreported = await buildPost(database.db, author.id);
      const cases = [
        [{ targetType: 'post', targetId: '123e4567-e89b-42d3-a456-426614174000', action: 'hide' }, 404, MODERATION_MESSAGES.targetNotFound],
        [{ targetType: 'post', targetId: unreported.id, action: 'hide' }, 404, MODERATION_MESSAGES.nothingToModerate],
        [{ targetType: 'profile', targetId: author.id, action: 'hide' }, 400, MODERATION_MESSAGES.actionNotAllowed],
        [{ targetType: 'post', targetId: post.id, action: 'restore' }, 409, MODERATION_MESSAGES.actionNotAllowed],
        [{ targetType: 'post', targetId: post.id, action: 'unsilence' }, 409, MODERATION_MESSAGES.actionNotAllowed],
        [{ targetType: 'post', targetId: post.id, action: 'silence' }, 400, MODERATION_MESSAGES.silenceForRequired],
        [{ targetType: 'post', targetId: post.id, action: 'hide', reason: 'x'.repeat(501) }, 400, MODERATION_QUEUE_TEXTS.reasonTooLong],
      ] as const;
      const before = await tableDigests(database);
      for (const [input, status, message] of cases) {
        const res = await act(app, admin, input);
        expect([res.statusCode, res.json().message], JSON.stringify(input)).toEqual([status, message]);
      }
      expect(changedTables(before, await tableDigests(database))).toEqual([]);
    });
  });

  describe('who may work the queue', () => {
    it('lets moderators read the queue and act (but suspend), refuses fans and suspended staff (403), visitors (401), and keeps /api/admin for admins', async () => {
      const { post } = await reportedPost();
      const moderator = await fan({ role: 'moderator' });
      expect((await queue(app, moderator)).items.map((i) => i.targetId)).toEqual([post.id]);
      expect(await openCount(app, moderator)).toBe(1);

      const refusedCallers = [
        [await fan(), 403],
        [await fan({ role: 'moderator', isSuspended: true }), 403],
        [await fan({ role: 'admin', isSuspended: true }), 403],
      ] as const;
      const before = await tableDigests(database);
      for (const [who, status] of refusedCallers) {
        for (const url of ['/api/moderation/queue', '/api/moderation/count']) expect((await get(url, who)).statusCode, `${who.role} ${url}`).toBe(status);
        expect((await act(app, who, { targetType: 'post', targetId: post.id, action: 'hide' })).statusCode).toBe(status);
      }
      expect((await get('/api/moderation/queue')).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url: '/api/moderation/actions', headers: { 'x-requested-with': 'tribuna' }, payload: {} })).statusCode).toBe(
        401,
      );
      expect(changedTables(before, await tableDigests(database))).toEqual([]);

      // The back-office's other screens stay the admins'.
      for (const url of ['/api/admin/users', '/api/admin/audit', '/api/admin/dashboard', '/api/admin/reports?period=week']) {
        expect((await get(url, moderator)).statusCode, url).toBe(403);
      }
      const patch = await app.inject({ method: 'PATCH', url: `/api/admin/users/${moderator.id}`, headers: moderator.headers, payload: { role: 'admin' } });
      expect(patch.statusCode).toBe(403);
      expect(changedTables(before, await tableDigests(database))).toEqual([]);

      await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'hide' });
    });

    it('lets a site moderator delete any post or comment from the wall, as its admins may', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const comment = await buildComment(database.db, (await buildPost(database.db, author.id)).id, author.id);
      const moderator = await fan({ role: 'moderator' });
      const other = await fan();
      expect((await app.inject({ method: 'DELETE', url: `/api/posts/${post.id}`, headers: other.headers })).statusCode).toBe(403);
      expect((await app.inject({ method: 'DELETE', url: `/api/posts/${post.id}`, headers: moderator.headers })).statusCode).toBe(204);
      expect((await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: moderator.headers })).statusCode).toBe(200);
      expect(
        await database.sql`SELECT (SELECT is_hidden FROM posts WHERE id = ${post.id}) AS post, (SELECT is_hidden FROM comments WHERE id = ${comment.id}) AS comment`,
      ).toEqual([{ post: true, comment: true }]);
      // Editing stays the author's.
      const edit = await app.inject({
        method: 'PATCH',
        url: `/api/comments/${(await buildComment(database.db, post.id, author.id)).id}`,
        headers: moderator.headers,
        payload: { content: 'No' },
      });
      expect([403, 404]).toContain(edit.statusCode);
    });
  });

  describe('the queue', () => {
    it('filters by status and reason, pages 20 items at a time newest report first, and shows the latest 5 comments', async () => {
      const admin = await fan({ role: 'admin' });
      const author = await fan();
      const reporter = await fan();
      const posts = [];
      for (let i = 0; i < MODERATION_LIMITS.queuePageSize + 3; i++) {
        const post = await buildPost(database.db, author.id);
        posts.push(post);
        await database.db.insert(schema.reports).values({
          reporterId: reporter.id,
          targetType: 'post',
          targetId: post.id,
          targetUserId: author.id,
          reason: i % 2 === 0 ? 'spam' : 'violence',
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        });
      }
      const first = await queue(app, admin);
      expect(first.items).toHaveLength(MODERATION_LIMITS.queuePageSize);
      expect(first.nextCursor).not.toBeNull();
      const second = await queue(app, admin, { cursor: first.nextCursor! });
      expect(second.nextCursor).toBeNull();
      expect([...first.items, ...second.items].map((i) => i.targetId)).toEqual(posts.map((p) => p.id).reverse());

      const violent = await queue(app, admin, { reason: 'violence' });
      expect(violent.items.map((i) => i.targetId)).toEqual(
        posts
          .filter((_, i) => i % 2 === 1)
          .map((p) => p.id)
          .reverse(),
      );
      expect((await queue(app, admin, { status: 'actioned' })).items).toEqual([]);
      expect((await get('/api/moderation/queue?cursor=bad', admin)).statusCode).toBe(400);

      // Comments: the latest five, never who wrote them.
      const target = posts[0]!;
      for (let i = 0; i < 7; i++) {
        await database.db.insert(schema.reports).values({
          reporterId: (await fan()).id,
          targetType: 'post',
          targetId: target.id,
          targetUserId: author.id,
          reason: 'other',
          comment: `Comentario ${i}`,
          createdAt: new Date(Date.UTC(2026, 1, 1, 0, i)),
        });
      }
      const [top] = (await queue(app, admin)).items as ModerationItem[];
      expect(top).toMatchObject({ targetId: target.id, reportCount: 8, reasons: { spam: 1, other: 7 } });
      expect(top!.comments).toEqual(['Comentario 6', 'Comentario 5', 'Comentario 4', 'Comentario 3', 'Comentario 2']);
    });
  });
});
