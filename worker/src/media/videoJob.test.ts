import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Queue, UnrecoverableError, Worker, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { schema } from '@tribuna/drizzle';
import { busChannel, type BusEnvelope } from '@tribuna/contracts/events';
import type { VideoUploadEvent } from '@tribuna/contracts/api/wall';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildUser } from '../../../test/support/factories.ts';
import { useQueueWorker } from '../../../test/support/worker.ts';
import { LocalDiskStorage, uploadKey } from '../../../server/src/media/storage.ts';
import { startWorker } from '../app.ts';
import type { JobContext } from '../context.ts';
import { handlers } from '../handlers.ts';
import type { JobHandler } from '../registry.ts';
import { ffmpegBinaries, type FfmpegBinaries } from './video.ts';
import { createTranscodeVideoJob, TRANSCODE_DIR_PREFIX, UnusableClipError, type TranscodeVideoDeps } from './videoJob.ts';

const run = promisify(execFile);
const JOB = 'media.transcode-video';
const root = mkdtempSync(join(tmpdir(), 'tribuna-video-job-'));
// Own Redis namespace under the run's prefix: only this file's workers consume its media queue.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_video`, MEDIA_DIR: root });
const database = testDatabase();
const db = database.db;
const storage = new LocalDiskStorage(root);

/** Every `wall.video` event the handler published, in order (captured in-process: exact counts). */
let published: VideoUploadEvent[] = [];
/** Per-test hooks of the handler the worker runs. */
let hooks: Pick<TranscodeVideoDeps, 'beforeCommit'> & { binaries?: FfmpegBinaries } = {};

/**
 * The real handler, its events recorded on their way to the bus. FFmpeg neither yields nor runs in the
 * idle scheduling class: the test run keeps the cores busy, and an idle-class FFmpeg would wait for
 * a free core as long as that lasts (a 30 s timeout in CI).
 */
function recorded(deps: TranscodeVideoDeps = {}): JobHandler<typeof JOB> {
  const handler = createTranscodeVideoJob({ yieldWhileBusy: false, niceness: 0, ...deps });
  return (payload, ctx) =>
    handler(payload, {
      ...ctx,
      publishEvent: (name, event) => {
        if (name === 'wall.video') published.push(event as VideoUploadEvent);
        return ctx.publishEvent(name, event);
      },
    });
}

const harness = useQueueWorker(config, database, 'media', 120_000, {
  ...handlers,
  [JOB]: recorded({
    beforeCommit: (upload) => hooks.beforeCommit?.(upload) ?? Promise.resolve(),
    binaries: () => hooks.binaries ?? ffmpegBinaries(),
  }),
});

let clip: string;
let bus: Redis;
const heard: BusEnvelope[] = [];

beforeAll(async () => {
  clip = join(root, 'clip.mov');
  // A small 2 s test pattern with a tone: the job's work, not FFmpeg's speed, is under test.
  await run(ffmpegBinaries().ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-c:v',
    'mpeg4',
    '-c:a',
    'aac',
    '-shortest',
    clip,
  ]);
  bus = new Redis(config.redisUrl);
  bus.on('message', (_channel: string, message: string) => heard.push(JSON.parse(message) as BusEnvelope));
  await bus.subscribe(busChannel(config.redisPrefix));
}, 60_000);
beforeEach(() => {
  published = [];
  hooks = {};
  heard.length = 0;
});
afterAll(async () => {
  bus?.disconnect();
  await rm(root, { recursive: true, force: true });
});

/** The pid of a process that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await once(child, 'exit');
  return child.pid!;
}

/** A video_uploads row of a new author, its file (`source`, the test clip by default) stored as the server does. */
async function upload(source = clip) {
  const author = await buildUser(db);
  const id = randomUUID();
  const key = uploadKey(id);
  await storage.putFile(key, source, 'application/octet-stream');
  await db
    .insert(schema.videoUploads)
    .values({ id, userId: author.id, visibility: 'public', content: 'Mirad esto', uploadKey: key, bytes: (await stat(source)).size });
  return { id, userId: author.id, key };
}

async function uploadRow(id: string) {
  const [row] = await db.select().from(schema.videoUploads).where(eq(schema.videoUploads.id, id));
  return row;
}

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

