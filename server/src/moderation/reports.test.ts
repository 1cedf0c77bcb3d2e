// Reports (issue 29): a fan reports a post, a comment or a profile they may see, never their own,
// once per item while it is open; the queue groups them without telling who reported; enough
// trusted fans (accounts older than a day) hide an item pending review, live.
import { describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { FeedPage, PostView } from '@tribuna/contracts/api/wall';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { schema } from '@tribuna/drizzle';
import { buildComment, buildPost } from '../../../test/support/factories.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { MODERATION_TEST_LIMITS, acted, openCount, person, queue, report, reported, type Person } from '../../../test/support/server/moderation.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { changedTables, tableDigests } from '../../../test/support/server/fuzz/fingerprint.ts';
import type { App } from '../app.ts';

/** This file's auto-hide threshold (MODERATION_AUTO_HIDE_REPORTERS): three trusted fans. */
const THRESHOLD = 3;

describe('reports', () => {
  let app: App;
  let database: Database;
  let wsUrl: string;
  useListeningTestApp(
    { MODERATION_AUTO_HIDE_REPORTERS: String(THRESHOLD) },
    (ready) => {
      ({ app, database } = ready);
      wsUrl = `${ready.baseUrl.replace('http', 'ws')}/ws`;
    },
    { build: () => ({ rateLimits: MODERATION_TEST_LIMITS, wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } } }) },
  );

  const fan = (options: Parameters<typeof person>[2] = {}) => person(app, database.db, options);
  const get = (url: string, who?: Person) => app.inject({ method: 'GET', url, headers: who?.headers ?? { 'x-requested-with': 'tribuna' } });

  /** Subscribes as `who` and resolves once this instance counts a viewer of the topic. */
  async function watch(topic: string, who?: Person): Promise<WsTestClient> {
    const client = await openWs(wsUrl, who ? { cookie: who.cookie } : {});
    client.send({ type: 'subscribe', topic });
    while (!app.live.hub.hasViewers(topic)) await new Promise((resolve) => setTimeout(resolve, 5));
    return client;
  }

  describe('reporting', () => {
    it('accepts a report of a post, a comment and a profile the reporter may see, and the queue groups them by item without telling who reported', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const comment = await buildComment(database.db, post.id, author.id);
      const [ana, luis] = [await fan(), await fan()];
      const moderator = await fan({ role: 'moderator' });

      const res = await report(app, ana, { targetType: 'post', targetId: post.id, reason: 'harassment', comment: '  Insulta a los concursantes  ' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ id: expect.any(String), message: MODERATION_MESSAGES.reported });
      await reported(app, luis, { targetType: 'post', targetId: post.id, reason: 'spam' });
      await reported(app, ana, { targetType: 'comment', targetId: comment.id, reason: 'violence' });
      await reported(app, luis, { targetType: 'profile', targetId: author.id, reason: 'impersonation', comment: 'Se hace pasar por la conductora' });

      const stored = await database.sql`SELECT comment, target_user_id FROM reports WHERE reporter_id = ${ana.id} AND target_type = 'post'`;
      expect(stored).toEqual([{ comment: 'Insulta a los concursantes', target_user_id: author.id }]);

      const page = await queue(app, moderator);
      expect(page.nextCursor).toBeNull();
      expect(page.items.map((i) => [i.targetType, i.targetId, i.reportCount, i.reasons, i.comments])).toEqual([
        ['profile', author.id, 1, { impersonation: 1 }, ['Se hace pasar por la conductora']],
        ['comment', comment.id, 1, { violence: 1 }, []],
        ['post', post.id, 2, { harassment: 1, spam: 1 }, ['Insulta a los concursantes']],
      ]);
      const postItem = page.items[2]!;
      expect(postItem).toMatchObject({ state: 'visible', autoHidden: false, comment: null, profile: null });
      expect(postItem.post).toMatchObject({ id: post.id, content: post.content, author: { id: author.id } });
      expect(postItem.author).toMatchObject({ id: author.id, reportsReceived: 4, isSuspended: false, silencedUntil: null, history: [] });
      expect(postItem.actions).toEqual(['dismiss', 'hide', 'delete', 'silence']);
      expect(page.items[1]!.comment).toMatchObject({ id: comment.id, content: comment.content, replies: [] });
      expect(page.items[0]!.profile).toMatchObject({ id: author.id, isDeleted: false });
      // Who reported is never in the queue.
      const body = JSON.stringify(page);
      for (const reporter of [ana, luis]) expect(body).not.toContain(reporter.id);
      expect(await openCount(app, moderator)).toBe(3);
    });

    it('keeps one open report per person and item (409, even when sent twice at once), and takes a new one once the first closed', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const ana = await fan();
      const admin = await fan({ role: 'admin' });
      await reported(app, ana, { targetType: 'post', targetId: post.id });
      const again = await report(app, ana, { targetType: 'post', targetId: post.id, reason: 'other' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(MODERATION_MESSAGES.alreadyReported);

      // Two at once from another fan: one is taken, the other refused as already reported (never a 500).
      const luis = await fan();
      const both = await Promise.all([1, 2].map(() => report(app, luis, { targetType: 'post', targetId: post.id })));
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await database.sql`SELECT count(*)::int AS n FROM reports WHERE status = 'open'`).toEqual([{ n: 2 }]);

      await acted(app, admin, { targetType: 'post', targetId: post.id, action: 'dismiss' });
      await reported(app, ana, { targetType: 'post', targetId: post.id, reason: 'other' });
      expect(await database.sql`SELECT status, count(*)::int AS n FROM reports GROUP BY status ORDER BY status`).toEqual([
        { status: 'dismissed', n: 2 },
        { status: 'open', n: 1 },
      ]);
    });

    it("refuses one's own post, comment and profile (400) and writes nothing", async () => {
      const ana = await fan();
      const post = await buildPost(database.db, ana.id);
      const comment = await buildComment(database.db, post.id, ana.id);
      for (const [targetType, targetId] of [
        ['post', post.id],
        ['comment', comment.id],
        ['profile', ana.id],
      ] as const) {
        const res = await report(app, ana, { targetType, targetId });
        expect(res.statusCode, targetType).toBe(400);
        expect(res.json().message).toBe(MODERATION_MESSAGES.reportSelf);
      }
      expect(await database.sql`SELECT count(*)::int AS n FROM reports`).toEqual([{ n: 0 }]);
    });

    it('answers 404 for what the reporter cannot see or what does not exist, and writes nothing', async () => {
      const author = await fan();
      const ana = await fan();
      const [group] = await database.db.insert(schema.groups).values({ name: 'Club privado', privacy: 'private' }).returning();
      const visible = await buildPost(database.db, author.id);
      const hiddenPost = await buildPost(database.db, author.id, { isHidden: true });
      const groupPost = await buildPost(database.db, author.id, { groupId: group!.id, visibility: 'group' });
      const followersPost = await buildPost(database.db, author.id, { visibility: 'followers' });
      const hiddenComment = await buildComment(database.db, visible.id, author.id, { isHidden: true });
      const commentOfHidden = await buildComment(database.db, hiddenPost.id, author.id);
      const commentInGroup = await buildComment(database.db, groupPost.id, author.id);
      const deleted = await fan({ deletedAt: new Date(), isSuspended: true });
      const unknown = '123e4567-e89b-42d3-a456-426614174000';
      // Blocked by the author (issue 29): neither their posts, comments nor profile are the reporter's to see.
      const blocker = await fan();
      const blockersPost = await buildPost(database.db, blocker.id);
      const blockersComment = await buildComment(database.db, visible.id, blocker.id);
      await database.db.insert(schema.userBlocks).values({ blockerId: blocker.id, blockedId: ana.id });
      const before = await tableDigests(database);
      for (const [targetType, targetId] of [
        ['post', hiddenPost.id],
        ['post', groupPost.id],
        ['post', followersPost.id],
        ['post', unknown],
        ['comment', hiddenComment.id],
        ['comment', commentOfHidden.id],
        ['comment', commentInGroup.id],
        ['comment', unknown],
        ['profile', deleted.id],
        ['profile', unknown],
        ['post', blockersPost.id],
        ['comment', blockersComment.id],
        ['profile', blocker.id],
      ] as const) {
        const res = await report(app, ana, { targetType, targetId });
        expect(res.statusCode, `${targetType} ${targetId}`).toBe(404);
        expect(res.json().message).toBe(MODERATION_MESSAGES.targetNotFound);
      }
      expect(changedTables(before, await tableDigests(database))).toEqual([]);
    });

    it('trims the comment, keeps none for blanks, and refuses one over 500 characters', async () => {
      const author = await fan();
      const [p1, p2] = [await buildPost(database.db, author.id), await buildPost(database.db, author.id)];
      const ana = await fan();
      const long = await report(app, ana, { targetType: 'post', targetId: p1.id, comment: `${'a'.repeat(500)}b` });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(MODERATION_MESSAGES.reportCommentTooLong);
      // 500 characters (emoji are one each), padded with spaces: accepted.
      await reported(app, ana, { targetType: 'post', targetId: p1.id, comment: `  ${'😡'.repeat(500)}  ` });
      await reported(app, ana, { targetType: 'post', targetId: p2.id, comment: '   \n  ' });
      const rows = await database.sql<{ target_id: string; comment: string | null }[]>`SELECT target_id, comment FROM reports`;
      expect(new Map(rows.map((r) => [r.target_id, r.comment]))).toEqual(
        new Map([
          [p1.id, '😡'.repeat(500)],
          [p2.id, null],
        ]),
      );
    });

    it('asks visitors to sign in (401)', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const res = await app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: { 'x-requested-with': 'tribuna' },
        payload: { targetType: 'post', targetId: post.id, reason: 'spam' },
      });
      expect(res.statusCode).toBe(401);
    });

    it("changes the staff's live count with every report of a new item", async () => {
      const author = await fan();
      const [p1, p2] = [await buildPost(database.db, author.id), await buildPost(database.db, author.id)];
      const moderator = await fan({ role: 'moderator' });
      const staff = await watch('moderation', moderator);
      await staff.waitFor((m) => m.type === 'moderation-count' && m.open === 0);
      await reported(app, await fan(), { targetType: 'post', targetId: p1.id });
      await staff.waitFor((m) => m.type === 'moderation-count' && m.open === 1);
      await reported(app, await fan(), { targetType: 'post', targetId: p2.id });
      await staff.waitFor((m) => m.type === 'moderation-count' && m.open === 2);
      await staff.close();
    });
  });

  describe('auto-hide', () => {
    it(`hides a post once ${THRESHOLD} fans with accounts older than a day report it (newer accounts do not count), live for every wall`, async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const moderator = await fan({ role: 'moderator' });
      const reader = await fan();
      const viewer = await watch(`post:${post.id}`, reader);

      // Brand-new accounts, however many, do not hide it; nor do fewer trusted fans than the threshold.
      for (let i = 0; i < THRESHOLD + 2; i++) await reported(app, await fan(), { targetType: 'post', targetId: post.id });
      for (let i = 0; i < THRESHOLD - 1; i++) await reported(app, await fan({ trusted: true }), { targetType: 'post', targetId: post.id });
      expect(await database.sql`SELECT is_hidden FROM posts WHERE id = ${post.id}`).toEqual([{ is_hidden: false }]);
      expect(viewer.ofType('post-deleted')).toEqual([]);

      await reported(app, await fan({ trusted: true }), { targetType: 'post', targetId: post.id });
      const [row] = await database.sql<{ is_hidden: boolean; hidden: boolean }[]>`
        SELECT is_hidden, moderation_hidden_at IS NOT NULL AS hidden FROM posts WHERE id = ${post.id}`;
      expect(row).toEqual({ is_hidden: true, hidden: true });
      expect(await viewer.waitFor((m) => m.type === 'post-deleted')).toEqual({ type: 'post-deleted', topic: `post:${post.id}`, postId: post.id });
      await viewer.close();

      // Gone from the wall and its page for everybody, but its author, who reads it marked so.
      const wall = (await get('/api/posts', reader)).json<FeedPage>();
      expect(wall.posts.map((p) => p.id)).not.toContain(post.id);
      expect((await get(`/api/posts/${post.id}`, reader)).statusCode).toBe(404);
      const own = await get(`/api/posts/${post.id}`, author);
      expect(own.statusCode).toBe(200);
      expect(own.json<PostView>().hiddenByModeration).toBe(true);

      // Pending review: its reports stay open, the queue says it hid itself.
      const [item] = (await queue(app, moderator)).items;
      expect(item).toMatchObject({ targetId: post.id, reportCount: THRESHOLD * 2 + 2, state: 'hidden', autoHidden: true });
      expect(item!.post).toMatchObject({ id: post.id, hiddenByModeration: true });
      expect(item!.actions).toEqual(['dismiss', 'restore', 'delete', 'silence']);
    });

    it('hides a comment the same way, and counts only open reports', async () => {
      const author = await fan();
      const post = await buildPost(database.db, author.id);
      const comment = await buildComment(database.db, post.id, author.id);
      const admin = await fan({ role: 'admin' });
      const trusted = await Promise.all(Array.from({ length: THRESHOLD }, () => fan({ trusted: true })));
      for (const who of trusted.slice(0, THRESHOLD - 1)) await reported(app, who, { targetType: 'comment', targetId: comment.id });
      // Dismissed: those reports no longer count.
      await acted(app, admin, { targetType: 'comment', targetId: comment.id, action: 'dismiss' });
      await reported(app, trusted[THRESHOLD - 1]!, { targetType: 'comment', targetId: comment.id });
      expect(await database.sql`SELECT is_hidden FROM comments WHERE id = ${comment.id}`).toEqual([{ is_hidden: false }]);
      for (const who of trusted.slice(0, THRESHOLD - 1)) await reported(app, who, { targetType: 'comment', targetId: comment.id });
      expect(await database.sql`SELECT is_hidden, moderation_hidden_at IS NOT NULL AS hidden FROM comments WHERE id = ${comment.id}`).toEqual([
        { is_hidden: true, hidden: true },
      ]);
    });

    it('never hides a profile (a profile report waits for a moderator)', async () => {
      const target = await fan();
      for (let i = 0; i < THRESHOLD; i++) await reported(app, await fan({ trusted: true }), { targetType: 'profile', targetId: target.id });
      expect((await get(`/api/profiles/${target.id}`)).statusCode).toBe(200);
    });
  });
});
