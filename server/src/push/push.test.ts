// Web push on the server (issue 31): the VAPID config, a fan's devices (one per endpoint, `replaces`,
// the limit of 10, 'Quitar'), preferences, the endpoint policy as the routes apply it (SSRF), an
// admin's 'Notificar a los fans', and the `push.user` wake-ups after new notifications and group
// posts. What the worker does with them: worker/src/push.
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '@tribuna/drizzle/client';
import type { PushBroadcastList, PushBroadcastView, PushConfig, PushDevice, PushPreferences, PushSettings } from '@tribuna/contracts/api/push';
import { loadConfig, ConfigError } from '@tribuna/contracts/config';
import { pushJobIds } from '@tribuna/contracts/jobs';
import { PUSH_ERRORS, PUSH_KIND_DEFAULTS, PUSH_LIMITS } from '@tribuna/contracts/pushRules';
import { buildPoll, buildPost, buildUser } from '../../../test/support/factories.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { multipart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn, XHR } from '../../../test/support/server/sessions.ts';
import type { App } from '../app.ts';
import type { ResolveAll } from './endpointPolicy.ts';
import { PushWaker } from './wake.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;
const rateLimits = { 'push.read': WIDE, 'push.write': WIDE, 'admin.write': WIDE, 'admin.read': WIDE };

