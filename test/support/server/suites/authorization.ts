// Who may call what: one table of every /api, /auth and /ws route of the real app, each called
// with a request that works for an allowed caller, as every kind of caller. Refused callers get
// 401/403 and change nothing in the database. A route missing from the table fails the test.
// Routes acting on a user's own rows are called again by other users on the owner's rows; every
// live topic family of the server's registry is subscribed to as every kind of caller.
// The tests are server/src/authorization*.test.ts: the table split in parts, so that the parts run
// in parallel (each file has its own app and database).
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LiveErrorMessage, LiveTopicFamily } from '@tribuna/contracts/live';
import type { InjectOptions, RouteOptions } from 'fastify';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildComment, buildPoll, buildPost, buildUser } from '../../factories.ts';
import type { App } from '../../../../server/src/app.ts';
import { CALLER_KINDS, signInCallers, type Caller, type CallerKind } from '../callers.ts';
import { insertTotpFactor, totpCode } from '../factors.ts';
import { useListeningTestApp } from '../harness.ts';
import { asUser, XHR } from '../sessions.ts';
import { connectWs, openWs } from '../wsClient.ts';
import { multipart } from '../multipart.ts';
import { smallClip } from '../videos.ts';
import { failedJob } from '../queues.ts';
import { changedTables, tableDigests } from '../fuzz/fingerprint.ts';

/**
 * - everyone: visitors included;
 * - session: any live session, a sign-in still owing its second factor included (second factor steps);
 * - user: a full session, suspended accounts included (reading and managing the own account);
 * - writer: a full session of an account that is not suspended;
 * - admin: the admin role, not suspended (REQUIRE_ADMIN_MFA: verified with the second factor too);
 * - staff: the moderation queue (issue 29): admins as above, and moderators who are not suspended.
 */
type Audience = 'everyone' | 'session' | 'user' | 'writer' | 'admin' | 'staff';
type Who = CallerKind | 'visitor';
type Expectation = 'allowed' | 401 | 403;

interface World {
  app: App;
  callers: Record<CallerKind, Caller>;
  poll: Awaited<ReturnType<typeof buildPoll>>;
  /** A fan nobody is acting as: what admins act on. */
  target: { id: string };
  suspendedTarget: { id: string };
  /** A public post of `target`, with a comment of theirs. */
  post: { id: string };
  comment: { id: string };
}

/** Rows only some may see: what topics refuse as `not-found`. */
interface TopicWorld extends World {
  draftPoll: { id: string };
  hiddenPost: { id: string };
  /** A post in a private group nobody acting here belongs to (admins see every post). */
  privateGroupPost: { id: string };
  /** A followers-only post of `target`, whom nobody acting here follows (admins see every post). */
  followersPost: { id: string };
  /** A public group, and a private one nobody acting here belongs to (its card is public, its topic forbidden). */
  publicGroup: { id: string };
  privateGroup: { id: string };
}

interface CallContext {
  world: World;
  who: Who;
  /** The caller's cookie and X-Requested-With (just X-Requested-With for visitors). */
  headers: Record<string, string>;
  /** The caller's user (a plain fan's for visitors, so that ownership checks are not what refuses them). */
  userId: string;
}

interface RouteAccess {
  audience: Audience;
  /** A request that succeeds for an allowed caller (a 2xx or a redirect). */
  request: (context: CallContext) => Promise<InjectOptions> | InjectOptions;
}

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** The tests' push service origin (issue 31): the only http endpoints a subscription may name here. */
const PUSH_TEST_ORIGIN = 'http://127.0.0.1:4100';

/** A verified factor of the caller's user, with a challenge opened by the caller's own session when it has one. */
async function factorOf(context: CallContext, withChallenge: boolean): Promise<{ factorId: string; challengeId: string }> {
  const { app } = context.world;
  const factor = await insertTotpFactor(app.database.db, app.config, { userId: context.userId, secret: TOTP_SECRET });
  if (!withChallenge || context.who === 'visitor') return { factorId: factor.id, challengeId: '123e4567-e89b-42d3-a456-426614174000' };
  const res = await app.inject({ method: 'POST', url: `/api/auth/factors/${factor.id}/challenge`, headers: context.headers });
  expect(res.statusCode).toBe(200);
  return { factorId: factor.id, challengeId: res.json<{ challengeId: string }>().challengeId };
}

const get =
  (url: string) =>
  (context: CallContext): InjectOptions => ({ method: 'GET', url, headers: context.headers });

/** A multipart request (posts and comments with images) as the caller. */
function upload(url: string, fields: Record<string, string>, context: CallContext): InjectOptions {
  const body = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  return { method: 'POST', url, headers: { ...context.headers, ...body.headers }, payload: body.payload };
}

/** A video post (a 2-second clip) as the caller. */
async function videoUpload(context: CallContext): Promise<InjectOptions> {
  const body = multipart([
    { name: 'content', value: 'Mi video' },
    { name: 'video', filename: 'clip.mp4', type: 'video/mp4', data: await smallClip() },
  ]);
  return { method: 'POST', url: '/api/posts/video', headers: { ...context.headers, ...body.headers }, payload: body.payload };
}

/** An avatar or banner upload (a 1×1 PNG) as the caller. */
function profileImage(url: string, context: CallContext): InjectOptions {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const body = multipart([{ name: 'image', filename: 'yo.png', type: 'image/png', data: png }]);
  return { method: 'POST', url, headers: { ...context.headers, ...body.headers }, payload: body.payload };
}

/** A post of the target reported by a fan nobody acts as: what the moderation queue acts on. */
async function reportedPost(context: CallContext) {
  const db = context.world.app.database.db;
  const post = await buildPost(db, context.world.target.id);
  const reporter = await buildUser(db);
  await db
    .insert(schema.reports)
    .values({ reporterId: reporter.id, targetType: 'post', targetId: post.id, targetUserId: context.world.target.id, reason: 'spam' });
  return post;
}

/** A post (and a comment on it) of the caller's own user: what owners edit and delete. */
async function ownPost(context: CallContext) {
  const post = await buildPost(context.world.app.database.db, context.userId);
  const comment = await buildComment(context.world.app.database.db, post.id, context.userId);
  return { post, comment };
}

