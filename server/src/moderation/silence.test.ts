// Timed silences (issue 29): a silenced author cannot post (in groups and clips too), comment or
// react until the silence ends by time alone, told until when every time; /api/me says so; the
// change reaches every instance's cached sessions at once. And brand-new accounts post and comment
// under tighter limits.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import type { Profile } from '@tribuna/contracts/api/me';
import { MODERATION_LIMITS, MODERATION_MESSAGES, SILENCE_DURATION_MS } from '@tribuna/contracts/moderationRules';
import { schema } from '@tribuna/drizzle';
import { testConfig } from '../../../test/support/env.ts';
import { buildComment, buildPost } from '../../../test/support/factories.ts';
import { changedTables, tableDigests } from '../../../test/support/server/fuzz/fingerprint.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { MODERATION_TEST_LIMITS, WIDE, act, acted, person, queue, reported, type Person } from '../../../test/support/server/moderation.ts';
import { multipart } from '../../../test/support/server/multipart.ts';
import { signIn, waitForSessionEviction, asUser } from '../../../test/support/server/sessions.ts';
import { buildApp, type App } from '../app.ts';
import { RATE_LIMITS, type RateLimitRule } from '../http/rateLimits.ts';

describe('silences', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits: { ...MODERATION_TEST_LIMITS, 'wall.video-create': WIDE }, wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } } }),
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const fan = (options: Parameters<typeof person>[2] = {}) => person(app, database.db, options);
  const me = async (who: Person) => (await app.inject({ method: 'GET', url: '/api/me', headers: who.headers })).json<Profile>();

  /** Everything a silenced author may not do, each as a request: posts (in a group, a clip), comments, reactions. */
  async function speeches(author: Person) {
    const other = await fan();
    const post = await buildPost(database.db, other.id);
    const comment = await buildComment(database.db, post.id, other.id);
    const [group] = await database.db.insert(schema.groups).values({ name: 'Club', privacy: 'public' }).returning();
    await database.db.insert(schema.groupMembers).values({ groupId: group!.id, userId: author.id });
    const form = (parts: Parameters<typeof multipart>[0]) => multipart(parts);
    const requests = {
      post: () => form([{ name: 'content', value: 'Hola' }]),
      groupPost: () =>
        form([
          { name: 'content', value: 'Hola club' },
          { name: 'groupId', value: group!.id },
        ]),
      clip: () => form([{ name: 'video', filename: 'clip.mp4', type: 'video/mp4', data: Buffer.alloc(1024) }]),
      comment: () => form([{ name: 'content', value: 'Opino' }]),
    };
    return [
      ['a post', () => ({ url: '/api/posts', body: requests.post() })],
      ['a group post', () => ({ url: '/api/posts', body: requests.groupPost() })],
      ['a clip', () => ({ url: '/api/posts/video', body: requests.clip() })],
      ['a comment', () => ({ url: `/api/posts/${post.id}/comments`, body: requests.comment() })],
      ['a reaction to a post', () => ({ url: `/api/posts/${post.id}/reactions`, json: { type: 'like' } })],
      ['a reaction to a comment', () => ({ url: `/api/comments/${comment.id}/reactions`, json: { type: 'like' } })],
    ] as const;
  }

  async function send(author: Person, request: { url: string; body?: ReturnType<typeof multipart>; json?: object }) {
    return request.body
      ? app.inject({ method: 'POST', url: request.url, headers: { ...author.headers, ...request.body.headers }, payload: request.body.payload })
      : app.inject({ method: 'POST', url: request.url, headers: author.headers, payload: request.json });
  }

  it("refuses a silenced author's posts, group posts, clips, comments and reactions with 403 until when, writing nothing; /api/me and the queue say until when", async () => {
    const author = await fan();
    const post = await buildPost(database.db, author.id);
    await reported(app, await fan(), { targetType: 'post', targetId: post.id });
    const moderator = await fan({ role: 'moderator' });
    // The author's session is cached before the silence: the silence must reach it at once.
    expect((await me(author)).silencedUntil).toBeNull();

    const result = await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'silence', silenceFor: '24h', reason: 'Insultos' });
    const [row] = await database.sql<{ until: Date }[]>`SELECT silenced_until AS until FROM profiles WHERE id = ${author.id}`;
    const untilIso = new Date(row!.until).toISOString();
    expect(result.item).toMatchObject({ author: { silencedUntil: untilIso }, actions: ['hide', 'delete', 'silence', 'unsilence'] });
    expect(result.closedReports).toBe(1);
    expect((await me(author)).silencedUntil).toBe(untilIso);
    const [audit] = await database.sql<{ action: string; before: unknown; after: unknown }[]>`SELECT action, before, after FROM admin_audit_log`;
    expect(audit).toEqual({
      action: 'moderation.silence',
      before: { silencedUntil: null, userId: author.id },
      after: { silencedUntil: untilIso, silenceFor: '24h', reason: 'Insultos' },
    });
    expect(Date.parse(untilIso) - Date.now()).toBeGreaterThan(SILENCE_DURATION_MS['24h'] - 60_000);

    const attempts = await speeches(author);
    const before = await tableDigests(database);
    for (const [what, request] of attempts) {
      const res = await send(author, request());
      expect([res.statusCode, res.json().message], what).toEqual([403, MODERATION_MESSAGES.silenced(untilIso)]);
    }
    expect(changedTables(before, await tableDigests(database))).toEqual([]);
    // Editing and deleting their own posts stays theirs.
    expect((await app.inject({ method: 'PATCH', url: `/api/posts/${post.id}`, headers: author.headers, payload: { content: 'Perdón' } })).statusCode).toBe(200);
  });

  it('ends by time alone: past its end the author posts, comments and reacts again, and /api/me no longer says silenced', async () => {
    const author = await fan();
    const other = await fan();
    const target = await buildPost(database.db, other.id);
    await reported(app, other, { targetType: 'profile', targetId: author.id });
    const admin = await fan({ role: 'admin' });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    await acted(app, admin, { targetType: 'profile', targetId: author.id, action: 'silence', silenceFor: '1h' });
    const refused = await send(author, { url: `/api/posts/${target.id}/reactions`, json: { type: 'like' } });
    expect(refused.statusCode).toBe(403);

    // A minute before its end: still silenced.
    vi.setSystemTime(start + SILENCE_DURATION_MS['1h'] - 60_000);
    expect((await send(author, { url: `/api/posts/${target.id}/reactions`, json: { type: 'like' } })).statusCode).toBe(403);
    expect((await me(author)).silencedUntil).not.toBeNull();

    // Past it: everything works again, nothing had to run.
    vi.setSystemTime(start + SILENCE_DURATION_MS['1h'] + 1_000);
    expect((await me(author)).silencedUntil).toBeNull();
    for (const [what, request] of await speeches(author)) {
      if (what === 'a clip') continue; // A real clip is needed to publish one; its refusal is what the first test checks.
      const res = await send(author, request());
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
    }
    // The queue no longer offers to lift it.
    const [item] = (await queue(app, admin, { status: 'actioned' })).items;
    expect(item!.author.silencedUntil).toBeNull();
    expect(item!.actions).not.toContain('unsilence');
  });

  it('lifts a silence early (unsilence), closing no report; lifting one that is not there is 409', async () => {
    const author = await fan();
    const post = await buildPost(database.db, author.id);
    await reported(app, await fan(), { targetType: 'post', targetId: post.id });
    const moderator = await fan({ role: 'moderator' });
    await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'silence', silenceFor: '7d' });
    await reported(app, await fan(), { targetType: 'post', targetId: post.id });
    const lifted = await acted(app, moderator, { targetType: 'post', targetId: post.id, action: 'unsilence' });
    expect(lifted.closedReports).toBe(0);
    expect(lifted.item).toMatchObject({ reportCount: 1, author: { silencedUntil: null } });
    expect(await database.sql`SELECT silenced_until FROM profiles WHERE id = ${author.id}`).toEqual([{ silenced_until: null }]);
    expect((await send(author, { url: '/api/posts', body: multipart([{ name: 'content', value: 'Volví' }]) })).statusCode).toBe(201);
    expect((await act(app, moderator, { targetType: 'post', targetId: post.id, action: 'unsilence' })).statusCode).toBe(409);
    expect((await database.sql<{ action: string }[]>`SELECT action FROM admin_audit_log ORDER BY id`).map((r) => r.action)).toEqual([
      'moderation.silence',
      'moderation.unsilence',
    ]);
  });

  describe('on another instance', () => {
    let other: App;
    beforeAll(async () => {
      other = await buildApp(testConfig(), { rateLimits: MODERATION_TEST_LIMITS });
    });
    afterAll(async () => {
      await other?.close();
    });

    it("reaches the author's session cached by another instance as soon as it commits", async () => {
      const author = await fan();
      const session = await signIn(other, author);
      const headers = asUser(session);
      const target = await buildPost(database.db, (await fan()).id);
      const react = () => other.inject({ method: 'POST', url: `/api/posts/${target.id}/reactions`, headers, payload: { type: 'like' } });
      expect((await react()).statusCode).toBe(200);
      expect(other.sessionCache.get(session.sessionId, Date.now())).not.toBeNull();

      const post = await buildPost(database.db, author.id);
      await reported(app, await fan(), { targetType: 'post', targetId: post.id });
      await acted(app, await fan({ role: 'admin' }), { targetType: 'post', targetId: post.id, action: 'silence', silenceFor: '1h' });
      await waitForSessionEviction(other, session.sessionId);
      expect((await react()).statusCode).toBe(403);
    });
  });
});

