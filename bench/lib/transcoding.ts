// Keeps the worker transcoding video clips during a votes round (issue 30: transcoding runs in the
// worker only, so the votes keep their rate while a clip is processed). Each clip goes the way a
// fan's does after POST /api/posts/video: a video_uploads row, the file under MEDIA_DIR/uploads,
// a 'media.transcode-video' job on the media queue.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import postgres from 'postgres';
import { JOB_QUEUES } from '@tribuna/contracts/jobs';
import { uploadKey } from '../../server/src/media/storage.ts';
import type { BenchEnv } from './infra.ts';
import { sleep } from './processes.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The clip every job transcodes: 720p, 30 fps, with sound, `seconds` long (H.264 as a phone records it). */
export const BENCH_CLIP = { width: 1280, height: 720, fps: 30, seconds: 60 } as const;

/** Writes the bench clip into `dir` with the project's own ffmpeg; returns its path. */
export async function makeBenchClip(dir: string): Promise<string> {
  const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const path = join(dir, 'bench-clip.mp4');
  const { width, height, fps, seconds } = BENCH_CLIP;
  await run(
    ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=${fps}`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      path,
    ],
    { timeout: 300_000 },
  );
  return path;
}

export interface TranscodeLoadResult {
  /** Clips handed to the worker while the load ran (the last one may have been removed unstarted). */
  uploadsAdded: number;
  /** Of them, clips the worker transcoded (their post published, or about to be). */
  transcoded: number;
}

/**
 * While running, keeps one transcode job waiting behind the active one, so the worker never idles.
 * `stop` stops adding, removes the waiting job and waits for the active one to end (a later round
 * must not pay for it).
 */
export class TranscodeLoad {
  private readonly queue: Queue;
  private readonly sql: postgres.Sql;
  private readonly ids: string[] = [];
  private running = false;
  private loop: Promise<void> | null = null;
  private startedAt = new Date();

  constructor(
    private readonly env: BenchEnv,
    private readonly mediaDir: string,
    private readonly userId: string,
    private readonly clip: string,
  ) {
    this.queue = new Queue(JOB_QUEUES['media.transcode-video'], { connection: { url: env.redisUrl }, prefix: env.redisPrefix });
    this.sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
  }

  private async add(): Promise<void> {
    const id = randomUUID();
    const key = uploadKey(id);
    await mkdir(join(this.mediaDir, 'uploads'), { recursive: true });
    await copyFile(this.clip, join(this.mediaDir, ...key.split('/')));
    await this.sql`INSERT INTO video_uploads (id, user_id, content, visibility, upload_key, bytes)
      VALUES (${id}, ${this.userId}, 'Clip del benchmark', 'public', ${key}, 1)`;
    await this.queue.add('media.transcode-video', { uploadId: id }, { jobId: `video.${id}`, attempts: 1, removeOnComplete: true, removeOnFail: true });
    this.ids.push(id);
  }

  /** Starts the load and resolves once the worker has picked up the first job. */
  async start(): Promise<void> {
    this.running = true;
    this.startedAt = new Date();
    await this.add();
    await this.add();
    while ((await this.queue.getActiveCount()) === 0) await sleep(100);
    this.loop = (async () => {
      while (this.running) {
        if ((await this.queue.getWaitingCount()) === 0) await this.add();
        await sleep(250);
      }
    })();
  }

  async stop(): Promise<TranscodeLoadResult> {
    this.running = false;
    await this.loop;
    await this.queue.drain();
    while ((await this.queue.getActiveCount()) > 0) await sleep(200);
    const [row] = await this.sql<{ rows: number; posts: number }[]>`
      SELECT (SELECT count(*)::int FROM video_uploads WHERE id = ANY(${this.ids}::uuid[]) AND status = 'transcoded') AS rows,
             (SELECT count(*)::int FROM posts WHERE content = 'Clip del benchmark' AND created_at >= ${this.startedAt}) AS posts`;
    // Clips removed from the queue before they started: nothing will process them.
    await this.sql`DELETE FROM video_uploads WHERE id = ANY(${this.ids}::uuid[]) AND status = 'processing'`;
    await this.queue.close();
    await this.sql.end();
    return { uploadsAdded: this.ids.length, transcoded: (row?.rows ?? 0) + (row?.posts ?? 0) };
  }
}