const TEST_ORIGIN = 'http://127.0.0.1:4100';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** What the push services' names resolve to here (the resolver is outside the product: tests choose the answers). */
const dnsAnswers = new Map<string, string[]>();
const resolve: ResolveAll = async (hostname) => {
  const answers = dnsAnswers.get(hostname);
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** A browser's PushSubscription.toJSON(): real P-256 and auth keys. */
function subscription(endpoint = `${TEST_ORIGIN}/push/${randomUUID()}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

type Fan = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string> };

describe('web push', () => {
  let app: App;
  let database: Database;
  useTestApp({ PUSH_TEST_ENDPOINT_ORIGINS: TEST_ORIGIN, VAPID_KEYS_FILE: './data/test-vapid.json' }, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits, push: { resolve } }),
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}, level?: 'aal2'): Promise<Fan> {
    const user = await buildUser(database.db, overrides);
    return { ...user, headers: asUser(await signIn(app, user, level ? { level } : {})) };
  }
  const subscribe = (who: Fan, body: unknown, userAgent = ANDROID_CHROME) =>
    app.inject({ method: 'POST', url: '/api/me/push/subscriptions', headers: { ...who.headers, 'user-agent': userAgent }, payload: body as object });
  async function subscribed(who: Fan, body: unknown = subscription(), userAgent?: string): Promise<PushDevice> {
    const res = await subscribe(who, body, userAgent);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<PushDevice>();
  }
  async function settingsOf(who: Fan): Promise<PushSettings> {
    const res = await app.inject({ method: 'GET', url: '/api/me/push', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PushSettings>();
  }
  const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;
  const endpointsOf = async (userId: string) =>
    (await database.db.execute<{ endpoint: string }>(sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${userId} ORDER BY endpoint`)).map(
      (r) => r.endpoint,
    );

  describe('config', () => {
    it('gives anyone the VAPID public key the browsers subscribe with', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/push/config', headers: XHR });
      expect(res.statusCode).toBe(200);
      const config = res.json<PushConfig>();
      expect(config.enabled).toBe(true);
      expect(config.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(Buffer.from(config.publicKey, 'base64url')[0]).toBe(0x04);
    });

    it('refuses PUSH_TEST_ENDPOINT_ORIGINS in production', () => {
      const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://tribuna.example' };
      expect(loadConfig(production).push.testEndpointOrigins).toEqual([]);
      expect(() => loadConfig({ ...production, PUSH_TEST_ENDPOINT_ORIGINS: TEST_ORIGIN })).toThrow(ConfigError);
    });
  });

  describe('devices', () => {
    it('subscribes a device with its browser label; the settings list it without endpoint or keys, preferences at their defaults', async () => {
      const me = await fan();
      const device = await subscribed(me, subscription(), IPHONE);
      expect(device).toMatchObject({ browser: 'Safari en iPhone' });
      const settings = await settingsOf(me);
      expect(settings).toEqual({ devices: [device], preferences: PUSH_KIND_DEFAULTS });
      expect(JSON.stringify(settings)).not.toContain(TEST_ORIGIN);
    });

    it('keeps one subscription per endpoint: subscribing again updates it (keys, label, last seen) instead of adding one', async () => {
      const me = await fan();
      const first = subscription();
      const device = await subscribed(me, first, IPHONE);
      const again = { ...subscription(first.endpoint), expirationTime: Date.parse('2030-01-01T00:00:00Z') };
      const updated = await subscribed(me, again, ANDROID_CHROME);
      expect(updated).toMatchObject({ id: device.id, browser: 'Chrome en Android', createdAt: device.createdAt });
      expect(Date.parse(updated.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(device.lastSeenAt));
      const [row] = await database.db.execute<{ p256dh: string; auth: string; expires_at: Date }>(
        sql`SELECT p256dh, auth, expires_at FROM push_subscriptions WHERE id = ${device.id}`,
      );
      expect(row).toMatchObject({ p256dh: again.keys.p256dh, auth: again.keys.auth });
      expect(new Date(row!.expires_at).toISOString()).toBe('2030-01-01T00:00:00.000Z');
      expect((await settingsOf(me)).devices).toHaveLength(1);
    });

    it('moves an endpoint another fan subscribed to the fan subscribing it now, as a new device of theirs', async () => {
      const [before, now] = [await fan(), await fan()];
      const body = subscription();
      const old = await subscribed(before, body);
      const moved = await subscribed(now, subscription(body.endpoint));
      expect(moved.id).not.toBe(old.id);
      expect((await settingsOf(before)).devices).toEqual([]);
      expect((await settingsOf(now)).devices.map((d) => d.id)).toEqual([moved.id]);
    });

    it("removes the rotated subscription named by `replaces` in the same change, only when it is the fan's own", async () => {
      const [me, other] = [await fan(), await fan()];
      const old = subscription();
      await subscribed(me, old);
      const others = subscription();
      await subscribed(other, others);
      const rotated = subscription();
      await subscribed(me, { ...rotated, replaces: old.endpoint });
      expect(await endpointsOf(me.id)).toEqual([rotated.endpoint]);
      // Naming another fan's endpoint removes nothing of theirs.
      await subscribed(me, { ...subscription(), replaces: others.endpoint });
      expect(await endpointsOf(other.id)).toEqual([others.endpoint]);
    });

    it(`holds at most ${PUSH_LIMITS.subscriptionsPerUser} devices a fan (409 beyond); one replaced by rotation does not count`, async () => {
      const me = await fan();
      const bodies = Array.from({ length: PUSH_LIMITS.subscriptionsPerUser }, () => subscription());
      for (const body of bodies) await subscribed(me, body);
      const refused = await subscribe(me, subscription());
      expect(refused.statusCode).toBe(409);
      expect(message(refused)).toBe(PUSH_ERRORS.tooManyDevices);
      // Updating one of the ten, and rotating one, are fine.
      await subscribed(me, subscription(bodies[0]!.endpoint));
      await subscribed(me, { ...subscription(), replaces: bodies[1]!.endpoint });
      expect((await settingsOf(me)).devices).toHaveLength(PUSH_LIMITS.subscriptionsPerUser);
    });

    it('serialises concurrent subscriptions of one fan: never more than the limit', async () => {
      const me = await fan();
      const results = await Promise.all(Array.from({ length: PUSH_LIMITS.subscriptionsPerUser + 5 }, () => subscribe(me, subscription())));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(PUSH_LIMITS.subscriptionsPerUser);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(5);
      expect(await endpointsOf(me.id)).toHaveLength(PUSH_LIMITS.subscriptionsPerUser);
    });

    it("lists devices newest first and removes one of the fan's own (404 for another fan's or an unknown id)", async () => {
      const [me, other] = [await fan(), await fan()];
      const first = await subscribed(me);
      const second = await subscribed(me);
      await database.db.execute(sql`UPDATE push_subscriptions SET created_at = now() - interval '1 hour' WHERE id = ${first.id}`);
      expect((await settingsOf(me)).devices.map((d) => d.id)).toEqual([second.id, first.id]);
      const theirs = await subscribed(other);

      const refused = await app.inject({ method: 'DELETE', url: `/api/me/push/subscriptions/${theirs.id}`, headers: me.headers });
      expect(refused.statusCode).toBe(404);
      expect(message(refused)).toBe(PUSH_ERRORS.deviceNotFound);
      expect((await settingsOf(other)).devices).toHaveLength(1);
      const unknown = await app.inject({ method: 'DELETE', url: `/api/me/push/subscriptions/${randomUUID()}`, headers: me.headers });
      expect(unknown.statusCode).toBe(404);

      const removed = await app.inject({ method: 'DELETE', url: `/api/me/push/subscriptions/${second.id}`, headers: me.headers });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json<PushSettings>().devices.map((d) => d.id)).toEqual([first.id]);
    });

    it('lets a suspended fan manage their devices (receiving is not writing), and refuses visitors', async () => {
      const suspended = await fan({ isSuspended: true });
      await subscribed(suspended);
      const visitor = await app.inject({ method: 'POST', url: '/api/me/push/subscriptions', headers: XHR, payload: subscription() });
      expect(visitor.statusCode).toBe(401);
    });
  });

  describe('endpoints (SSRF)', () => {
    const fcm = (id = randomUUID()) => `https://fcm.googleapis.com/fcm/send/${id}`;

    it('accepts https on a push service whose addresses are public', async () => {
      dnsAnswers.set('fcm.googleapis.com', ['142.250.1.95', '2a00:1450:4001:82b::200a']);
      dnsAnswers.set('web.push.apple.com', ['17.57.146.20']);
      const me = await fan();
      await subscribed(me, subscription(fcm()));
      await subscribed(me, subscription(`https://web.push.apple.com/QHo${randomUUID()}`), IPHONE);
      expect(await endpointsOf(me.id)).toHaveLength(2);
    });

    it.each([
      ['http on a push service', 'http://fcm.googleapis.com/fcm/send/abc'],
      ['an unknown host', 'https://push.example.com/send/abc'],
      ['a lookalike host', 'https://fcm.googleapis.com.evil.example/send/abc'],
      ['an IP literal', 'https://169.254.169.254/latest/meta-data/iam'],
      ['another port', 'https://fcm.googleapis.com:8443/fcm/send/abc'],
      ['credentials', 'https://user:pass@fcm.googleapis.com/fcm/send/abc'],
      ['a test origin on another port', 'http://127.0.0.1:4101/push/abc'],
      ['a host that does not resolve', 'https://updates.push.services.mozilla.com/wpush/v2/abc'],
    ])('refuses %s (400, nothing stored)', async (_name, endpoint) => {
      dnsAnswers.set('fcm.googleapis.com', ['142.250.1.95']);
      dnsAnswers.delete('updates.push.services.mozilla.com');
      const me = await fan();
      const res = await subscribe(me, subscription(endpoint));
      expect(res.statusCode, res.body).toBe(400);
      expect(message(res)).toBe(PUSH_ERRORS.endpointRefused);
      expect(await endpointsOf(me.id)).toEqual([]);
    });

    it.each([['127.0.0.1'], ['10.0.0.7'], ['169.254.169.254'], ['::1'], ['::ffff:127.0.0.1']])(
      'refuses a push service host resolving to %s, even beside a public address',
      async (address) => {
        dnsAnswers.set('fcm.googleapis.com', ['142.250.1.95', address]);
        const me = await fan();
        const res = await subscribe(me, subscription(fcm()));
        expect(res.statusCode, res.body).toBe(400);
        expect(message(res)).toBe(PUSH_ERRORS.endpointRefused);
        expect(await endpointsOf(me.id)).toEqual([]);
      },
    );

    it('accepts the configured test origin, over http and on loopback', async () => {
      const me = await fan();
      await subscribed(me, subscription(`${TEST_ORIGIN}/push/abc`));
      expect(await endpointsOf(me.id)).toEqual([`${TEST_ORIGIN}/push/abc`]);
    });
  });

  describe('preferences', () => {
    it('reads the defaults until saved, then what was saved; a first save starts the watermark at the oldest device', async () => {
      const me = await fan();
      expect((await settingsOf(me)).preferences).toEqual(PUSH_KIND_DEFAULTS);
      const device = await subscribed(me);
      await database.db.execute(sql`UPDATE push_subscriptions SET created_at = now() - interval '5 minutes' WHERE id = ${device.id}`);
      const wanted: PushPreferences = { ...PUSH_KIND_DEFAULTS, reactions: true, poll_closing: false, groups: false };
      const res = await app.inject({ method: 'PUT', url: '/api/me/push/preferences', headers: me.headers, payload: wanted });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<PushPreferences>()).toEqual(wanted);
      expect((await settingsOf(me)).preferences).toEqual(wanted);
      const [row] = await database.db.execute<{ behind: boolean }>(
        sql`SELECT notified_through = (SELECT created_at FROM push_subscriptions WHERE id = ${device.id}) AS behind FROM push_preferences WHERE user_id = ${me.id}`,
      );
      expect(row?.behind).toBe(true);
      // Saving again changes the kinds only.
      const again = { ...wanted, mentions: false };
      expect((await app.inject({ method: 'PUT', url: '/api/me/push/preferences', headers: me.headers, payload: again })).json()).toEqual(again);
    });

    it('refuses a body missing a kind or with one unknown (400)', async () => {
      const me = await fan();
      const { reactions: _dropped, ...missing } = PUSH_KIND_DEFAULTS;
      expect((await app.inject({ method: 'PUT', url: '/api/me/push/preferences', headers: me.headers, payload: missing })).statusCode).toBe(400);
      const unknown = { ...PUSH_KIND_DEFAULTS, birthdays: true };
      expect((await app.inject({ method: 'PUT', url: '/api/me/push/preferences', headers: me.headers, payload: unknown })).statusCode).toBe(400);
    });
  });

  describe("'Notificar a los fans'", () => {
    const notify = (who: Fan, pollId: string) => app.inject({ method: 'POST', url: `/api/admin/polls/${pollId}/notify`, headers: who.headers });

    it('queues the broadcast of an active poll: the row, its job and the audit entry; the list shows it with the poll title', async () => {
      const admin = await fan({ role: 'admin', displayName: 'Marta' });
      const { poll } = await buildPoll(database.db, { title: '¿Quién se salva esta semana?' });
      const res = await notify(admin, poll.id);
      expect(res.statusCode, res.body).toBe(202);
      const view = res.json<PushBroadcastView>();
      expect(view).toMatchObject({
        kind: 'poll_opened',
        pollId: poll.id,
        pollTitle: '¿Quién se salva esta semana?',
        status: 'queued',
        total: 0,
        createdBy: 'Marta',
        finishedAt: null,
      });

      const [row] = await database.db.execute<{ payload: { id: string; kind: string; title: string; body: string; url: string }; created_by: string }>(
        sql`SELECT payload, created_by FROM push_broadcasts WHERE id = ${view.id}`,
      );
      expect(row?.created_by).toBe(admin.id);
      expect(row?.payload).toMatchObject({
        kind: 'poll_opened',
        title: '¡Ya pueden votar!',
        body: 'Votación abierta: ¿Quién se salva esta semana?',
        url: `/?encuesta=${poll.id}`,
      });
      expect(row?.payload.id).toMatch(/^[0-9a-f-]{36}$/);

      const job = await vi.waitFor(async () => {
        const found = await app.queues.push.getJob(pushJobIds.broadcast({ broadcastId: view.id }));
        if (!found) throw new Error('not enqueued yet');
        return found;
      });
      expect(job).toMatchObject({ name: 'push.broadcast', data: { broadcastId: view.id } });

      const audit = await database.db.execute<{ admin_id: string; entity_id: string; after: { broadcastId: string } }>(
        sql`SELECT admin_id, entity_id, after FROM admin_audit_log WHERE action = 'poll.notify'`,
      );
      expect(audit).toEqual([{ admin_id: admin.id, entity_id: poll.id, after: expect.objectContaining({ broadcastId: view.id, kind: 'poll_opened' }) }]);

      const list = await app.inject({ method: 'GET', url: '/api/admin/push/broadcasts', headers: admin.headers });
      expect(list.statusCode).toBe(200);
      expect(list.json<PushBroadcastList>().items).toEqual([view]);
    });

    it('notifies a poll once (409 the second time, nothing more written)', async () => {
      const admin = await fan({ role: 'admin' });
      const { poll } = await buildPoll(database.db);
      expect((await notify(admin, poll.id)).statusCode).toBe(202);
      const again = await notify(admin, poll.id);
      expect(again.statusCode).toBe(409);
      expect(message(again)).toBe(PUSH_ERRORS.alreadyNotified);
      const [counts] = await database.db.execute<{ broadcasts: number; audits: number }>(
        sql`SELECT (SELECT count(*)::int FROM push_broadcasts) AS broadcasts, (SELECT count(*)::int FROM admin_audit_log WHERE action = 'poll.notify') AS audits`,
      );
      expect(counts).toEqual({ broadcasts: 1, audits: 1 });
    });

    it('refuses a draft, a closed poll and one past its end (409), and an unknown poll (404)', async () => {
      const admin = await fan({ role: 'admin' });
      const draft = (await buildPoll(database.db, { status: 'draft' })).poll;
      const closed = (await buildPoll(database.db, { status: 'closed' })).poll;
      const ended = (await buildPoll(database.db)).poll;
      await database.db.execute(sql`UPDATE polls SET end_date = now() - interval '1 minute' WHERE id = ${ended.id}`);
      for (const poll of [draft, closed, ended]) {
        const res = await notify(admin, poll.id);
        expect(res.statusCode).toBe(409);
        expect(message(res)).toBe(PUSH_ERRORS.pollNotNotifiable);
      }
      expect((await notify(admin, randomUUID())).statusCode).toBe(404);
      const [counts] = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM push_broadcasts`);
      expect(counts?.n).toBe(0);
    });

    it('is for site admins only (403 for fans and moderators, nothing written)', async () => {
      const { poll } = await buildPoll(database.db);
      for (const who of [await fan(), await fan({ role: 'moderator' })]) {
        expect((await notify(who, poll.id)).statusCode).toBe(403);
        expect((await app.inject({ method: 'GET', url: '/api/admin/push/broadcasts', headers: who.headers })).statusCode).toBe(403);
      }
      const [counts] = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM push_broadcasts`);
      expect(counts?.n).toBe(0);
    });

    it('lists the latest 20 broadcasts, newest first', async () => {
      const admin = await fan({ role: 'admin' });
      const ids: string[] = [];
      for (let i = 0; i < 22; i++) {
        const { poll } = await buildPoll(database.db, { title: `Encuesta ${i}` });
        ids.push((await notify(admin, poll.id)).json<PushBroadcastView>().id);
      }
      const list = (await app.inject({ method: 'GET', url: '/api/admin/push/broadcasts', headers: admin.headers })).json<PushBroadcastList>();
      expect(list.items.map((b) => b.id)).toEqual(ids.slice(2).reverse());
      expect(list.items[0]?.pollTitle).toBe('Encuesta 21');
    });
  });

  describe('a fan’s own pushes (push.user wake-ups)', () => {
    /** The push.user job of `userId` added while `action` ran (its window is one of those the action spanned). */
    async function userJobDuring(userId: string, action: () => Promise<unknown>) {
      const before = Date.now();
      await action();
      // The wake-ups the action started (after its commit, not awaited by its request).
      await app.push.waker.idle();
      const after = Date.now();
      const windows = new Set([PushWaker.windowOf(before).index, PushWaker.windowOf(after).index]);
      for (const index of windows) {
        const job = await app.queues.push.getJob(pushJobIds.user(userId, index));
        if (job) return { job, index };
      }
      return null;
    }

    const comment = (who: Fan, postId: string, content: string) => {
      const body = multipart([{ name: 'content', value: content }]);
      return app.inject({ method: 'POST', url: `/api/posts/${postId}/comments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
    };

    it('a comment on the post of a fan with a device wakes their push.user job, delayed to the end of the window', async () => {
      const [author, commenter] = [await fan(), await fan()];
      await subscribed(author);
      const post = await buildPost(database.db, author.id);
      const found = await userJobDuring(author.id, async () => expect((await comment(commenter, post.id, '¡Buenísimo!')).statusCode).toBe(201));
      expect(found).not.toBeNull();
      const { job, index } = found!;
      expect(job).toMatchObject({ name: 'push.user', data: { userId: author.id } });
      const windowEnd = (index + 1) * PUSH_LIMITS.userWindowSeconds * 1000;
      expect(job.opts.delay).toBeGreaterThan(0);
      expect(job.opts.delay).toBeLessThanOrEqual(PUSH_LIMITS.userWindowSeconds * 1000);
      expect(Math.abs(job.timestamp + job.opts.delay! - windowEnd)).toBeLessThan(1000);
    });

    it('wakes nobody for a fan without a device', async () => {
      const [author, commenter] = [await fan(), await fan()];
      const post = await buildPost(database.db, author.id);
      const found = await userJobDuring(author.id, async () => expect((await comment(commenter, post.id, 'Hola')).statusCode).toBe(201));
      expect(found).toBeNull();
    });

    it('a new post in a group wakes its other members with a device, not its author nor members without one', async () => {
      const [author, member, quiet] = [await fan(), await fan(), await fan()];
      await subscribed(member);
      await subscribed(author);
      const [group] = await database.db.execute<{ id: string }>(sql`INSERT INTO groups (name, privacy) VALUES ('Club de fans', 'public') RETURNING id`);
      await database.db.execute(
        sql`INSERT INTO group_members (group_id, user_id, role) VALUES (${group!.id}, ${author.id}, 'admin'), (${group!.id}, ${member.id}, 'member'), (${group!.id}, ${quiet.id}, 'member')`,
      );
      const body = multipart([
        { name: 'content', value: 'Nos vemos en la gala' },
        { name: 'groupId', value: group!.id },
      ]);
      const before = Date.now();
      const found = await userJobDuring(member.id, async () => {
        const res = await app.inject({ method: 'POST', url: '/api/posts', headers: { ...author.headers, ...body.headers }, payload: body.payload });
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(found?.job.data).toEqual({ userId: member.id });
      const windows = [PushWaker.windowOf(before).index, PushWaker.windowOf(Date.now()).index];
      for (const index of windows) {
        expect(await app.queues.push.getJob(pushJobIds.user(author.id, index))).toBeUndefined();
        expect(await app.queues.push.getJob(pushJobIds.user(quiet.id, index))).toBeUndefined();
      }
    });

    it('an edit of a group post wakes nobody', async () => {
      const [author, member] = [await fan(), await fan()];
      await subscribed(member);
      const [group] = await database.db.execute<{ id: string }>(sql`INSERT INTO groups (name, privacy) VALUES ('Club de fans', 'public') RETURNING id`);
      await database.db.execute(
        sql`INSERT INTO group_members (group_id, user_id, role) VALUES (${group!.id}, ${author.id}, 'admin'), (${group!.id}, ${member.id}, 'member')`,
      );
      const post = await buildPost(database.db, author.id, { groupId: group!.id, visibility: 'group' });
      const found = await userJobDuring(member.id, async () => {
        const res = await app.inject({ method: 'PATCH', url: `/api/posts/${post.id}`, headers: author.headers, payload: { content: 'Nos vemos el domingo' } });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(found).toBeNull();
    });
  });
});