/** Adds the job with `options` over the queue's defaults (e.g. a short backoff). */
function enqueue(uploadId: string, options: JobsOptions = {}) {
  return harness.app.queues.get('media')!.add(JOB, { uploadId }, options);
}

describe('media.transcode-video (BullMQ)', () => {
  it('transcodes an upload into a video media row, MP4 and poster files, marks it transcoded and says so on the bus; again, it only says so again', async () => {
    const { id, userId, key } = await upload();
    // What a worker killed mid-transcode left in the system's tmp.
    const orphan = join(tmpdir(), `${TRANSCODE_DIR_PREFIX}${await deadPid()}-AbC123`);
    await mkdir(orphan);
    await writeFile(join(orphan, 'upload'), 'half a clip');

    const result = (await harness.run(enqueue(id))) as { outcome: string; mediaId: string; republished: boolean };
    expect(result).toMatchObject({ outcome: 'transcoded', republished: false });

    const row = await uploadRow(id);
    expect(row).toMatchObject({ status: 'transcoded', mediaId: result.mediaId });
    const [media] = await db.select().from(schema.media).where(eq(schema.media.id, result.mediaId));
    expect(media).toMatchObject({ contentType: 'video/mp4', width: 320, height: 240, uploadedBy: userId });
    expect(media!.key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.mp4$/);
    expect(media!.thumbKey).toMatch(/\.webp$/);
    expect(media!.durationMs).toBeGreaterThan(1900);
    expect(media!.durationMs).toBeLessThan(2200);
    expect(media!.placeholder?.length).toBeGreaterThan(5);
    expect(media!.bytes).toBe((await stat(join(root, media!.key))).size);
    // The upload stays until a server has published the post.
    const files = await storedKeys();
    expect(files).toEqual([media!.key, media!.thumbKey, key].sort());

    // Its own directory removed when done, the dead worker's too.
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(`${TRANSCODE_DIR_PREFIX}${process.pid}-`) || name === basename(orphan))).toEqual([]);

    const event = { uploadId: id, userId, outcome: 'transcoded' };
    expect(published).toEqual([event]);
    await expect.poll(() => heard.filter((e) => e.name === 'wall.video')).toEqual([{ name: 'wall.video', origin: 'worker', payload: event }]);

    // The same job again (a redelivery, or the sweep): the event again, nothing created.
    expect(await harness.run(enqueue(id))).toEqual({ outcome: 'transcoded', mediaId: result.mediaId, republished: true });
    expect(published).toEqual([event, event]);
    expect(await db.$count(schema.media)).toBe(1);
    expect(await storedKeys()).toEqual(files);
  });

  it('gives a file that is not a video up at once: row and upload deleted, a failed event, no retry', async () => {
    const text = join(root, 'notes.mp4');
    await writeFile(text, 'this is text, not a video');
    const { id, userId, key } = await upload(text);

    const job = await enqueue(id, { attempts: 3 });
    await expect(harness.run(Promise.resolve(job))).rejects.toThrow(/cannot be transcoded: not a video/);
    const failed = await harness.app.queues.get('media')!.getJob(job.id!);
    // UnrecoverableError: one attempt of three.
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe('failed');

    expect(await uploadRow(id)).toBeUndefined();
    expect(await storage.exists(key)).toBe(false);
    expect(await db.$count(schema.media)).toBe(0);
    expect(published).toEqual([{ uploadId: id, userId, outcome: 'failed' }]);
    expect(new UnusableClipError(id, 'x')).toBeInstanceOf(UnrecoverableError);
  });

  it('a run that dies after storing the files is retried once: one media row, one transcoded event', async () => {
    const { id, userId } = await upload();
    let runs = 0;
    hooks.beforeCommit = async () => {
      runs++;
      if (runs === 1) throw new Error('worker died before its transaction');
    };
    const job = await enqueue(id, { attempts: 3, backoff: { type: 'fixed', delay: 10 } });
    const result = (await harness.run(Promise.resolve(job))) as { mediaId: string };

    expect(runs).toBe(2);
    expect((await harness.app.queues.get('media')!.getJob(job.id!))?.attemptsMade).toBe(2);
    expect(await db.$count(schema.media)).toBe(1);
    expect(await uploadRow(id)).toMatchObject({ status: 'transcoded', mediaId: result.mediaId });
    expect(published).toEqual([{ uploadId: id, userId, outcome: 'transcoded' }]);
    // The second run found the first one's files (same bytes, same keys): two files, not four.
    expect((await storedKeys()).filter((k) => !k.startsWith('uploads/'))).toHaveLength(2);
  });

  it('with FFmpeg unusable, fails plainly, retries, and gives the clip up after the last attempt', async () => {
    const { id, userId, key } = await upload();
    hooks.binaries = { ffmpeg: join(root, 'no-such-ffmpeg'), ffprobe: join(root, 'no-such-ffprobe') };
    const job = await enqueue(id, { attempts: 2, backoff: { type: 'fixed', delay: 10 } });
    await expect(harness.run(Promise.resolve(job))).rejects.toThrow(/FFmpeg is not usable/);
    expect((await harness.app.queues.get('media')!.getJob(job.id!))?.attemptsMade).toBe(2);
    expect(await uploadRow(id)).toBeUndefined();
    expect(await storage.exists(key)).toBe(false);
    expect(published).toEqual([{ uploadId: id, userId, outcome: 'failed' }]);
  });

  it('does nothing for an upload already published or given up', async () => {
    expect(await harness.run(enqueue(randomUUID()))).toEqual({ outcome: 'gone' });
    expect(published).toEqual([]);
  });
});