describe('new accounts', () => {
  let app: App;
  let database: Database;
  // The mechanism with small numbers: the established accounts' entry allows 4 posts at once, the new accounts' 2.
  const rule = (max: number): RateLimitRule => ({ store: 'local', perUser: { max, windowSeconds: 3600 }, perAddress: { max: 1000, windowSeconds: 60 } });
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({
      rateLimits: {
        'wall.post-create': { ...rule(4), newAccounts: 'wall.post-create.new-account' },
        'wall.post-create.new-account': rule(2),
        'wall.comment-create': { ...rule(4), newAccounts: 'wall.comment-create.new-account' },
        'wall.comment-create.new-account': rule(2),
      },
      wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } },
    }),
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const post = (who: Person) => {
    const body = multipart([{ name: 'content', value: 'Hola' }]);
    return app.inject({ method: 'POST', url: '/api/posts', headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };
  const comment = (who: Person, postId: string) => {
    const body = multipart([{ name: 'content', value: 'Opino' }]);
    return app.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };
  const statuses = async (n: number, send: () => Promise<{ statusCode: number }>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await send()).statusCode);
    return out;
  };

  it('lets an account younger than a day post and comment less than an older one, until it is a day old', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const young = await person(app, database.db, { createdAt: new Date(start - MODERATION_LIMITS.trustedAccountAgeMs + 60_000) });
    const established = await person(app, database.db, { createdAt: new Date(start - MODERATION_LIMITS.trustedAccountAgeMs - 60_000) });
    const target = await buildPost(database.db, established.id);
    expect(await statuses(3, () => post(young))).toEqual([201, 201, 429]);
    expect(await statuses(5, () => post(established))).toEqual([201, 201, 201, 201, 429]);
    expect(await statuses(3, () => comment(young, target.id))).toEqual([201, 201, 429]);
    expect(await database.sql`SELECT count(*)::int AS n FROM posts WHERE user_id = ${young.id}`).toEqual([{ n: 2 }]);

    // A day old: counted as everybody else (its own bucket of the established entry).
    vi.setSystemTime(start + 2 * 60_000);
    expect(await statuses(5, () => post(young))).toEqual([201, 201, 201, 201, 429]);
  });

  it('names a tighter entry for new accounts in the real table, for posts and comments', () => {
    const perSecond = (rule: RateLimitRule) => rule.perUser!.max / rule.perUser!.windowSeconds;
    for (const [entry, tighter] of [
      ['wall.post-create', 'wall.post-create.new-account'],
      ['wall.comment-create', 'wall.comment-create.new-account'],
    ] as const) {
      const base: RateLimitRule = RATE_LIMITS[entry];
      const young: RateLimitRule = RATE_LIMITS[tighter];
      expect(base.newAccounts).toBe(tighter);
      expect(young.perUser!.max).toBeLessThanOrEqual(base.perUser!.max);
      expect(perSecond(young)).toBeLessThan(perSecond(base));
    }
  });
});
