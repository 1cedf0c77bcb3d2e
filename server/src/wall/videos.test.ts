import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { FeedPage, PostView, VideoUploadList, VideoUploadMessage, VideoUploadView } from '@tribuna/contracts/api/wall';
import { VIDEO_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildUser } from '../../../test/support/factories.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn, XHR } from '../../../test/support/server/sessions.ts';
import { makeClip } from '../../../test/support/server/videos.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { buildApp, type App } from '../app.ts';
import { SUSPENDED_MESSAGE } from '../identity/plugin.ts';
import { contentKey, uploadKey } from '../media/storage.ts';

const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_videos` });
const MIB = 1024 * 1024;

describe('video posts', () => {
  let app: App;
  let database: Database;
  let wsUrl: string;
  let dir: string;
  /** 2 s, 160×120, with sound: MP4, MOV and WebM. */
  let mp4: Buffer;
  let mov: Buffer;
  let webm: Buffer;
  /** 181 s, 32×32 at one frame a second: one second over the limit. */
  let long: Buffer;
  const clients: WsTestClient[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tribuna-video-posts-'));
    await Promise.all([
      makeClip(join(dir, 'clip.mp4')),
      makeClip(join(dir, 'clip.mov')),
      makeClip(join(dir, 'clip.webm')),
      makeClip(join(dir, 'long.mp4'), { seconds: VIDEO_LIMITS.maxDurationS + 1, size: '32x32', rate: 1, audio: false }),
    ]);
    [mp4, mov, webm, long] = (await Promise.all(['clip.mp4', 'clip.mov', 'clip.webm', 'long.mp4'].map((name) => readFile(join(dir, name))))) as [
      Buffer,
      Buffer,
      Buffer,
      Buffer,
    ];
    app = await buildApp(config, {
      wall: { totalsTtlMs: 0, pageTtlMs: 0, videoSweep: { everyMs: 0 } },
      rateLimits: { 'wall.video-create': { store: 'local', perUser: { max: 1000, windowSeconds: 1 } } },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    wsUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
    database = testDatabase();
  }, 60_000);
  beforeEach(async () => {
    await truncateAll(database);
    await app.queues.media.obliterate({ force: true });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.queues.media.obliterate({ force: true }).catch(() => undefined);
    await app.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const post = (headers: Record<string, string>, parts: MultipartPart[]) => {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url: '/api/posts/video', headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const clip = (data: Buffer, filename = 'clip.mp4', type = 'video/mp4'): MultipartPart => ({ name: 'video', filename, type, data });
  const uploads = () => database.sql<{ id: string; user_id: string; status: string; upload_key: string; bytes: number; content: string }[]>`
    SELECT id, user_id, status, upload_key, bytes, content FROM video_uploads ORDER BY created_at`;
  const count = async (table: string) => Number((await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${database.sql(table)}`)[0]!.n);

  /** The author's socket, subscribed to their own `user:{id}` topic. */
  async function authorSocket(headers: Record<string, string>, userId: string): Promise<WsTestClient> {
    const client = await openWs(wsUrl, { cookie: headers.cookie! });
    clients.push(client);
    client.send({ type: 'subscribe', topic: `user:${userId}` });
    // A subscribe without snapshots has no answer: a ping round trip shows it was handled.
    const from = client.messages.length;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong', { from });
    expect(client.ofType('error')).toEqual([]);
    return client;
  }
  const videoMessages = (client: WsTestClient) => client.messages.filter((m): m is VideoUploadMessage => m.type === 'video-upload');

  /**
   * What the worker does with an upload (media.transcode-video): the MP4 and its poster stored
   * content-addressed, their media row, the upload marked transcoded with it.
   */
  async function transcodedAsTheWorker(uploadId: string, userId: string): Promise<{ mp4Key: string; posterKey: string }> {
    const storage = app.media.storage;
    const mp4Key = contentKey(randomBytes(32), 'mp4');
    await storage.putFile(mp4Key, join(dir, 'clip.mp4'), 'video/mp4');
    const poster = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#335' } })
      .webp()
      .toBuffer();
    const posterKey = contentKey(poster, 'webp');
    await storage.put(posterKey, poster, 'image/webp');
    const [media] = await database.db
      .insert(schema.media)
      .values({
        key: mp4Key,
        thumbKey: posterKey,
        contentType: 'video/mp4',
        width: 160,
        height: 120,
        bytes: mp4.length,
        placeholder: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
        durationMs: 2000,
        uploadedBy: userId,
      })
      .onConflictDoUpdate({ target: schema.media.key, set: { key: sql`excluded.key` } })
      .returning();
    await database.db.update(schema.videoUploads).set({ status: 'transcoded', mediaId: media!.id }).where(eq(schema.videoUploads.id, uploadId));
    return { mp4Key, posterKey };
  }

  /** An accepted clip of `author`, as the route stores it. */
  async function accepted(headers: Record<string, string>, parts: MultipartPart[] = []): Promise<VideoUploadView> {
    const res = await post(headers, [...parts, clip(mp4)]);
    expect(res.statusCode, res.body).toBe(202);
    return res.json<VideoUploadView>();
  }

  describe('accepting a clip', () => {
    it('answers 202 with the upload, stores the file and its row, and queues its transcode through the outbox', async () => {
      const { user, headers } = await fan();
      const res = await post(headers, [{ name: 'content', value: '  Mi primer video  ' }, { name: 'alt', value: 'La gala' }, clip(mp4)]);
      expect(res.statusCode, res.body).toBe(202);
      const view = res.json<VideoUploadView>();
      expect(view).toEqual({
        id: expect.any(String),
        status: 'processing',
        content: 'Mi primer video',
        visibility: 'public',
        groupId: null,
        createdAt: expect.any(String),
      });

      const [row] = await database.sql<{ user_id: string; status: string; upload_key: string; bytes: number; alt_text: string; media_id: string | null }[]>`
        SELECT user_id, status, upload_key, bytes, alt_text, media_id FROM video_uploads WHERE id = ${view.id}`;
      expect(row).toEqual({ user_id: user.id, status: 'processing', upload_key: uploadKey(view.id), bytes: mp4.length, alt_text: 'La gala', media_id: null });
      // The file waits for the worker in storage, byte for byte.
      expect(await readFile(join(resolve(config.mediaDir), ...uploadKey(view.id).split('/')))).toEqual(mp4);
      // Never served: only the transcoded MP4 is.
      expect((await app.inject({ method: 'GET', url: `/media/${uploadKey(view.id)}` })).statusCode).toBe(404);
      // The job is in the media queue under its fixed id, and the outbox holds nothing more.
      const job = await app.queues.media.getJob(`video.${view.id}`);
      expect(job?.name).toBe('media.transcode-video');
      expect(job?.data).toEqual({ uploadId: view.id });
      expect(await count('outbox')).toBe(0);
      // No post yet: only its author sees the clip, as being processed.
      expect(await count('posts')).toBe(0);
      const list = await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers });
      expect(list.statusCode).toBe(200);
      expect(list.json<VideoUploadList>()).toEqual({ uploads: [view] });
    });

    it('takes MOV and WebM too, in a group the author belongs to', async () => {
      const { user, headers } = await fan();
      const [group] = await database.db.insert(schema.groups).values({ name: 'Fans', privacy: 'private' }).returning();
      await database.db.insert(schema.groupMembers).values({ groupId: group!.id, userId: user.id });
      const movRes = await post(headers, [{ name: 'groupId', value: group!.id }, clip(mov, 'clip.mov', 'video/quicktime')]);
      expect(movRes.statusCode, movRes.body).toBe(202);
      expect(movRes.json<VideoUploadView>()).toMatchObject({ groupId: group!.id, visibility: 'group', content: '' });
      const webmRes = await post(headers, [{ name: 'visibility', value: 'followers' }, clip(webm, 'clip.webm', 'video/webm')]);
      expect(webmRes.statusCode, webmRes.body).toBe(202);
      // Newest first.
      const list = (await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers })).json<VideoUploadList>();
      expect(list.uploads.map((u) => u.id)).toEqual([webmRes.json<VideoUploadView>().id, movRes.json<VideoUploadView>().id]);
      // Another author's list is their own.
      const other = await fan();
      expect((await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers: other.headers })).json()).toEqual({ uploads: [] });
    });

    it("refuses what is not a clip it can use, with the spec's messages, and keeps nothing", async () => {
      const { headers } = await fan();
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      const group = '2c7e1d0a-7f0e-4b7e-9a55-8b7d2f0c1e11';
      const cases: [MultipartPart[], number, string][] = [
        [[clip(png, 'still.mp4')], 400, WALL_MESSAGES.mediaOnly],
        [[clip(Buffer.from('esto es texto, no un video'), 'notes.mp4')], 400, WALL_MESSAGES.mediaOnly],
        // An MP4's first bytes, then garbage: it claims to be a video, ffprobe cannot read one.
        [[clip(Buffer.concat([mp4.subarray(0, 64), randomBytes(4096)]), 'broken.mp4')], 400, WALL_MESSAGES.videoUnreadable],
        [[clip(long)], 400, WALL_MESSAGES.videoTooLong],
        [[{ name: 'content', value: 'Sin video' }], 400, WALL_MESSAGES.videoMissing],
        [[clip(mp4), clip(mp4)], 400, WALL_MESSAGES.videoOne],
        [[{ name: 'images', filename: 'a.png', type: 'image/png', data: png }], 400, 'El formulario tiene un archivo en un campo no permitido'],
        [[{ name: 'content', value: 'a'.repeat(2001) }, clip(mp4)], 400, WALL_MESSAGES.postTooLong],
        [[{ name: 'visibility', value: 'group' }, clip(mp4)], 400, WALL_MESSAGES.groupRequired],
        [[{ name: 'groupId', value: group }, clip(mp4)], 404, WALL_MESSAGES.groupNotFound],
        [[{ name: 'alt', value: 'a' }, { name: 'alt', value: 'b' }, clip(mp4)], 400, WALL_MESSAGES.tooManyAlts],
      ];
      for (const [parts, status, message] of cases) {
        const res = await post(headers, parts);
        expect([res.statusCode, res.json().message]).toEqual([status, message]);
      }
      expect(await uploads()).toEqual([]);
      expect(await count('outbox')).toBe(0);
      expect(await app.queues.media.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({ waiting: 0, delayed: 0, prioritized: 0 });
    });

    it('refuses a clip over 50 MB with 413 while it streams in, before the body is even complete', async () => {
      const { user, headers } = await fan();
      const boundary = `----tribuna${randomBytes(8).toString('hex')}`;
      const { port } = app.server.address() as AddressInfo;
      const response = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
        let sent = 0;
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/posts/video',
          headers: { cookie: headers.cookie!, ...XHR, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), sent });
            req.destroy();
          });
        });
        void (async () => {
          const write = (data: Buffer) => (req.write(data) ? Promise.resolve() : new Promise<void>((ok) => req.once('drain', () => ok())));
          await write(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="grande.mp4"\r\nContent-Type: video/mp4\r\n\r\n`));
          await write(mp4.subarray(0, 64));
          // One MiB past the limit, then nothing more: the request never ends, the answer comes anyway.
          const chunk = Buffer.alloc(MIB);
          for (let i = 0; i < VIDEO_LIMITS.maxBytes / MIB + 1 && !req.destroyed; i++) {
            await write(chunk);
            sent += chunk.length;
          }
        })().catch(() => undefined);
      });
      expect(response.status, response.body).toBe(413);
      expect(JSON.parse(response.body).message).toBe(WALL_MESSAGES.videoTooLarge);
      expect(response.sent).toBeGreaterThanOrEqual(VIDEO_LIMITS.maxBytes);
      expect(await uploads()).toEqual([]);
      expect(await database.sql`SELECT 1 FROM video_uploads WHERE user_id = ${user.id}`).toHaveLength(0);
      await vi.waitFor(() => expect(app.uploads.budget.inFlight).toBe(0));
    });

    it('refuses visitors (401) and suspended users (403) before reading the body', async () => {
      const visitor = await post({ ...XHR }, [clip(mp4)]);
      expect([visitor.statusCode, visitor.json().message]).toEqual([401, WALL_MESSAGES.notAuthenticated]);
      const suspended = await fan({ isSuspended: true });
      const res = await post(suspended.headers, [clip(mp4)]);
      expect([res.statusCode, res.json().message]).toEqual([403, SUSPENDED_MESSAGE]);
      expect((await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers: XHR })).statusCode).toBe(401);
      // A suspended author still sees their own list.
      expect((await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers: suspended.headers })).statusCode).toBe(200);
      expect(await uploads()).toEqual([]);
    });

    it('answers 503 when ffprobe cannot run, and keeps nothing', async () => {
      const { headers } = await fan();
      vi.stubEnv('FFPROBE_PATH', join(dir, 'no-such-ffprobe'));
      try {
        const res = await post(headers, [clip(mp4)]);
        expect([res.statusCode, res.json().message]).toEqual([503, WALL_MESSAGES.videoUnavailable]);
      } finally {
        vi.unstubAllEnvs();
      }
      expect(await uploads()).toEqual([]);
      expect((await post(headers, [clip(mp4)])).statusCode).toBe(202);
    });
  });

  describe('publishing a transcoded clip', () => {
    it('makes exactly one post with the video, removes the upload, and tells its author on every instance', async () => {
      const mentioned = await fan({ username: 'vera_v' });
      const author = await fan();
      const view = await accepted(author.headers, [
        { name: 'content', value: 'Mira esto @vera_v' },
        { name: 'alt', value: 'El escenario' },
      ]);
      const socket = await authorSocket(author.headers, author.user.id);
      const { mp4Key, posterKey } = await transcodedAsTheWorker(view.id, author.user.id);

      // Heard twice at once (two instances), and once more later: one post.
      const event = { uploadId: view.id, userId: author.user.id, outcome: 'transcoded' as const };
      await Promise.all([app.events.publish('wall.video', event), app.events.publish('wall.video', event)]);
      await app.events.publish('wall.video', event);

      const posts = await database.sql<{ id: string }[]>`SELECT id FROM posts`;
      expect(posts).toHaveLength(1);
      const postId = posts[0]!.id;
      const message = await socket.waitFor<VideoUploadMessage>((m) => m.type === 'video-upload');
      expect(message).toEqual({ type: 'video-upload', topic: `user:${author.user.id}`, uploadId: view.id, status: 'published', postId });

      const card = (await app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json<PostView>();
      expect(card).toMatchObject({ content: 'Mira esto @vera_v', visibility: 'public', groupId: null, author: { id: author.user.id } });
      expect(card.media).toEqual([
        {
          mediaType: 'video',
          durationS: 2,
          url: `/media/${mp4Key}`,
          thumbnailUrl: `/media/${posterKey}`,
          width: 160,
          height: 120,
          placeholder: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
          alt: 'El escenario',
        },
      ]);
      // On the wall, in the same card.
      const feed = (await app.inject({ method: 'GET', url: '/api/posts' })).json<FeedPage>();
      expect(feed.posts.map((p) => [p.id, p.media[0]?.mediaType])).toEqual([[postId, 'video']]);
      // The clip is served, as an MP4 never sniffed into anything else, by ranges (how players seek).
      const served = await app.inject({ method: 'GET', url: `/media/${mp4Key}` });
      expect([served.statusCode, served.headers['content-type'], served.headers['x-content-type-options'], served.rawPayload.length]).toEqual([
        200,
        'video/mp4',
        'nosniff',
        mp4.length,
      ]);
      const range = await app.inject({ method: 'GET', url: `/media/${mp4Key}`, headers: { range: 'bytes=0-99' } });
      expect([range.statusCode, range.rawPayload]).toEqual([206, mp4.subarray(0, 100)]);

      // The upload is gone: its row, its file, the author's list.
      expect(await uploads()).toEqual([]);
      expect(await app.media.storage.exists(uploadKey(view.id))).toBe(false);
      await expect(stat(join(resolve(config.mediaDir), 'uploads', `${view.id}.upload`))).rejects.toThrow();
      expect((await app.inject({ method: 'GET', url: '/api/me/video-uploads', headers: author.headers })).json()).toEqual({ uploads: [] });
      // The mention was noted in the post's transaction ('wall.written').
      const notes = await database.sql<{ type: string; post_id: string }[]>`SELECT type, post_id FROM notifications WHERE user_id = ${mentioned.user.id}`;
      expect(notes).toEqual([{ type: 'post_mention', post_id: postId }]);
      // Told once.
      expect(videoMessages(socket)).toHaveLength(1);
    });

    it('tells the author a clip failed, and publishes nothing', async () => {
      const author = await fan();
      const view = await accepted(author.headers);
      const socket = await authorSocket(author.headers, author.user.id);
      await app.events.publish('wall.video', { uploadId: view.id, userId: author.user.id, outcome: 'failed' });
      expect(await socket.waitFor((m) => m.type === 'video-upload')).toEqual({
        type: 'video-upload',
        topic: `user:${author.user.id}`,
        uploadId: view.id,
        status: 'failed',
        postId: null,
      });
      expect(await count('posts')).toBe(0);
    });

    it('publishes nothing for a clip still processing, and drops the clip of an author suspended meanwhile', async () => {
      const author = await fan();
      const processing = await accepted(author.headers);
      await app.events.publish('wall.video', { uploadId: processing.id, userId: author.user.id, outcome: 'transcoded' });
      expect(await count('posts')).toBe(0);
      expect(await uploads()).toHaveLength(1);

      await transcodedAsTheWorker(processing.id, author.user.id);
      await database.db.update(schema.profiles).set({ isSuspended: true }).where(eq(schema.profiles.id, author.user.id));
      // A suspended user's sockets no longer watch their topic: what they would be told goes out all the same.
      const told: unknown[] = [];
      const stop = app.events.subscribe('wall.live', (message) => void (message.type === 'video-upload' && told.push(message)));
      try {
        await app.events.publish('wall.video', { uploadId: processing.id, userId: author.user.id, outcome: 'transcoded' });
      } finally {
        stop();
      }
      expect(told).toEqual([{ type: 'video-upload', topic: `user:${author.user.id}`, uploadId: processing.id, status: 'failed', postId: null }]);
      expect(await count('posts')).toBe(0);
      expect(await uploads()).toEqual([]);
      expect(await app.media.storage.exists(uploadKey(processing.id))).toBe(false);
    });

    it('publishes, by its sweep, the transcoded clips whose event was lost (and only those older than its grace)', async () => {
      const sweeper = await buildApp(config, { wall: { videoSweep: { everyMs: 20, olderThanS: 30 } } });
      await sweeper.ready();
      try {
        const author = await fan();
        const lost = await accepted(author.headers);
        const recent = await accepted(author.headers);
        await transcodedAsTheWorker(lost.id, author.user.id);
        await transcodedAsTheWorker(recent.id, author.user.id);
        // The lost one was uploaded a minute ago; the recent one's event may still come.
        await database.sql`UPDATE video_uploads SET created_at = now() - interval '1 minute' WHERE id = ${lost.id}`;
        await vi.waitFor(async () => expect(await count('posts')).toBe(1), { timeout: 5_000 });
        expect((await uploads()).map((u) => u.id)).toEqual([recent.id]);
        expect(await app.media.storage.exists(uploadKey(lost.id))).toBe(false);
      } finally {
        await sweeper.close();
      }
    });

    it('gives up, by its sweep, on clips still processing long after their upload: row and file gone, the author told', async () => {
      const sweeper = await buildApp(config, { wall: { videoSweep: { everyMs: 20, olderThanS: 30, abandonAfterS: 3600 } } });
      await sweeper.ready();
      try {
        const author = await fan();
        const stuck = await accepted(author.headers);
        const fresh = await accepted(author.headers);
        const socket = await authorSocket(author.headers, author.user.id);
        await database.sql`UPDATE video_uploads SET created_at = now() - interval '3 hours' WHERE id = ${stuck.id}`;
        const told = await socket.waitFor((m) => m.type === 'video-upload');
        expect(told).toMatchObject({ uploadId: stuck.id, status: 'failed', postId: null });
        expect((await uploads()).map((u) => u.id)).toEqual([fresh.id]);
        expect(await app.media.storage.exists(uploadKey(stuck.id))).toBe(false);
        expect(await app.media.storage.exists(uploadKey(fresh.id))).toBe(true);
        expect(await count('posts')).toBe(0);
      } finally {
        await sweeper.close();
      }
    });
  });
});
