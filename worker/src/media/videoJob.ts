import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { Config } from '@tribuna/contracts/config';
import { VIDEO_LIMITS } from '@tribuna/contracts/wallRules';
import { fileContentKey, LocalDiskStorage, type MediaStorage } from '../../../server/src/media/storage.ts';
import { createUploadDir, processAlive, removeOrphanUploadDirs } from '../../../server/src/media/uploadDirs.ts';
import { isLastAttempt, type JobContext } from '../context.ts';
import type { JobHandler } from '../registry.ts';
import { insertMedia } from '../../../server/src/media/repository.ts';
import { deleteProcessingUpload, findVideoUpload, markUploadTranscoded, type VideoUploadRow } from './repository.ts';
import { checkFfmpeg, ffmpegBinaries, NotAVideoError, probeVideo, transcodeVideo, type FfmpegBinaries } from './video.ts';

// Step 2 of a video post (issue 30): the server stored the clip as uploaded and a video_uploads row
// ('processing'); this job transcodes it, stores the MP4 and its poster (content-addressed), inserts
// their media row and marks the upload 'transcoded' in one transaction, then publishes the cluster
// event `wall.video` on which a server publishes the post. A clip that can never be used, or whose
// last attempt failed, is given up: its row and upload file deleted, `wall.video` 'failed'.

/**
 * This process's directories for a clip and its outputs, under the system's tmp: removed once the run
 * ends; those of a worker killed mid-way are removed by the next transcode on the machine.
 */
export const TRANSCODE_DIR_PREFIX = 'tribuna-transcode-';

/** A clip no attempt can transcode (not a video, too long, its upload file gone): fails the job at once. */
export class UnusableClipError extends UnrecoverableError {
  constructor(
    readonly uploadId: string,
    reason: string,
  ) {
    super(`video upload ${uploadId} cannot be transcoded: ${reason}`);
    this.name = 'UnusableClipError';
  }
}

export interface TranscodeVideoDeps {
  /** Where uploads and media files live (default: the local disk at MEDIA_DIR). */
  storage?: (config: Config) => MediaStorage;
  /** The FFmpeg build to use (default: ffmpegBinaries(), FFMPEG_PATH / FFPROBE_PATH or the installed one). */
  binaries?: () => FfmpegBinaries;
  /** Runs once the files are stored, before the transaction (tests: a run that dies there). */
  beforeCommit?: (upload: VideoUploadRow) => Promise<void>;
  /**
   * Whether FFmpeg yields to a busy machine (video.ts runNiced; default: yes). Tests of the job's
   * life turn it off: the test run keeps every core busy, and a yielding transcode would take minutes.
   */
  yieldWhileBusy?: boolean;
  /**
   * FFmpeg's niceness (default: the configuration's TRANSCODE_NICENESS, 19 and the idle scheduling
   * class unless set). Tests of the job's life pass 0: in the idle class FFmpeg gets no CPU at all
   * while the test run keeps every core busy.
   */
  niceness?: number;
}

export type TranscodeVideoResult =
  /** The upload was published or given up already: nothing to do. */
  | { outcome: 'gone' }
  /** Transcoded by this run, or by an earlier one (`republished`: only the event was sent again). */
  | { outcome: 'transcoded'; mediaId: string; republished: boolean };

/** The handler of `media.transcode-video`. Idempotent: a retried or repeated job creates nothing twice. */
export function createTranscodeVideoJob(deps: TranscodeVideoDeps = {}): JobHandler<'media.transcode-video'> {
  const storageOf = deps.storage ?? ((config: Config) => new LocalDiskStorage(config.mediaDir));
  return async ({ uploadId }, ctx): Promise<TranscodeVideoResult> => {
    const upload = await findVideoUpload(ctx.db, uploadId);
    if (!upload) return { outcome: 'gone' };
    if (upload.status === 'transcoded') return republish(ctx, upload);
    const storage = storageOf(ctx.config);
    try {
      return await transcodeUpload(ctx, storage, upload, deps);
    } catch (err) {
      const unusable = err instanceof UnusableClipError;
      if (unusable || isLastAttempt(ctx)) {
        ctx.logger.warn({ uploadId, err: { name: (err as Error).name, message: (err as Error).message } }, 'video upload given up');
        await giveUp(ctx, storage, upload);
      }
      throw err;
    }
  };
}