/** A browser's push subscription (issue 31): an endpoint on the tests' push service origin (MODES' PUSH_TEST_ENDPOINT_ORIGINS), real keys. */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `${PUSH_TEST_ORIGIN}/push/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** A push device (subscription) of `userId`, written directly. */
async function pushDevice(context: CallContext, userId: string): Promise<string> {
  const { endpoint, keys } = pushSubscription();
  const [row] = await context.world.app.database.sql<{ id: string }[]>`
    INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, browser) VALUES (${userId}, ${endpoint}, ${keys.p256dh}, ${keys.auth}, 'Chrome en Android')
    RETURNING id`;
  return row!.id;
}

/**
 * A group run by `ownerId` (the caller unless another is named) as its only admin, with a plain
 * member, a pending request, a ban and a post of the member: what the groups' routes act on.
 */
async function groupOf(context: CallContext, privacy: 'public' | 'private' = 'private', ownerId = context.userId) {
  const { db, sql } = context.world.app.database;
  const [group] = await sql<
    { id: string }[]
  >`INSERT INTO groups (name, privacy, created_by) VALUES (${`Grupo de ${context.who}`}, ${privacy}, ${ownerId}) RETURNING id`;
  const [member, asker, banned] = await Promise.all([buildUser(db), buildUser(db), buildUser(db)]);
  const id = group!.id;
  await sql`INSERT INTO group_members (group_id, user_id, role) VALUES (${id}, ${ownerId}, 'admin'), (${id}, ${member.id}, 'member')`;
  await sql`INSERT INTO group_join_requests (group_id, user_id) VALUES (${id}, ${asker.id})`;
  await sql`INSERT INTO group_bans (group_id, user_id) VALUES (${id}, ${banned.id})`;
  const post = await buildPost(db, member.id, { groupId: id, visibility: 'group' });
  return { id, member, asker, banned, post };
}

/** The group routes a group's admin calls, on the group `groupOf` builds for `ownerId`. */
const groupAdminRequests = (ownerId: (c: CallContext) => string) => ({
  'PATCH /api/groups/:groupId': async (c: CallContext): Promise<InjectOptions> => ({
    method: 'PATCH',
    url: `/api/groups/${(await groupOf(c, 'private', ownerId(c))).id}`,
    headers: c.headers,
    payload: { description: `Editado por ${c.who}` },
  }),
  'DELETE /api/groups/:groupId': async (c: CallContext): Promise<InjectOptions> => ({
    method: 'DELETE',
    url: `/api/groups/${(await groupOf(c, 'private', ownerId(c))).id}`,
    headers: c.headers,
  }),
  'PATCH /api/groups/:groupId/members/:userId': async (c: CallContext): Promise<InjectOptions> => {
    const group = await groupOf(c, 'private', ownerId(c));
    return { method: 'PATCH', url: `/api/groups/${group.id}/members/${group.member.id}`, headers: c.headers, payload: { role: 'moderator' } };
  },
  'DELETE /api/groups/:groupId/members/:userId': async (c: CallContext): Promise<InjectOptions> => {
    const group = await groupOf(c, 'private', ownerId(c));
    return { method: 'DELETE', url: `/api/groups/${group.id}/members/${group.member.id}?ban=true`, headers: c.headers };
  },
  'GET /api/groups/:groupId/requests': async (c: CallContext): Promise<InjectOptions> =>
    get(`/api/groups/${(await groupOf(c, 'private', ownerId(c))).id}/requests`)(c),
  'POST /api/groups/:groupId/requests/:userId': async (c: CallContext): Promise<InjectOptions> => {
    const group = await groupOf(c, 'private', ownerId(c));
    return { method: 'POST', url: `/api/groups/${group.id}/requests/${group.asker.id}`, headers: c.headers, payload: { approve: true } };
  },
  'GET /api/groups/:groupId/bans': async (c: CallContext): Promise<InjectOptions> => get(`/api/groups/${(await groupOf(c, 'private', ownerId(c))).id}/bans`)(c),
  'DELETE /api/groups/:groupId/bans/:userId': async (c: CallContext): Promise<InjectOptions> => {
    const group = await groupOf(c, 'private', ownerId(c));
    return { method: 'DELETE', url: `/api/groups/${group.id}/bans/${group.banned.id}`, headers: c.headers };
  },
  'PUT /api/posts/:postId/pin': async (c: CallContext): Promise<InjectOptions> => ({
    method: 'PUT',
    // A public group's post: others see it, and are refused as not its moderators (a private one's: UNSEEN).
    url: `/api/posts/${(await groupOf(c, 'public', ownerId(c))).post.id}/pin`,
    headers: c.headers,
    payload: { pinned: true },
  }),
});

/** Writers (suspended accounts refused) but for the lists of requests and bans, which their admins read whatever. */
const GROUP_ADMIN_AUDIENCE: Record<string, Audience> = { 'GET /api/groups/:groupId/requests': 'user', 'GET /api/groups/:groupId/bans': 'user' };

const ACCESS: Record<string, RouteAccess> = {
  // --- groups ---
  'GET /api/groups': { audience: 'everyone', request: get('/api/groups?q=grupo') },
  'POST /api/groups': {
    audience: 'writer',
    request: (c) => ({ method: 'POST', url: '/api/groups', headers: c.headers, payload: { name: `Club de ${c.who}`, privacy: 'private' } }),
  },
  'GET /api/groups/:groupId': { audience: 'everyone', request: async (c) => get(`/api/groups/${(await groupOf(c, 'private', c.world.target.id)).id}`)(c) },
  'GET /api/groups/:groupId/members': {
    audience: 'everyone',
    request: async (c) => get(`/api/groups/${(await groupOf(c, 'public', c.world.target.id)).id}/members`)(c),
  },
  'POST /api/groups/:groupId/join': {
    audience: 'writer',
    request: async (c) => ({ method: 'POST', url: `/api/groups/${(await groupOf(c, 'private', c.world.target.id)).id}/join`, headers: c.headers }),
  },
  'POST /api/groups/:groupId/leave': {
    audience: 'user',
    // The caller is a member of the target's group: an allowed call takes them out.
    request: async (c) => {
      const group = await groupOf(c, 'public', c.world.target.id);
      await c.world.app.database.sql`INSERT INTO group_members (group_id, user_id) VALUES (${group.id}, ${c.userId})`;
      return { method: 'POST', url: `/api/groups/${group.id}/leave`, headers: c.headers, payload: {} };
    },
  },
  ...Object.fromEntries(
    Object.entries(groupAdminRequests((c) => c.userId)).map(([key, request]) => [key, { audience: GROUP_ADMIN_AUDIENCE[key] ?? 'writer', request }]),
  ),
  'GET /api/admin/users/:userId/groups': { audience: 'admin', request: (c) => get(`/api/admin/users/${c.world.target.id}/groups`)(c) },
  'DELETE /api/admin/groups/:groupId': {
    audience: 'admin',
    request: async (c) => ({ method: 'DELETE', url: `/api/admin/groups/${(await groupOf(c, 'private', c.world.target.id)).id}`, headers: c.headers }),
  },
  'GET /api/health': { audience: 'everyone', request: get('/api/health') },
  'GET /api/site': { audience: 'everyone', request: get('/api/site') },
  'GET /api/docs': { audience: 'everyone', request: get('/api/docs') },
  'GET /api/docs/json': { audience: 'everyone', request: get('/api/docs/json') },
  'GET /api/docs/yaml': { audience: 'everyone', request: get('/api/docs/yaml') },
  'GET /api/docs/static/index.html': { audience: 'everyone', request: get('/api/docs/static/index.html') },
  'GET /api/docs/static/swagger-initializer.js': { audience: 'everyone', request: get('/api/docs/static/swagger-initializer.js') },
  'GET /api/docs/static/*': { audience: 'everyone', request: get('/api/docs/static/swagger-ui.css') },
  'GET /api/polls/home': { audience: 'everyone', request: get('/api/polls/home') },
  'GET /api/polls': { audience: 'everyone', request: get('/api/polls') },
  'GET /api/polls/:pollId': { audience: 'everyone', request: (c) => get(`/api/polls/${c.world.poll.poll.id}`)(c) },
  'GET /api/polls/:pollId/results': { audience: 'everyone', request: (c) => get(`/api/polls/${c.world.poll.poll.id}/results`)(c) },
  'GET /api/polls/:pollId/card.png': { audience: 'everyone', request: (c) => get(`/api/polls/${c.world.poll.poll.id}/card.png`)(c) },
  'POST /api/polls/:pollId/votes': {
    audience: 'writer',
    request: (c) => ({
      method: 'POST',
      url: `/api/polls/${c.world.poll.poll.id}/votes`,
      headers: c.headers,
      payload: { optionId: c.world.poll.options[0]!.id, deviceFingerprint: 'device-fingerprint-1' },
    }),
  },
  'GET /api/polls/:pollId/my-votes': { audience: 'user', request: (c) => get(`/api/polls/${c.world.poll.poll.id}/my-votes`)(c) },
  'GET /api/polls/:pollId/available-points': { audience: 'user', request: (c) => get(`/api/polls/${c.world.poll.poll.id}/available-points`)(c) },
  'POST /api/polls/:pollId/shares': {
    audience: 'writer',
    request: (c) => ({ method: 'POST', url: `/api/polls/${c.world.poll.poll.id}/shares`, headers: c.headers, payload: { platform: 'whatsapp' } }),
  },
  'POST /api/page-views': {
    audience: 'everyone',
    request: (c) => ({
      method: 'POST',
      url: '/api/page-views',
      headers: c.headers,
      payload: { path: '/encuestas', referrer: null, sessionId: 'visit-session-1', deviceType: 'mobile' },
    }),
  },
  'GET /api/me': { audience: 'user', request: get('/api/me') },
  'DELETE /api/me': { audience: 'user', request: (c) => ({ method: 'DELETE', url: '/api/me', headers: c.headers, payload: { confirm: 'ELIMINAR' } }) },
  // --- profiles ---
  'PATCH /api/me': { audience: 'writer', request: (c) => ({ method: 'PATCH', url: '/api/me', headers: c.headers, payload: { bio: 'Fan del reality' } }) },
  'POST /api/me/avatar': { audience: 'writer', request: (c) => profileImage('/api/me/avatar', c) },
  'POST /api/me/banner': { audience: 'writer', request: (c) => profileImage('/api/me/banner', c) },
  'GET /api/profiles/:userId': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}`)(c) },
  'GET /api/profiles/:userId/stats': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}/stats`)(c) },
  'GET /api/profiles/:userId/votes': { audience: 'user', request: (c) => get(`/api/profiles/${c.userId}/votes`)(c) },
  'GET /api/profiles/:userId/comments': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}/comments`)(c) },
  'GET /api/profiles/:userId/groups': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}/groups`)(c) },
  'PUT /api/profiles/:userId/follow': {
    audience: 'writer',
    request: (c) => ({ method: 'PUT', url: `/api/profiles/${c.world.target.id}/follow`, headers: c.headers }),
  },
  'DELETE /api/profiles/:userId/follow': {
    audience: 'user',
    // The caller follows the target first: an allowed call removes that follow (and its notification).
    request: async (c) => {
      await c.world.app.database.sql`INSERT INTO follows (follower_id, followee_id) VALUES (${c.userId}, ${c.world.target.id}) ON CONFLICT DO NOTHING`;
      return { method: 'DELETE', url: `/api/profiles/${c.world.target.id}/follow`, headers: c.headers };
    },
  },
  'GET /api/profiles/:userId/followers': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}/followers`)(c) },
  'GET /api/profiles/:userId/following': { audience: 'everyone', request: (c) => get(`/api/profiles/${c.world.target.id}/following`)(c) },
  // --- mutes and blocks (issue 29): the caller's own, of the profile named; suspended fans may still protect themselves ---
  'PUT /api/profiles/:userId/mute': {
    audience: 'user',
    request: (c) => ({ method: 'PUT', url: `/api/profiles/${c.world.target.id}/mute`, headers: c.headers }),
  },
  'DELETE /api/profiles/:userId/mute': {
    audience: 'user',
    // The caller muted the target first: an allowed call removes that mute.
    request: async (c) => {
      await c.world.app.database.sql`INSERT INTO user_mutes (user_id, muted_id) VALUES (${c.userId}, ${c.world.target.id}) ON CONFLICT DO NOTHING`;
      return { method: 'DELETE', url: `/api/profiles/${c.world.target.id}/mute`, headers: c.headers };
    },
  },
  'PUT /api/profiles/:userId/block': {
    audience: 'user',
    request: (c) => ({ method: 'PUT', url: `/api/profiles/${c.world.target.id}/block`, headers: c.headers }),
  },
  'DELETE /api/profiles/:userId/block': {
    audience: 'user',
    // The caller blocked the target first: an allowed call removes that block.
    request: async (c) => {
      await c.world.app.database.sql`INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (${c.userId}, ${c.world.target.id}) ON CONFLICT DO NOTHING`;
      return { method: 'DELETE', url: `/api/profiles/${c.world.target.id}/block`, headers: c.headers };
    },
  },
  'GET /api/me/muted': { audience: 'user', request: get('/api/me/muted') },
  'GET /api/me/blocked': { audience: 'user', request: get('/api/me/blocked') },
  'GET /api/auth/session': { audience: 'everyone', request: get('/api/auth/session') },
  'POST /auth/logout': { audience: 'everyone', request: (c) => ({ method: 'POST', url: '/auth/logout', headers: c.headers }) },
  'GET /auth/google': { audience: 'everyone', request: get('/auth/google') },
  'GET /auth/google/callback': { audience: 'everyone', request: get('/auth/google/callback?code=abc&state=def') },
  'GET /api/auth/factors': { audience: 'user', request: get('/api/auth/factors') },
  'POST /api/auth/factors': { audience: 'user', request: (c) => ({ method: 'POST', url: '/api/auth/factors', headers: c.headers }) },
  'POST /api/auth/factors/:id/challenge': {
    audience: 'session',
    request: async (c) => ({ method: 'POST', url: `/api/auth/factors/${(await factorOf(c, false)).factorId}/challenge`, headers: c.headers }),
  },
  'POST /api/auth/factors/:id/verify': {
    audience: 'session',
    request: async (c) => {
      const { factorId, challengeId } = await factorOf(c, true);
      return { method: 'POST', url: `/api/auth/factors/${factorId}/verify`, headers: c.headers, payload: { challengeId, code: totpCode(TOTP_SECRET) } };
    },
  },
  'DELETE /api/auth/factors/:id': {
    audience: 'user',
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/auth/factors/${(await factorOf(c, false)).factorId}`,
      headers: c.headers,
      payload: { code: totpCode(TOTP_SECRET) },
    }),
  },
  'GET /api/auth/dev/users': { audience: 'everyone', request: get('/api/auth/dev/users') },
  'POST /api/auth/dev/login': {
    audience: 'everyone',
    request: (c) => ({ method: 'POST', url: '/api/auth/dev/login', headers: c.headers, payload: { displayName: 'Fan nuevo' } }),
  },
  // --- admin catalogue (realities, seasons, contestants, contestant photos) ---
  'GET /api/admin/realities': { audience: 'admin', request: get('/api/admin/realities?includeDeleted=true') },
  'POST /api/admin/realities': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: '/api/admin/realities', headers: c.headers, payload: { name: 'Reality nuevo' } }),
  },
  'PATCH /api/admin/realities/:realityId': {
    audience: 'admin',
    request: (c) => ({ method: 'PATCH', url: `/api/admin/realities/${c.world.poll.reality.id}`, headers: c.headers, payload: { active: false } }),
  },
  'DELETE /api/admin/realities/:realityId': {
    audience: 'admin',
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/admin/realities/${(await buildPoll(c.world.app.database.db, { options: 0 })).reality.id}`,
      headers: c.headers,
    }),
  },
  'POST /api/admin/realities/:realityId/restore': {
    audience: 'admin',
    // A deleted reality of its own per caller: a restored one is no longer deleted.
    request: async (c) => {
      const { reality } = await buildPoll(c.world.app.database.db, { options: 0 });
      await c.world.app.database.sql`UPDATE realities SET deleted_at = now(), active = false WHERE id = ${reality.id}`;
      return { method: 'POST', url: `/api/admin/realities/${reality.id}/restore`, headers: c.headers };
    },
  },
  'GET /api/admin/seasons': { audience: 'admin', request: (c) => get(`/api/admin/seasons?realityId=${c.world.poll.reality.id}&includeDeleted=true`)(c) },
  'POST /api/admin/seasons': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: '/api/admin/seasons', headers: c.headers, payload: { realityId: c.world.poll.reality.id, year: 2026 } }),
  },
  'PATCH /api/admin/seasons/:seasonId': {
    audience: 'admin',
    request: (c) => ({ method: 'PATCH', url: `/api/admin/seasons/${c.world.poll.season.id}`, headers: c.headers, payload: { year: 2026 } }),
  },
  'DELETE /api/admin/seasons/:seasonId': {
    audience: 'admin',
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/admin/seasons/${(await buildPoll(c.world.app.database.db, { options: 0 })).season.id}`,
      headers: c.headers,
    }),
  },
  'POST /api/admin/seasons/:seasonId/restore': {
    audience: 'admin',
    // A deleted season of its own per caller: a restored one is no longer deleted.
    request: async (c) => {
      const { season } = await buildPoll(c.world.app.database.db, { options: 0 });
      await c.world.app.database.sql`UPDATE seasons SET deleted_at = now(), active = false WHERE id = ${season.id}`;
      return { method: 'POST', url: `/api/admin/seasons/${season.id}/restore`, headers: c.headers };
    },
  },
  'GET /api/admin/contestants': { audience: 'admin', request: (c) => get(`/api/admin/contestants?seasonId=${c.world.poll.season.id}&includeDeleted=true`)(c) },
  'POST /api/admin/contestants': {
    audience: 'admin',
    request: (c) => ({
      method: 'POST',
      url: '/api/admin/contestants',
      headers: c.headers,
      payload: { seasonId: c.world.poll.season.id, fullName: 'Concursante nueva' },
    }),
  },
  'PATCH /api/admin/contestants/:contestantId': {
    audience: 'admin',
    request: (c) => ({
      method: 'PATCH',
      url: `/api/admin/contestants/${c.world.poll.options[0]!.contestantId}`,
      headers: c.headers,
      payload: { status: 'eliminated', eliminationDate: '2025-05-01' },
    }),
  },
  'DELETE /api/admin/contestants/:contestantId': {
    audience: 'admin',
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/admin/contestants/${(await buildPoll(c.world.app.database.db, { options: 1 })).options[0]!.contestantId}`,
      headers: c.headers,
    }),
  },
  'POST /api/admin/contestants/:contestantId/restore': {
    audience: 'admin',
    // A deleted contestant of its own per caller: a restored one is no longer deleted.
    request: async (c) => {
      const contestantId = (await buildPoll(c.world.app.database.db, { options: 1 })).options[0]!.contestantId!;
      await c.world.app.database.sql`UPDATE contestants SET deleted_at = now() WHERE id = ${contestantId}`;
      return { method: 'POST', url: `/api/admin/contestants/${contestantId}/restore`, headers: c.headers };
    },
  },
  'POST /api/admin/contestant-photos': {
    audience: 'admin',
    request: (c) => {
      // A 1×1 PNG.
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
      const body = multipart([{ name: 'image', filename: 'foto.png', type: 'image/png', data: png }]);
      return { method: 'POST', url: '/api/admin/contestant-photos', headers: { ...c.headers, ...body.headers }, payload: body.payload };
    },
  },
  // --- admin reports ---
  'GET /api/admin/reports': { audience: 'admin', request: get('/api/admin/reports?period=week') },
  'POST /api/admin/reports/recompute': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: '/api/admin/reports/recompute', headers: c.headers }),
  },
  // --- admin abuse report ---
  'GET /api/admin/abuse/scans/latest': { audience: 'admin', request: get('/api/admin/abuse/scans/latest') },
  'POST /api/admin/abuse/scans': { audience: 'admin', request: (c) => ({ method: 'POST', url: '/api/admin/abuse/scans', headers: c.headers }) },
  'GET /api/admin/abuse/votes': { audience: 'admin', request: (c) => get(`/api/admin/abuse/votes?userId=${c.world.target.id}`)(c) },
  'POST /api/admin/abuse/votes/void': {
    audience: 'admin',
    // A vote of its own per caller: a refused caller must leave it where it is.
    request: async (c) => {
      const [vote] = await c.world.app.database.db
        .insert(schema.votes)
        .values({ pollId: c.world.poll.poll.id, optionId: c.world.poll.options[0]!.id, userId: c.world.target.id, deviceFingerprint: 'shared-device' })
        .returning();
      return { method: 'POST', url: '/api/admin/abuse/votes/void', headers: c.headers, payload: { voteIds: [String(vote!.id)], reason: 'Cuenta duplicada' } };
    },
  },
  'POST /api/admin/abuse/votes/restore': {
    audience: 'admin',
    request: async (c) => {
      const id = Math.floor(Math.random() * 1e12) + 1e12;
      await c.world.app.database.db.insert(schema.voidedVotes).values({
        id,
        pollId: c.world.poll.poll.id,
        optionId: c.world.poll.options[1]!.id,
        userId: c.world.target.id,
        points: 1,
        createdAt: new Date(),
        voidReason: 'Cuenta duplicada',
      });
      return { method: 'POST', url: '/api/admin/abuse/votes/restore', headers: c.headers, payload: { voteIds: [String(id)] } };
    },
  },
  // --- admin polls and dashboard ---
  'GET /api/admin/dashboard': { audience: 'admin', request: get('/api/admin/dashboard') },
  'GET /api/admin/polls': { audience: 'admin', request: get('/api/admin/polls') },
  'POST /api/admin/polls': {
    audience: 'admin',
    request: (c) => ({
      method: 'POST',
      url: '/api/admin/polls',
      headers: c.headers,
      payload: {
        title: 'Nueva encuesta',
        seasonId: c.world.poll.season.id,
        voteMode: 'single',
        optionType: 'contestants',
        status: 'draft',
        options: c.world.poll.options.map((o) => ({ contestantId: o.contestantId! })),
      },
    }),
  },
  'PUT /api/admin/polls/:pollId': {
    audience: 'admin',
    request: (c) => ({
      method: 'PUT',
      url: `/api/admin/polls/${c.world.poll.poll.id}`,
      headers: c.headers,
      payload: { title: 'Editada', options: c.world.poll.options.map((o) => ({ id: o.id, contestantId: o.contestantId! })) },
    }),
  },
  'POST /api/admin/polls/:pollId/status': {
    audience: 'admin',
    // A poll of its own per caller: closing it twice would be refused.
    request: async (c) => ({
      method: 'POST',
      url: `/api/admin/polls/${(await buildPoll(c.world.app.database.db)).poll.id}/status`,
      headers: c.headers,
      payload: { status: 'closed' },
    }),
  },
  'POST /api/admin/polls/:pollId/feature': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: `/api/admin/polls/${c.world.poll.poll.id}/feature`, headers: c.headers }),
  },
  'DELETE /api/admin/polls/:pollId': {
    audience: 'admin',
    request: async (c) => ({ method: 'DELETE', url: `/api/admin/polls/${(await buildPoll(c.world.app.database.db)).poll.id}`, headers: c.headers }),
  },
  'POST /api/admin/users/:userId/suspend': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: `/api/admin/users/${c.world.target.id}/suspend`, headers: c.headers }),
  },
  'POST /api/admin/users/:userId/unsuspend': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: `/api/admin/users/${c.world.suspendedTarget.id}/unsuspend`, headers: c.headers }),
  },
  // --- admin users, audit log, queues ---
  'GET /api/admin/users': { audience: 'admin', request: get('/api/admin/users?q=fan&status=all') },
  'PATCH /api/admin/users/:userId': {
    audience: 'admin',
    request: (c) => ({ method: 'PATCH', url: `/api/admin/users/${c.world.target.id}`, headers: c.headers, payload: { bio: `Bio de ${c.who}` } }),
  },
  'POST /api/admin/users/:userId/points': {
    audience: 'admin',
    request: (c) => ({ method: 'POST', url: `/api/admin/users/${c.world.target.id}/points`, headers: c.headers, payload: { points: 5 } }),
  },
  'GET /api/admin/users/:userId/stats': { audience: 'admin', request: (c) => get(`/api/admin/users/${c.world.target.id}/stats`)(c) },
  'GET /api/admin/audit': { audience: 'admin', request: get('/api/admin/audit?action=user.update') },
  'GET /api/admin/audit/filters': { audience: 'admin', request: get('/api/admin/audit/filters') },
  'GET /api/admin/queues': { audience: 'admin', request: get('/api/admin/queues') },
  'POST /api/admin/queues/:queue/jobs/:jobId/retry': {
    audience: 'admin',
    // A failed job of its own per caller: a retried job is no longer failed.
    request: async (c) => ({
      method: 'POST',
      url: `/api/admin/queues/maintenance/jobs/${(await failedJob(c.world.app, 'maintenance')).id}/retry`,
      headers: c.headers,
    }),
  },
  'GET /api/posts': { audience: 'everyone', request: get('/api/posts') },
  'GET /api/posts/:postId': { audience: 'everyone', request: (c) => get(`/api/posts/${c.world.post.id}`)(c) },
  'GET /api/posts/:postId/comments': { audience: 'everyone', request: (c) => get(`/api/posts/${c.world.post.id}/comments`)(c) },
  'POST /api/posts': { audience: 'writer', request: (c) => upload('/api/posts', { content: 'Hola muro' }, c) },
  'POST /api/posts/video': { audience: 'writer', request: videoUpload },
  'GET /api/me/video-uploads': { audience: 'user', request: get('/api/me/video-uploads') },
  'PATCH /api/posts/:postId': {
    audience: 'writer',
    request: async (c) => ({ method: 'PATCH', url: `/api/posts/${(await ownPost(c)).post.id}`, headers: c.headers, payload: { content: 'Editado' } }),
  },
  'DELETE /api/posts/:postId': {
    audience: 'writer',
    request: async (c) => ({ method: 'DELETE', url: `/api/posts/${(await ownPost(c)).post.id}`, headers: c.headers }),
  },
  'POST /api/posts/:postId/reactions': {
    audience: 'writer',
    request: (c) => ({ method: 'POST', url: `/api/posts/${c.world.post.id}/reactions`, headers: c.headers, payload: { type: 'wow' } }),
  },
  'POST /api/posts/:postId/comments': {
    audience: 'writer',
    request: (c) => upload(`/api/posts/${c.world.post.id}/comments`, { content: 'Buen punto', parentCommentId: c.world.comment.id }, c),
  },
  'PATCH /api/comments/:commentId': {
    audience: 'writer',
    request: async (c) => ({ method: 'PATCH', url: `/api/comments/${(await ownPost(c)).comment.id}`, headers: c.headers, payload: { content: 'Corregido' } }),
  },
  'DELETE /api/comments/:commentId': {
    audience: 'writer',
    request: async (c) => ({ method: 'DELETE', url: `/api/comments/${(await ownPost(c)).comment.id}`, headers: c.headers }),
  },
  'POST /api/comments/:commentId/reactions': {
    audience: 'writer',
    request: (c) => ({ method: 'POST', url: `/api/comments/${c.world.comment.id}/reactions`, headers: c.headers, payload: { type: 'like' } }),
  },
  // --- reports and the moderation queue (issue 29) ---
  // Reporting the target's post: each caller its own open report (suspended fans may report too).
  'POST /api/reports': {
    audience: 'user',
    request: (c) => ({ method: 'POST', url: '/api/reports', headers: c.headers, payload: { targetType: 'post', targetId: c.world.post.id, reason: 'spam' } }),
  },
  'GET /api/moderation/queue': { audience: 'staff', request: get('/api/moderation/queue?status=open') },
  'GET /api/moderation/count': { audience: 'staff', request: get('/api/moderation/count') },
  'POST /api/moderation/actions': {
    audience: 'staff',
    // A reported post of its own per caller: a hidden one cannot be hidden again.
    request: async (c) => ({
      method: 'POST',
      url: '/api/moderation/actions',
      headers: c.headers,
      payload: { targetType: 'post', targetId: (await reportedPost(c)).id, action: 'hide', reason: `Revisado por ${c.who}` },
    }),
  },
  // --- notifications (one's own: suspended accounts read theirs too) ---
  'GET /api/notifications': { audience: 'user', request: get('/api/notifications') },
  'GET /api/notifications/unread': { audience: 'user', request: get('/api/notifications/unread') },
  'POST /api/notifications/read': { audience: 'user', request: (c) => ({ method: 'POST', url: '/api/notifications/read', headers: c.headers, payload: {} }) },
  // --- web push (issue 31): the key for anyone; one's own devices and preferences (suspended accounts too); broadcasts for admins ---
  'GET /api/push/config': { audience: 'everyone', request: get('/api/push/config') },
  'GET /api/me/push': { audience: 'user', request: get('/api/me/push') },
  'POST /api/me/push/subscriptions': {
    audience: 'user',
    request: (c) => ({ method: 'POST', url: '/api/me/push/subscriptions', headers: c.headers, payload: pushSubscription() }),
  },
  'DELETE /api/me/push/subscriptions/:deviceId': {
    audience: 'user',
    // A device of the caller's own: an allowed call removes it.
    request: async (c) => ({ method: 'DELETE', url: `/api/me/push/subscriptions/${await pushDevice(c, c.userId)}`, headers: c.headers }),
  },
  'PUT /api/me/push/preferences': {
    audience: 'user',
    request: (c) => ({
      method: 'PUT',
      url: '/api/me/push/preferences',
      headers: c.headers,
      payload: { poll_opened: true, poll_closing: false, replies: true, mentions: true, reactions: true, follows: false, groups: true },
    }),
  },
  'POST /api/admin/polls/:pollId/notify': {
    audience: 'admin',
    // A poll of its own per caller: a poll is notified once.
    request: async (c) => ({ method: 'POST', url: `/api/admin/polls/${(await buildPoll(c.world.app.database.db)).poll.id}/notify`, headers: c.headers }),
  },
  'GET /api/admin/push/broadcasts': { audience: 'admin', request: get('/api/admin/push/broadcasts') },
  // Swagger UI's trailing-slash twin of /api/docs (its GET is registered without an onRoute call).
  'HEAD /api/docs/': { audience: 'everyone', request: (c) => ({ method: 'HEAD', url: '/api/docs/', headers: c.headers }) },
  // Checked over a real websocket (see below): visitors may watch live results too.
  'GET /ws': { audience: 'everyone', request: get('/ws') },
};

