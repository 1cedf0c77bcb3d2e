// Account deletion (DELETE /api/me) as the spec describes it and beyond: the profile is anonymised
// and no personal data stays anywhere in the database (every text column of every table is
// scanned for the old e-mail, name and usernames), the user is signed out on every instance, the
// uploaded avatar and banner are gone, posts and comments stay, and the same Google account
// signing in again starts a new, empty profile.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { Profile } from '@tribuna/contracts/api/me';
import type { PublicProfile, UploadedProfileImage } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { buildComment, buildPoll, buildPost, buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { insertTotpFactor } from '../../../../test/support/server/factors.ts';
import { multipart } from '../../../../test/support/server/multipart.ts';
import { googleSignIn, type MockOidcProvider, useOidcTestApp } from '../../../../test/support/server/oidc.ts';
import { asUser, signIn, XHR } from '../../../../test/support/server/sessions.ts';

const NAME = 'Zacarias Quintanilla Borrable';
const EMAIL = 'zq.borrable.9f3@example.com';
const SUBJECT = 'google-subject-zq-9f3';
const USERNAME = 'zq_borrable_9f3';
/** What the first sign-in derives from the name, before the user picks their own. */
const FIRST_USERNAME = 'zacarias_quintanilla';
const USER_AGENT = 'Mozilla/5.0 (ZQPhone 9f3) Borrable';

/** A distinctive image (its own bytes, so its own content-addressed files). */
const uniqueJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: randomInt(256), g: randomInt(256), b: randomInt(256) } } })
    .jpeg()
    .toBuffer();

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('deleting the own account', () => {
  let provider: MockOidcProvider;
  let app: App;
  let baseUrl: string;
  let database: Database;
  useOidcTestApp({}, (ready) => ({ provider, app, baseUrl, database } = ready));

  const mediaPath = (url: string) => join(resolve(app.config.mediaDir), url.replace(/^\/media\//, ''));

  async function googleUser() {
    provider.nextIdToken({ sub: SUBJECT, email: EMAIL, email_verified: true, name: NAME });
    const flow = await googleSignIn(baseUrl);
    expect(flow.sessionCookie).not.toBeNull();
    const headers = { cookie: flow.sessionCookie!, ...XHR, 'user-agent': USER_AGENT };
    const me = (await app.inject({ method: 'GET', url: '/api/me', headers })).json<Profile>();
    return { id: me.id, me, headers };
  }

  const upload = async (headers: Record<string, string>, kind: 'avatar' | 'banner') => {
    const body = multipart([{ name: 'image', filename: 'yo.jpg', type: 'image/jpeg', data: await uniqueJpeg(kind === 'avatar' ? 500 : 1800, 600) }]);
    const res = await app.inject({ method: 'POST', url: `/api/me/${kind}`, headers: { ...headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    return res.json<UploadedProfileImage>();
  };

  /** Every (table, column) of text, varchar, char, json or jsonb type holding `needle`, ignoring case. */
  async function whereFound(needle: string): Promise<string[]> {
    const columns = await database.sql<{ table_name: string; column_name: string }[]>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')
      ORDER BY c.table_name, c.column_name`;
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const [row] = await database.sql.unsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
        [needle],
      );
      if (row!.n > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  it('leaves no personal data anywhere in the database, keeps posts and comments, and signs out everywhere', async () => {
    const { id, me, headers } = await googleUser();
    expect(me).toMatchObject({ displayName: NAME, username: FIRST_USERNAME });
    const db = database.db;

    // A full life on the site: a username of their own, a bio, avatar and banner uploads, posts,
    // comments, votes, a share with its points, page views, a second factor, more sessions,
    // notifications, reactions.
    const avatar = await upload(headers, 'avatar');
    const banner = await upload(headers, 'banner');
    const edited = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers,
      payload: { username: USERNAME, bio: `Soy ${NAME}, escribeme a ${EMAIL}`, avatarUrl: avatar.url, bannerUrl: banner.url },
    });
    expect(edited.statusCode).toBe(200);
    const other = await buildUser(db, { displayName: 'Otra Persona' });
    const post = await buildPost(db, id, { content: 'Mi opinion sobre la gala' });
    const comment = await buildComment(db, post.id, id, { content: 'Y otra cosa mas' });
    const othersPost = await buildPost(db, other.id, { content: 'Post ajeno' });
    await buildComment(db, othersPost.id, id, { content: 'Comento lo ajeno' });
    await db.insert(schema.postReactions).values({ postId: othersPost.id, userId: id, reactionType: 'love' });
    await db.insert(schema.notifications).values({
      userId: id,
      actorId: other.id,
      type: 'post_reaction',
      postId: post.id,
      reactionType: 'wow',
      dedupeKey: `post_reaction:${post.id}:${other.id}`,
      groupKey: `post_reaction:${post.id}`,
    });
    const { poll, options } = await buildPoll(db);
    const vote = await app.inject({
      method: 'POST',
      url: `/api/polls/${poll.id}/votes`,
      headers,
      payload: { optionId: options[0]!.id, deviceFingerprint: 'zq-device-9f3' },
    });
    expect(vote.statusCode).toBeLessThan(300);
    const share = await app.inject({ method: 'POST', url: `/api/polls/${poll.id}/shares`, headers, payload: { platform: 'whatsapp' } });
    expect(share.statusCode).toBeLessThan(300);
    await db.insert(schema.userPointsHistory).values({ userId: id, points: 7, reason: 'admin_adjustment', description: `Premio para ${NAME}` });
    const view = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers,
      payload: { path: '/perfil', referrer: null, sessionId: 'visit-session-zq9f3', deviceType: 'mobile' },
    });
    expect(view.statusCode).toBeLessThan(300);
    await insertTotpFactor(db, app.config, { userId: id, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    const elsewhere = await signIn(app, { id });
    // Seen by this instance: cached, so the revocation must evict it.
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: elsewhere.cookie } })).statusCode).toBe(200);
    // Points are awarded by the worker; here they are written as it would.
    await db.update(schema.profiles).set({ totalPoints: 57 }).where(eq(schema.profiles.id, id));
    expect(await db.select().from(schema.votes).where(eq(schema.votes.userId, id))).toEqual([
      expect.objectContaining({ userAgent: USER_AGENT, deviceFingerprint: 'zq-device-9f3' }),
    ]);
    expect(await whereFound(EMAIL)).toEqual(expect.arrayContaining(['accounts.email', 'profiles.bio']));
    // The admin search keeps a copy (migration 0015): it must go too.
    expect((await whereFound(USERNAME)).sort()).toEqual(['admin_user_search.doc', 'admin_user_search.username', 'profiles.username']);
    expect(await whereFound(EMAIL)).toEqual(expect.arrayContaining(['admin_user_search.email']));
    expect(await whereFound(NAME)).toEqual(expect.arrayContaining(['profiles.display_name', 'user_points_history.description']));
    expect(await exists(mediaPath(avatar.url))).toBe(true);
    const sessionIds = (await db.select().from(schema.sessions).where(eq(schema.sessions.userId, id))).map((s) => s.id);
    expect(sessionIds.length).toBeGreaterThanOrEqual(2);

    // Every instance LISTENs on tribuna_auth: the deletion must tell them to forget each session.
    const notified: string[] = [];
    const listener = await database.sql.listen('tribuna_auth', (payload) => void notified.push(payload));
    try {
      const res = await app.inject({ method: 'DELETE', url: '/api/me', headers, payload: { confirm: 'ELIMINAR' } });
      expect(res.statusCode).toBe(204);
      await expect.poll(() => sessionIds.every((s) => notified.includes(`s:${s}`)), { timeout: 5_000 }).toBe(true);
    } finally {
      await listener.unlisten();
    }

    // Nothing personal is left, in any table.
    for (const needle of [EMAIL, NAME, USERNAME, FIRST_USERNAME, SUBJECT, USER_AGENT, 'zq-device-9f3']) {
      expect([needle, await whereFound(needle)]).toEqual([needle, []]);
    }
    const [profile] = await db.select().from(schema.profiles).where(eq(schema.profiles.id, id));
    expect(profile).toMatchObject({
      displayName: PROFILE_MESSAGES.deletedName,
      username: null,
      bio: null,
      avatarUrl: null,
      bannerUrl: null,
      isSuspended: true,
      totalPoints: 0,
    });
    for (const table of [schema.accounts, schema.sessions, schema.authFactors, schema.userPointsHistory, schema.notifications, schema.voteRequests]) {
      expect(await db.select().from(table).where(eq(table.userId, id))).toEqual([]);
    }
    // Results keep the vote, without the device; page views keep the visit, without the browser.
    expect(await db.select().from(schema.votes).where(eq(schema.votes.userId, id))).toEqual([
      expect.objectContaining({ optionId: options[0]!.id, userAgent: null, deviceFingerprint: null }),
    ]);
    expect(await db.select().from(schema.pageViews).where(eq(schema.pageViews.userId, id))).toEqual([
      expect.objectContaining({ pagePath: '/perfil', userAgent: null }),
    ]);
    // Posts and comments stay, now without the name.
    expect(await db.select().from(schema.posts).where(eq(schema.posts.id, post.id))).toHaveLength(1);
    expect(await db.select().from(schema.comments).where(eq(schema.comments.id, comment.id))).toHaveLength(1);
    const card = await app.inject({ method: 'GET', url: `/api/posts/${post.id}` });
    expect(card.json().author).toEqual({ id, displayName: PROFILE_MESSAGES.deletedName, username: null, avatarUrl: null });
    // The avatar and banner: rows and files gone.
    for (const image of [avatar, banner]) {
      expect(
        await db
          .select()
          .from(schema.media)
          .where(eq(schema.media.key, image.url.slice('/media/'.length))),
      ).toEqual([]);
      expect(await exists(mediaPath(image.url))).toBe(false);
      expect(await exists(mediaPath(image.thumbnailUrl))).toBe(false);
    }
    // Signed out everywhere; the profile shows as deleted.
    for (const cookie of [headers.cookie, elsewhere.cookie]) {
      expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'GET', url: `/api/profiles/${id}` })).json<PublicProfile>()).toMatchObject({
      id,
      displayName: PROFILE_MESSAGES.deletedName,
      username: null,
      isDeleted: true,
    });
  });

  it('the same Google account signing in again starts a new, empty profile', async () => {
    const first = await googleUser();
    await app.inject({ method: 'PATCH', url: '/api/me', headers: first.headers, payload: { username: USERNAME, bio: 'Antes' } });
    await buildPost(database.db, first.id, { content: 'Sigue aqui' });
    expect((await app.inject({ method: 'DELETE', url: '/api/me', headers: first.headers, payload: { confirm: 'ELIMINAR' } })).statusCode).toBe(204);

    const again = await googleUser();
    expect(again.id).not.toBe(first.id);
    expect(again.me).toMatchObject({ displayName: NAME, username: FIRST_USERNAME, bio: null, bannerUrl: null, totalPoints: 0, isSuspended: false });
    const stats = await app.inject({ method: 'GET', url: `/api/profiles/${again.id}/stats`, headers: again.headers });
    expect(stats.json()).toEqual({ votes: 0, posts: 0, comments: 0 });
    // The old profile stays anonymised, its post with it; the account belongs to the new profile.
    const [old] = await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, first.id));
    expect(old).toMatchObject({ displayName: PROFILE_MESSAGES.deletedName, isSuspended: true });
    expect(await database.db.select().from(schema.accounts)).toEqual([expect.objectContaining({ userId: again.id, oidcSubject: SUBJECT, email: EMAIL })]);
  });

  it('refuses a hard delete (403), a wrong confirmation (400) and visitors (401), changing nothing', async () => {
    const { id, headers } = await googleUser();
    const remove = (payload: object, h: Record<string, string> = headers) => app.inject({ method: 'DELETE', url: '/api/me', headers: h, payload });
    const hard = await remove({ confirm: 'ELIMINAR', hard: true });
    expect(hard.statusCode).toBe(403);
    expect(hard.json().message).toBe(PROFILE_MESSAGES.hardDelete);
    const wrong = await remove({ confirm: 'eliminar' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(PROFILE_MESSAGES.deleteConfirm);
    expect((await remove({ confirm: 'ELIMINAR' }, { ...XHR })).statusCode).toBe(401);
    const [profile] = await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, id));
    expect(profile).toMatchObject({ displayName: NAME, isSuspended: false });
    expect((await app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(200);
  });

  it('a suspended user may still delete their account', async () => {
    const user = await buildUser(database.db, { isSuspended: true, displayName: 'Suspendido Borrable' });
    const headers = asUser(await signIn(app, user));
    expect((await app.inject({ method: 'DELETE', url: '/api/me', headers, payload: { confirm: 'ELIMINAR' } })).statusCode).toBe(204);
    expect(await whereFound('Suspendido Borrable')).toEqual([]);
  });

  it('keeps an uploaded image another profile uses, and removes uploads never saved', async () => {
    const { id, headers } = await googleUser();
    const shared = await upload(headers, 'avatar');
    const unsaved = await upload(headers, 'banner');
    await app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { avatarUrl: shared.url } });
    await buildUser(database.db, { avatarUrl: shared.url });
    expect((await app.inject({ method: 'DELETE', url: '/api/me', headers, payload: { confirm: 'ELIMINAR' } })).statusCode).toBe(204);
    expect(await exists(mediaPath(shared.url))).toBe(true);
    expect(
      await database.db
        .select()
        .from(schema.media)
        .where(eq(schema.media.key, shared.url.slice('/media/'.length))),
    ).toHaveLength(1);
    expect(await exists(mediaPath(unsaved.url))).toBe(false);
    expect(await database.db.select().from(schema.media).where(eq(schema.media.uploadedBy, id))).toHaveLength(1);
  });
});