/** The row is 'transcoded' (an earlier run committed, then died or lost its event): the event again, nothing else. */
async function republish(ctx: JobContext, upload: VideoUploadRow): Promise<TranscodeVideoResult> {
  await ctx.publishEvent('wall.video', { uploadId: upload.id, userId: upload.userId, outcome: 'transcoded' });
  return { outcome: 'transcoded', mediaId: upload.mediaId!, republished: true };
}

/** Someone else's run marked the row first (two runs of one job after a stall): ours rolls back. */
class AlreadyTranscoded extends Error {}

async function transcodeUpload(ctx: JobContext, storage: MediaStorage, upload: VideoUploadRow, deps: TranscodeVideoDeps): Promise<TranscodeVideoResult> {
  // A missing or broken FFmpeg is told plainly (FfmpegUnavailableError) before any work, and retried.
  const bin = (deps.binaries ?? ffmpegBinaries)();
  await checkFfmpeg(bin);
  const started = performance.now();
  await removeOrphanUploadDirs(tmpdir(), processAlive, TRANSCODE_DIR_PREFIX);
  const dir = await createUploadDir(tmpdir(), TRANSCODE_DIR_PREFIX);
  try {
    const input = join(dir, 'upload');
    try {
      await storage.getFile(upload.uploadKey, input);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UnusableClipError(upload.id, 'its upload file is missing');
      throw err;
    }
    let video;
    try {
      // The server probed it before accepting it; checked again here, the job trusts no file.
      const probe = await probeVideo(input, bin);
      if (probe.durationS > VIDEO_LIMITS.maxDurationS) throw new UnusableClipError(upload.id, `${probe.durationS.toFixed(1)} s is too long`);
      video = await transcodeVideo(input, dir, {
        bin,
        yieldWhileBusy: deps.yieldWhileBusy,
        niceness: deps.niceness ?? ctx.config.transcodeNiceness,
      });
    } catch (err) {
      if (err instanceof NotAVideoError) throw new UnusableClipError(upload.id, err.message);
      throw err;
    }
    const [key, thumbKey] = await Promise.all([fileContentKey(video.mp4, 'mp4'), fileContentKey(video.poster, 'webp')]);
    // Content-addressed: a key already present holds exactly these bytes (an earlier attempt's).
    if (!(await storage.exists(key))) await storage.putFile(key, video.mp4, 'video/mp4');
    if (!(await storage.exists(thumbKey))) await storage.putFile(thumbKey, video.poster, 'image/webp');
    const stored = {
      key,
      thumbKey,
      width: video.width,
      height: video.height,
      bytes: (await stat(video.mp4)).size,
      placeholder: video.placeholder,
      durationMs: Math.round(video.durationS * 1000),
    };
    await deps.beforeCommit?.(upload);
    let mediaId: string;
    try {
      mediaId = await ctx.db.transaction(async (tx) => {
        const id = await insertMedia(tx, { ...stored, contentType: 'video/mp4' }, upload.userId);
        if (!(await markUploadTranscoded(tx, upload.id, id))) throw new AlreadyTranscoded();
        return id;
      });
    } catch (err) {
      if (!(err instanceof AlreadyTranscoded)) throw err;
      const now = await findVideoUpload(ctx.db, upload.id);
      return now?.status === 'transcoded' ? republish(ctx, now) : { outcome: 'gone' };
    }
    await ctx.publishEvent('wall.video', { uploadId: upload.id, userId: upload.userId, outcome: 'transcoded' });
    ctx.logger.info(
      { uploadId: upload.id, mediaId, durationMs: stored.durationMs, bytes: stored.bytes, ms: Math.round(performance.now() - started) },
      'video transcoded',
    );
    return { outcome: 'transcoded', mediaId, republished: false };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Deletes the row (if still 'processing': a row another run marked 'transcoded' is kept) and its
 * upload file, and tells the author's server. Files stored by a failed attempt that no row names
 * are left to media.gc.
 */
async function giveUp(ctx: JobContext, storage: MediaStorage, upload: VideoUploadRow): Promise<void> {
  const deleted = await deleteProcessingUpload(ctx.db, upload.id);
  if (!deleted) return;
  await storage.delete(deleted.uploadKey);
  await ctx.publishEvent('wall.video', { uploadId: upload.id, userId: deleted.userId, outcome: 'failed' });
}