/**
 * Owner-only routes called by ANOTHER user on the owner's (world.target's) rows: refused (403, or
 * 401 for a sign-in owing its second factor) and nothing written, except for who moderates
 * (admins delete any post or comment). `victim` reads the owner's rows the call must leave as they
 * are whoever calls, allowed or not.
 */
interface OtherAccess {
  request: (context: CallContext) => Promise<InjectOptions> | InjectOptions;
  /** Admins may do it to anyone's rows (with REQUIRE_ADMIN_MFA: verified with the second factor). */
  moderated?: boolean;
  /** Site moderators may too (issue 29: the wall's delete). */
  moderators?: boolean;
  /** Routes that only ever act on the caller's own rows: allowed, and the owner's rows untouched. */
  ownRowsOnly?: boolean;
  /** Refused as if the owner's row did not exist (404, admins included): the route names only the caller's own rows (push devices). */
  notFound?: boolean;
  victim?: (world: World) => Promise<unknown>;
}

/** A fresh post of the owner (world.target) with a comment of theirs: what others try to edit or delete. */
async function targetPost(context: CallContext) {
  const db = context.world.app.database.db;
  const post = await buildPost(db, context.world.target.id);
  return { post, comment: await buildComment(db, post.id, context.world.target.id) };
}

/** A verified factor of the owner, with a challenge id nobody acting here opened. */
async function targetFactor(context: CallContext): Promise<string> {
  const { app } = context.world;
  const factor = await insertTotpFactor(app.database.db, app.config, { userId: context.world.target.id, secret: TOTP_SECRET });
  return factor.id;
}