describe('media.transcode-video, a worker killed mid-way', () => {
  it('is taken over once its lock lapses (BullMQ stalled-job recovery): one media row, one transcoded event', async () => {
    // Own namespace: the dead worker and its successor are the only consumers.
    const stallConfig = testConfig({ REDIS_PREFIX: `${config.redisPrefix}_stall`, MEDIA_DIR: root });
    const connection = { url: stallConfig.redisUrl };
    const queue = new Queue('media', { connection, prefix: stallConfig.redisPrefix });
    const { id, userId } = await upload();

    // The first worker stores the files, then stops for good before its transaction, its lock no
    // longer renewed (a process killed -9 at that point); its own stalled check hands the job back.
    let stopped!: () => void;
    const atCommit = new Promise<void>((resolve) => (stopped = resolve));
    let resume!: (err: Error) => void;
    const dead = new Promise<never>((_, reject) => (resume = reject));
    dead.catch(() => undefined);
    const ctx: Omit<JobContext, 'attempt'> = { db, config: stallConfig, logger: pino({ level: 'silent' }), publishEvent: async () => 0 };
    const dying = recorded({
      beforeCommit: async () => {
        stopped();
        await dead;
      },
    });
    const first = new Worker('media', (job) => dying(job.data as { uploadId: string }, { ...ctx, attempt: { number: job.attemptsMade + 1, max: 3 } }), {
      connection,
      prefix: stallConfig.redisPrefix,
      lockDuration: 1000,
      skipLockRenewal: true,
      stalledInterval: 300,
    });
    first.on('error', () => undefined);
    let successor: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const job = await queue.add(JOB, { uploadId: id }, { attempts: 3 });
      await atCommit;
      const keysBefore = await storedKeys();
      successor = await startWorker({
        config: stallConfig,
        db,
        logger: pino({ level: 'silent' }),
        schedules: false,
        handlers: { ...handlers, [JOB]: recorded() },
      });
      await expect.poll(async () => (await queue.getJob(job.id!))?.getState(), { timeout: 60_000, interval: 200 }).toBe('completed');

      const done = await queue.getJob(job.id!);
      expect(done?.stalledCounter).toBe(1);
      expect(done?.returnvalue).toMatchObject({ outcome: 'transcoded', republished: false });
      expect(await db.$count(schema.media)).toBe(1);
      expect(await uploadRow(id)).toMatchObject({ status: 'transcoded' });
      expect(published).toEqual([{ uploadId: id, userId, outcome: 'transcoded' }]);
      // The successor found the dead run's files and stored nothing new.
      expect(await storedKeys()).toEqual(keysBefore);
    } finally {
      resume(new Error('the dead run ends with the test'));
      await first.close();
      await successor?.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 90_000);
});