const OTHERS: Record<string, OtherAccess> = {
  // A group's admin routes on a group the owner runs: its admins', and site admins' (moderated).
  ...Object.fromEntries(
    Object.entries(groupAdminRequests((c) => c.world.target.id)).map(([key, request]) => [key, { moderated: true, request } satisfies OtherAccess]),
  ),
  'PATCH /api/posts/:postId': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/posts/${(await targetPost(c)).post.id}`,
      headers: c.headers,
      payload: { content: 'Editado por otro' },
    }),
  },
  'DELETE /api/posts/:postId': {
    moderated: true,
    moderators: true,
    request: async (c) => ({ method: 'DELETE', url: `/api/posts/${(await targetPost(c)).post.id}`, headers: c.headers }),
  },
  'PATCH /api/comments/:commentId': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/comments/${(await targetPost(c)).comment.id}`,
      headers: c.headers,
      payload: { content: 'Corregido por otro' },
    }),
  },
  'DELETE /api/comments/:commentId': {
    moderated: true,
    moderators: true,
    request: async (c) => ({ method: 'DELETE', url: `/api/comments/${(await targetPost(c)).comment.id}`, headers: c.headers }),
  },
  // Private to its owner: admins included.
  'GET /api/profiles/:userId/votes': { request: (c) => get(`/api/profiles/${c.world.target.id}/votes`)(c) },
  'POST /api/auth/factors/:id/challenge': {
    request: async (c) => ({ method: 'POST', url: `/api/auth/factors/${await targetFactor(c)}/challenge`, headers: c.headers }),
  },
  'POST /api/auth/factors/:id/verify': {
    request: async (c) => ({
      method: 'POST',
      url: `/api/auth/factors/${await targetFactor(c)}/verify`,
      headers: c.headers,
      payload: { challengeId: '123e4567-e89b-42d3-a456-426614174000', code: totpCode(TOTP_SECRET) },
    }),
  },
  'DELETE /api/auth/factors/:id': {
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/auth/factors/${await targetFactor(c)}`,
      headers: c.headers,
      payload: { code: totpCode(TOTP_SECRET) },
    }),
  },
  // 'Quitar' on another fan's device (issue 31): not found, whoever asks; the owner keeps it.
  'DELETE /api/me/push/subscriptions/:deviceId': {
    notFound: true,
    request: async (c) => ({ method: 'DELETE', url: `/api/me/push/subscriptions/${await pushDevice(c, c.world.target.id)}`, headers: c.headers }),
    victim: async (world) => world.app.database.sql`SELECT id FROM push_subscriptions WHERE user_id = ${world.target.id} ORDER BY id`,
  },
  // Marks the caller's own notifications read; the owner's stay unread.
  'POST /api/notifications/read': {
    ownRowsOnly: true,
    request: async (c) => {
      const db = c.world.app.database.db;
      const actor = await buildUser(db);
      await db.insert(schema.notifications).values({
        userId: c.world.target.id,
        actorId: actor.id,
        type: 'post_mention',
        postId: c.world.post.id,
        dedupeKey: `other-${c.who}-${Math.random()}`,
        groupKey: `other-${c.who}-${Math.random()}`,
      });
      return { method: 'POST', url: '/api/notifications/read', headers: c.headers, payload: {} };
    },
    victim: async (world) => world.app.database.sql`SELECT id, read_at FROM notifications WHERE user_id = ${world.target.id} ORDER BY id`,
  },
};

/**
 * Routes of a signed-in audience with a path parameter that names nothing owned by a user: anyone
 * allowed acts on the same row (a poll, another's post to react to or comment on), or on their own
 * rows whatever the parameter (the caller's votes of a poll).
 */
const NOT_OWNED = new Set([
  // Joining and leaving act on the caller's own membership, whatever the group.
  'POST /api/groups/:groupId/join',
  'POST /api/groups/:groupId/leave',
  'POST /api/polls/:pollId/votes',
  'GET /api/polls/:pollId/my-votes',
  'GET /api/polls/:pollId/available-points',
  'POST /api/polls/:pollId/shares',
  'POST /api/posts/:postId/reactions',
  'POST /api/posts/:postId/comments',
  'POST /api/comments/:commentId/reactions',
  // The caller's own follow of the profile named.
  'PUT /api/profiles/:userId/follow',
  'DELETE /api/profiles/:userId/follow',
  // The caller's own mute and block of the profile named (issue 29).
  'PUT /api/profiles/:userId/mute',
  'DELETE /api/profiles/:userId/mute',
  'PUT /api/profiles/:userId/block',
  'DELETE /api/profiles/:userId/block',
]);

/** A post of the owner (world.target) in a private group nobody acting here belongs to, with a comment of theirs. */
async function unseenPost(context: CallContext) {
  const db = context.world.app.database.db;
  const [group] = await db
    .insert(schema.groups)
    .values({ name: `Grupo privado ${Math.random()}`, privacy: 'private' })
    .returning();
  const post = await buildPost(db, context.world.target.id, { groupId: group!.id, visibility: 'group' });
  return { post, comment: await buildComment(db, post.id, context.world.target.id) };
}

/**
 * Edits and deletions of a post or comment the caller cannot see (in a private group they are not
 * a member of): 404 as for one that does not exist, never a 403 that would tell it does. Admins see
 * every post: they may delete it (`moderated`), not edit another's (403).
 */
const UNSEEN: Record<string, Pick<OtherAccess, 'request' | 'moderated'>> = {
  'PUT /api/posts/:postId/pin': {
    moderated: true,
    request: async (c) => ({ method: 'PUT', url: `/api/posts/${(await unseenPost(c)).post.id}/pin`, headers: c.headers, payload: { pinned: true } }),
  },
  'PATCH /api/posts/:postId': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/posts/${(await unseenPost(c)).post.id}`,
      headers: c.headers,
      payload: { content: 'Editado a ciegas' },
    }),
  },
  'DELETE /api/posts/:postId': {
    moderated: true,
    request: async (c) => ({ method: 'DELETE', url: `/api/posts/${(await unseenPost(c)).post.id}`, headers: c.headers }),
  },
  'PATCH /api/comments/:commentId': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/comments/${(await unseenPost(c)).comment.id}`,
      headers: c.headers,
      payload: { content: 'Corregido a ciegas' },
    }),
  },
  'DELETE /api/comments/:commentId': {
    moderated: true,
    request: async (c) => ({ method: 'DELETE', url: `/api/comments/${(await unseenPost(c)).comment.id}`, headers: c.headers }),
  },
};

function unseenExpectation(access: Pick<OtherAccess, 'moderated'>, who: CallerKind, requireAdminMfa: boolean): Expectation | 404 {
  if (who === 'mfaPending') return 401;
  if (who === 'suspendedFan' || who === 'suspendedAdmin') return 403;
  const verifiedAdmin = who === 'adminAal2' || (who === 'admin' && !requireAdminMfa);
  if (verifiedAdmin) return access.moderated ? 'allowed' : 403;
  return 404;
}

function otherExpectation(audience: Audience, access: OtherAccess, who: CallerKind, requireAdminMfa: boolean): Expectation | 404 {
  if (who === 'mfaPending' && audience !== 'session') return 401;
  if (audience === 'writer' && (who === 'suspendedFan' || who === 'suspendedAdmin')) return 403;
  if (access.ownRowsOnly) return 'allowed';
  if (access.notFound) return 404;
  if (access.moderators && who === 'moderator') return 'allowed';
  const verifiedAdmin = who === 'adminAal2' || (who === 'admin' && !requireAdminMfa);
  return access.moderated && verifiedAdmin ? 'allowed' : 403;
}

type TopicAudience = 'everyone' | 'self' | 'admin' | 'staff' | 'nobody';
type TopicOutcome = 'allowed' | 'forbidden' | 'not-found';

interface TopicAccess {
  audience: TopicAudience;
  /** How the topic is refused. */
  refusal: Exclude<TopicOutcome, 'allowed'>;
  /** The topic, for a caller whose user is `userId` (a plain fan's for visitors). */
  topic: (world: TopicWorld, userId: string) => string;
}

/** Every topic family a client may subscribe to (checked against the server's registry), in its shapes. */
const TOPICS: Record<LiveTopicFamily, Record<string, TopicAccess>> = {
  poll: {
    'poll:{id}': { audience: 'everyone', refusal: 'not-found', topic: (w) => `poll:${w.poll.poll.id}` },
    'poll:{id of a draft}': { audience: 'nobody', refusal: 'not-found', topic: (w) => `poll:${w.draftPoll.id}` },
  },
  feed: { feed: { audience: 'everyone', refusal: 'forbidden', topic: () => 'feed' } },
  post: {
    'post:{id}': { audience: 'everyone', refusal: 'not-found', topic: (w) => `post:${w.post.id}` },
    'post:{id of a private group post}': { audience: 'admin', refusal: 'not-found', topic: (w) => `post:${w.privateGroupPost.id}` },
    'post:{id of a followers-only post}': { audience: 'admin', refusal: 'not-found', topic: (w) => `post:${w.followersPost.id}` },
    'post:{id of a hidden post}': { audience: 'nobody', refusal: 'not-found', topic: (w) => `post:${w.hiddenPost.id}` },
  },
  group: {
    'group:{id}': { audience: 'everyone', refusal: 'not-found', topic: (w) => `group:${w.publicGroup.id}` },
    'group:{id of a private group}': { audience: 'admin', refusal: 'forbidden', topic: (w) => `group:${w.privateGroup.id}` },
  },
  user: {
    'user:{own id}': { audience: 'self', refusal: 'forbidden', topic: (_w, userId) => `user:${userId}` },
    "user:{another user's id}": { audience: 'nobody', refusal: 'forbidden', topic: (w) => `user:${w.target.id}` },
  },
  admin: { admin: { audience: 'admin', refusal: 'forbidden', topic: () => 'admin' } },
  // The moderation queue's open count (issue 29): site admins and moderators.
  moderation: { moderation: { audience: 'staff', refusal: 'forbidden', topic: () => 'moderation' } },
};

/** What each kind of caller gets from a subscribe (a sign-in owing its second factor watches as a visitor). */
function topicExpectation(access: TopicAccess, who: Who, requireAdminMfa: boolean): TopicOutcome {
  switch (access.audience) {
    case 'everyone':
      return 'allowed';
    case 'nobody':
      return access.refusal;
    case 'self':
      return who === 'visitor' || who === 'mfaPending' ? access.refusal : 'allowed';
    case 'admin':
      return who === 'adminAal2' || (who === 'admin' && !requireAdminMfa) ? 'allowed' : access.refusal;
    case 'staff':
      return who === 'moderator' || who === 'adminAal2' || (who === 'admin' && !requireAdminMfa) ? 'allowed' : access.refusal;
  }
}

/** What each kind of caller gets from a route of each audience. */
function expectationFor(audience: Audience, who: Who, requireAdminMfa: boolean): Expectation {
  if (audience === 'everyone') return 'allowed';
  if (who === 'visitor') return 401;
  if (audience === 'session') return 'allowed';
  if (who === 'mfaPending') return 401;
  if (audience === 'user') return 'allowed';
  if (audience === 'writer') return who === 'suspendedFan' || who === 'suspendedAdmin' ? 403 : 'allowed';
  // A suspended account holds no role powers; moderators work the moderation queue (staff), nothing else.
  if (audience === 'staff' && who === 'moderator') return 'allowed';
  if (who !== 'admin' && who !== 'adminAal2') return 403;
  return requireAdminMfa && who === 'admin' ? 403 : 'allowed';
}

export const WHO: readonly Who[] = ['visitor', ...CALLER_KINDS];
const GUARDED_PATHS = /^\/(?:api|auth|ws)(?:\/|$)/;

/** Which parts of the table one test file checks (all of them run against one app of its own). */
export interface AccessParts {
  /** The routes whose every caller is checked (by their key in the table, e.g. 'GET /api/me'). */
  routes?: (key: string) => boolean;
  /** Owner-only routes called by other users. */
  others?: boolean;
  /** Every live topic family. */
  topics?: boolean;
  /** That the tables list every route and topic family of the app, and why the other routes with a parameter are not owned. */
  completeness?: boolean;
}

/** The mode the table runs in: REQUIRE_ADMIN_MFA or not, and the callers it checks (the ones the mode treats differently). */
export const MODES = {
  normal: { title: 'authorization', env: { DEV_LOGIN: '1', PUSH_TEST_ENDPOINT_ORIGINS: PUSH_TEST_ORIGIN }, requireAdminMfa: false, callers: WHO },
  // Only admins are treated differently when admin routes require the second factor.
  adminMfa: {
    title: 'authorization with REQUIRE_ADMIN_MFA',
    env: { DEV_LOGIN: '1', REQUIRE_ADMIN_MFA: '1', PUSH_TEST_ENDPOINT_ORIGINS: PUSH_TEST_ORIGIN },
    requireAdminMfa: true,
    callers: ['admin', 'adminAal2', 'suspendedAdmin'] as readonly Who[],
  },
} as const;

/** Admin routes (about half of the table): a part of their own. */
export const isAdminRoute = (key: string): boolean => / \/api\/admin(?:\/|$)/.test(key);

export function describeAccess(mode: keyof typeof MODES, parts: AccessParts): void {
  const { title, env, requireAdminMfa, callers } = MODES[mode];
  describe(title, () => {
    let app: App;
    let database: Database;
    let baseUrl: string;
    const registered: string[] = [];
    /** config.audience of every route, by key: what the server checks before the body is read. */
    const declaredAudiences = new Map<string, string | undefined>();
    const onRoute = (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
      for (const method of [route.method].flat()) declaredAudiences.set(`${method} ${route.url}`, route.config?.audience);
    };
    useListeningTestApp(env, (ready) => ({ app, database, baseUrl } = ready), { build: () => ({ onRoute }) });

    /** Opens the live socket as the caller: 101 once the hello arrived, else the refusal's status. */
    async function openSocket(who: Who, caller: Caller | null): Promise<number> {
      const outcome = await connectWs(`${baseUrl.replace('http', 'ws')}/ws`, caller ? { cookie: caller.session.cookie } : {}).catch((err: Error) => ({
        code: Number(/\d{3}/.exec(err.message)?.[0] ?? 0),
        reason: err.message,
      }));
      if ('code' in outcome) return outcome.code;
      const hello = outcome.messages[0] ?? (await outcome.waitFor((message) => message.type === 'hello'));
      // Opened as the caller (a sign-in owing its second factor watches as a visitor).
      expect(hello).toMatchObject({ type: 'hello', userId: caller && who !== 'mfaPending' ? caller.user.id : null });
      await outcome.close();
      return 101;
    }

    /**
     * Runs `action` and, for a caller to be refused (`check`), says whether it wrote to the database.
     * An allowed caller's writes are what it may do: not asked about (nor read, which is what most
     * of a case's database time went to).
     */
    async function watchWrites<T>(check: boolean, action: () => Promise<T>): Promise<{ result: T; wrote: boolean }> {
      if (!check) return { result: await action(), wrote: false };
      const before = await tableDigests(database);
      const result = await action();
      return { result, wrote: changedTables(before, await tableDigests(database)).length > 0 };
    }

    /** How a refused call is reported: its status, and whether it wrote (when that was checked). */
    const refusal = (status: number | string, checked: boolean, wrote: boolean) =>
      `${status}${checked ? `, ${wrote ? 'wrote to the database' : 'nothing written'}` : ''}`;

    /**
     * Calls the route as `who` with a request that works for allowed callers. Callers act one after
     * another on the same rows, each with their own user, so that one's allowed write does not
     * decide the next one's answer.
     */
    async function callAs(world: World, key: string, who: Who, method: string, checkWrites: boolean): Promise<{ status: number; wrote: boolean }> {
      const caller = who === 'visitor' ? null : world.callers[who];
      const context: CallContext = {
        world,
        who,
        headers: caller ? asUser(caller.session) : { ...XHR },
        userId: caller ? caller.user.id : world.callers.fan.user.id,
      };
      const request = await ACCESS[key]!.request(context);
      const { result: status, wrote } = await watchWrites(checkWrites, async () =>
        key === 'GET /ws' ? openSocket(who, caller) : (await app.inject({ ...request, method: method as 'GET' })).statusCode,
      );
      return { status, wrote };
    }

    // Guarded GET routes are checked as HEAD too (Fastify answers HEAD with the GET's hooks).
    const cases = Object.entries(ACCESS).flatMap(([key, access]) => {
      const [method = 'GET'] = key.split(' ');
      const variants = method === 'GET' && access.audience !== 'everyone' && key !== 'GET /ws' ? ['GET', 'HEAD'] : [method];
      return variants.map((variant) => [`${variant}${key.slice(method.length)} (${access.audience})`, key, variant] as const);
    });

    /** The rows every case starts from: callers of every kind, a poll, and a fan's post with a comment. */
    async function buildWorld(): Promise<World> {
      await app.resetRateLimits();
      const db = database.db;
      const ownedByTarget = async () => {
        const target = await buildUser(db);
        const post = await buildPost(db, target.id);
        return { target, post, comment: await buildComment(db, post.id, target.id) };
      };
      const [{ target, post, comment }, callers, poll, suspendedTarget] = await Promise.all([
        ownedByTarget(),
        signInCallers(app, db),
        buildPoll(db),
        buildUser(db, { isSuspended: true }),
      ]);
      return { app, callers, poll, target, suspendedTarget, post, comment };
    }

    const routeCases = cases.filter(([, key]) => parts.routes?.(key));
    if (routeCases.length > 0)
      it.each(routeCases)('%s: allowed callers pass, the others get 401/403 and write nothing', async (_name, key, method) => {
        const world = await buildWorld();
        const expected: Record<string, string> = {};
        const actual: Record<string, string> = {};
        for (const who of callers) {
          const expectation = expectationFor(ACCESS[key]!.audience, who, requireAdminMfa);
          const checked = expectation !== 'allowed';
          const { status, wrote } = await callAs(world, key, who, method, checked);
          const allowed = status === 101 || (status >= 200 && status < 400);
          expected[who] = expectation === 'allowed' ? 'allowed' : `${expectation}, nothing written`;
          actual[who] = allowed ? 'allowed' : refusal(status, checked, wrote);
        }
        expect(actual).toEqual(expected);
      });

    const otherCases = Object.keys(OTHERS).map((key) => [`${key} (${ACCESS[key]?.audience})`, key] as const);

    if (parts.others)
      it.each(otherCases)("%s on another user's rows: refused and nothing written, but for who moderates", async (_name, key) => {
        const world = await buildWorld();
        const access = OTHERS[key]!;
        const [method = 'GET'] = key.split(' ');
        const expected: Record<string, string> = {};
        const actual: Record<string, string> = {};
        for (const who of callers) {
          if (who === 'visitor') continue;
          const caller = world.callers[who];
          const context: CallContext = { world, who, headers: asUser(caller.session), userId: caller.user.id };
          const request = await access.request(context);
          const victimBefore = JSON.stringify(await access.victim?.(world));
          const expectation = otherExpectation(ACCESS[key]!.audience, access, who, requireAdminMfa);
          const checked = expectation !== 'allowed';
          const { result: status, wrote } = await watchWrites(checked, async () => (await app.inject({ ...request, method: method as 'GET' })).statusCode);
          const victimTouched = JSON.stringify(await access.victim?.(world)) !== victimBefore;
          expected[who] = expectation === 'allowed' ? 'allowed, owner untouched' : `${expectation}, nothing written`;
          actual[who] =
            status >= 200 && status < 400 ? `allowed, ${victimTouched ? "owner's rows changed" : 'owner untouched'}` : refusal(status, checked, wrote);
        }
        expect(actual).toEqual(expected);
      });

    const unseenCases = Object.keys(UNSEEN).map((key) => [key, key] as const);

    if (parts.others)
      it.each(unseenCases)('%s on a post the caller cannot see: 404 as if it did not exist (never 403), nothing written', async (_name, key) => {
        const world = await buildWorld();
        const access = UNSEEN[key]!;
        const [method = 'GET'] = key.split(' ');
        const expected: Record<string, string> = {};
        const actual: Record<string, string> = {};
        for (const who of callers) {
          if (who === 'visitor') continue;
          const caller = world.callers[who];
          const request = await access.request({ world, who, headers: asUser(caller.session), userId: caller.user.id });
          const expectation = unseenExpectation(access, who, requireAdminMfa);
          const checked = expectation !== 'allowed';
          const { result: status, wrote } = await watchWrites(checked, async () => (await app.inject({ ...request, method: method as 'GET' })).statusCode);
          expected[who] = expectation === 'allowed' ? 'allowed' : `${expectation}, nothing written`;
          actual[who] = status >= 200 && status < 400 ? 'allowed' : refusal(status, checked, wrote);
        }
        expect(actual).toEqual(expected);
      });

    if (parts.completeness)
      it('declares the audience of every signed-in route outside /api/admin in its config (checked before the body is read)', () => {
        const signedIn = new Set<Audience>(['session', 'user', 'writer']);
        const mismatched = Object.entries(ACCESS)
          .filter(([key, access]) => declaredAudiences.get(key) !== (signedIn.has(access.audience) ? access.audience : undefined))
          .map(([key, access]) => `${key}: table says ${access.audience}, route declares ${declaredAudiences.get(key) ?? 'none'}`);
        expect(mismatched).toEqual([]);
      });

    if (parts.completeness)
      it('checks every owner-only route as another user, and says why the other routes with a parameter are not owned', () => {
        const withParameter = Object.entries(ACCESS)
          .filter(([key, access]) => ['session', 'user', 'writer'].includes(access.audience) && key.includes('/:'))
          .map(([key]) => key);
        expect(
          withParameter.filter((key) => !(key in OTHERS) && !NOT_OWNED.has(key)),
          'owner-only routes without an OTHERS entry',
        ).toEqual([]);
        expect(Object.keys(OTHERS).filter((key) => !(key in ACCESS))).toEqual([]);
        expect([...NOT_OWNED].filter((key) => !(key in ACCESS) || key in OTHERS)).toEqual([]);
      });

    /**
     * Subscribes as the caller over a real socket: 'allowed' once the server counts the subscription
     * (and a message published on the topic reaches the socket), else the refusal's code.
     */
    async function subscribeAs(caller: Caller | null, topic: string): Promise<string> {
      const client = await openWs(`${baseUrl.replace('http', 'ws')}/ws`, caller ? { cookie: caller.session.cookie } : {});
      try {
        const before = app.live.stats().subscriptions;
        client.send({ type: 'subscribe', topic });
        let settled = false;
        const counted = (async () => {
          while (!settled && app.live.stats().subscriptions === before) await new Promise((resolve) => setTimeout(resolve, 5));
          return 'allowed';
        })();
        const refused = client
          .waitFor<LiveErrorMessage>((m) => m.type === 'error', { timeoutMs: 15_000 })
          .then((m) => `${m.code}${m.topic === topic ? '' : ` (named ${m.topic})`}`);
        const outcome = await Promise.race([counted, refused]).finally(() => (settled = true));
        refused.catch(() => undefined);
        if (outcome !== 'allowed') return outcome;
        // Subscribed for real: what the topic publishes reaches this socket.
        app.live.hub.publish(topic, { type: 'authorization-probe', topic });
        await client.waitFor((m) => (m as { type: string }).type === 'authorization-probe');
        return 'allowed';
      } finally {
        await client.close();
      }
    }

    const topicCases = Object.entries(TOPICS).flatMap(([family, shapes]) =>
      Object.entries(shapes).map(([shape, access]) => [`${shape} (${access.audience})`, family, access] as const),
    );

    if (parts.topics)
      it.each(topicCases)('live topic %s: allowed callers subscribe, the others are refused and nothing is written', async (_name, _family, access) => {
        const world = await buildWorld();
        const db = database.db;
        const [group] = await db.insert(schema.groups).values({ name: 'Grupo privado', privacy: 'private' }).returning();
        const topicWorld: TopicWorld = {
          ...world,
          draftPoll: (await buildPoll(db, { status: 'draft' })).poll,
          hiddenPost: await buildPost(db, world.target.id, { isHidden: true }),
          privateGroupPost: await buildPost(db, world.target.id, { groupId: group!.id, visibility: 'group' }),
          followersPost: await buildPost(db, world.target.id, { visibility: 'followers' }),
          publicGroup: (await db.insert(schema.groups).values({ name: 'Grupo público', privacy: 'public' }).returning())[0]!,
          privateGroup: group!,
        };
        const expected: Record<string, string> = {};
        const actual: Record<string, string> = {};
        // Every kind of caller in both modes: the admin topic is where REQUIRE_ADMIN_MFA matters.
        for (const who of WHO) {
          const caller = who === 'visitor' ? null : world.callers[who];
          const topic = access.topic(topicWorld, caller ? caller.user.id : world.callers.fan.user.id);
          const expectation = topicExpectation(access, who, requireAdminMfa);
          const checked = expectation !== 'allowed';
          const { result: outcome, wrote } = await watchWrites(checked, () => subscribeAs(caller, topic));
          expected[who] = expectation === 'allowed' ? 'allowed' : `${expectation}, nothing written`;
          actual[who] = outcome === 'allowed' ? 'allowed' : refusal(outcome, checked, wrote);
        }
        expect(actual).toEqual(expected);
      });

    if (parts.completeness)
      it('lists every topic family of the live registry in the topic table, and nothing else', () => {
        expect(Object.keys(TOPICS).sort()).toEqual(app.live.hub.topics.families().sort());
      });

    if (parts.completeness)
      it('lists every /api, /auth and /ws route of the app in the table, and nothing else', () => {
        const guarded = new Set(registered.filter((key) => GUARDED_PATHS.test(key.split(' ')[1]!)));
        // A HEAD route answers like its GET (Fastify makes it from the GET's handler and hooks).
        const missing = [...guarded].filter((key) => !(key in ACCESS) && !(key.startsWith('HEAD ') && `GET${key.slice(4)}` in ACCESS));
        expect(missing, 'routes without an authorization entry: add them to ACCESS').toEqual([]);
        expect(Object.keys(ACCESS).filter((key) => !guarded.has(key))).toEqual([]);
      });
  });
}
