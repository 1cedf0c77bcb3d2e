import { randomUUID } from 'node:crypto';
import { fileTypeFromFile } from 'file-type';
import type { VideoUploadEvent, VideoUploadList, VideoUploadMessage, VideoUploadView } from '@tribuna/contracts/api/wall';
import { userTopic } from '@tribuna/contracts/liveTopics';
import { VIDEO_LIMITS, VIDEO_TYPES, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { drizzleRunner } from '@tribuna/drizzle/pipelined';
import { badRequest, HttpError } from '../http/errors.ts';
import type { MediaService } from '../media/service.ts';
import { uploadKey } from '../media/storage.ts';
import { FfmpegUnavailableError, NotAVideoError, type VideoProbe } from '../media/videoProbe.ts';
import type { Outbox } from '../outbox/plugin.ts';
import type { AfterCommit } from '../events/bus.ts';
import * as repo from './repository.ts';
import { altTexts, announcePost, postTarget, type UploadInput, type WallContext, type WallMedia, type Writer } from './service.ts';

// Video posts (issue 30). A clip is accepted here (checked, stored, queued: 202), transcoded by the
// worker (job media.transcode-video), and published as a post by whichever server instance wins
// the worker's `wall.video` event; meanwhile only its author sees it ('Procesando video…').

/** What video posts need beyond the wall's context. */
export interface VideoContext extends WallContext {
  media: WallMedia & Pick<MediaService, 'probeVideo'> & { storage: Pick<MediaService['storage'], 'putFile' | 'delete' | 'urlFor'> };
  outbox: Pick<Outbox, 'enqueue' | 'deliver'>;
  /**
   * Hands a message to this instance's own viewers of its topic: every instance hears the worker's
   * `wall.video` event itself, so a failure needs no second trip through the cluster.
   */
  tellHere(message: VideoUploadMessage): void;
}

/** Clips listed as being processed, at most. */
export const VIDEO_UPLOADS_LISTED = 20;

const presentUpload = (row: repo.VideoUploadRow): VideoUploadView => ({
  id: row.id,
  status: 'processing',
  content: row.content,
  visibility: row.visibility,
  groupId: row.group_id,
  createdAt: row.created_at,
});

/**
 * Accepts a clip for a post (one file, already limited to 50 MB while streaming): the post's text,
 * group and visibility by createPost's rules; the bytes must be an MP4, MOV or WebM (sniffed, never
 * the client's claim) that ffprobe reads, of at most 3 minutes. Then the file is stored under its
 * upload key and one transaction records the upload and its transcode job (the outbox: the job is
 * never lost, even if Redis or this instance fails right after). A failed transaction removes the
 * stored file. Answers the upload, 'processing'.
 */
export async function createVideoPost(ctx: VideoContext, writer: Writer, input: UploadInput): Promise<VideoUploadView> {
  const videos = input.files.filter((f) => f.field === 'video');
  if (videos.length > 1) throw badRequest(WALL_MESSAGES.videoOne);
  const video = videos[0];
  if (!video) throw badRequest(WALL_MESSAGES.videoMissing);
  const { content, groupId, visibility } = await postTarget(ctx, writer, input.fields, 1);
  const [alt = null] = altTexts(input.fields, 1);

  const sniffed = await fileTypeFromFile(video.path);
  const type = sniffed?.mime;
  if (!type || !(VIDEO_TYPES as readonly string[]).includes(type)) throw badRequest(WALL_MESSAGES.mediaOnly);
  const probe = await probeUpload(ctx, video.path);
  if (probe.durationS > VIDEO_LIMITS.maxDurationS) throw badRequest(WALL_MESSAGES.videoTooLong);

  const id = randomUUID();
  const key = uploadKey(id);
  await ctx.media.storage.putFile(key, video.path, type);
  let row: repo.VideoUploadRow;
  let job: number;
  try {
    ({ row, job } = await ctx.db.transaction(async (tx) => {
      const inserted = await repo.insertVideoUpload(tx, {
        id,
        userId: writer.id,
        groupId,
        content,
        visibility,
        altText: alt,
        uploadKey: key,
        bytes: video.bytes,
      });
      return { row: inserted, job: await ctx.outbox.enqueue(tx, 'media.transcode-video', { uploadId: id }, { jobId: `video.${id}` }) };
    }));
  } catch (err) {
    await ctx.media.storage
      .delete(key)
      .catch((deleteErr: unknown) => ctx.log.warn({ err: deleteErr, key }, 'removing the upload of a failed video post failed'));
    throw err;
  }
  await ctx.outbox.deliver([job]);
  return presentUpload(row);
}

/** ffprobe under the media limiter, its failures as the answers people get. */
async function probeUpload(ctx: VideoContext, path: string): Promise<VideoProbe> {
  try {
    return await ctx.media.probeVideo(path);
  } catch (err) {
    if (err instanceof NotAVideoError) throw badRequest(WALL_MESSAGES.videoUnreadable);
    if (err instanceof FfmpegUnavailableError) {
      ctx.log.error({ err: { message: err.message } }, 'ffprobe unavailable: video posts are refused');
      throw new HttpError(503, WALL_MESSAGES.videoUnavailable);
    }
    throw err;
  }
}

/** The signed-in author's clips not published yet, newest first (both states show as 'processing'). */
export async function listVideoUploads(ctx: WallContext, userId: string): Promise<VideoUploadList> {
  const rows = await repo.listVideoUploads(ctx.reader, userId, VIDEO_UPLOADS_LISTED);
  return { uploads: rows.map(presentUpload) };
}

/** What the worker said about a clip (the cluster event `wall.video`, heard by every instance, maybe twice). */
export async function onVideoEvent(ctx: VideoContext, event: VideoUploadEvent): Promise<void> {
  if (event.outcome === 'transcoded') {
    await publishVideoPost(ctx, event.uploadId);
    return;
  }
  ctx.tellHere({ type: 'video-upload', topic: userTopic(event.userId.toLowerCase()), uploadId: event.uploadId, status: 'failed', postId: null });
}

type Finalized = { userId: string; uploadKey: string } & (
  { outcome: 'published'; postId: string; groupId: string | null; visibility: repo.VideoUploadRow['visibility']; after: AfterCommit[] } | { outcome: 'dropped' }
);

/**
 * Publishes a transcoded clip as its author's post, once whatever the number of instances and
 * events: the row is locked (SKIP LOCKED: another instance at it means nothing to do here) and
 * deleted in the transaction inserting the post, its video media and the mentions' notifications
 * (the 'wall.written' event). After commit: the upload file goes, the wall hears of a public post,
 * and the author is told which post it became on every instance. A clip of an author suspended
 * meanwhile is dropped, and the author told it failed. Resolves to the post's id, or null when
 * there was nothing (left) to publish.
 */
export async function publishVideoPost(ctx: VideoContext, uploadId: string): Promise<string | null> {
  const result = await ctx.db.transaction(async (tx): Promise<Finalized | null> => {
    const upload = await repo.lockTranscodedUpload(tx, uploadId);
    if (!upload) return null;
    await repo.deleteVideoUpload(tx, upload.id);
    const done = { userId: upload.userId, uploadKey: upload.uploadKey };
    if (upload.authorSuspended) return { ...done, outcome: 'dropped' };
    const { media } = upload;
    const postId = await repo.insertPost(tx, { userId: upload.userId, groupId: upload.groupId, content: upload.content, visibility: upload.visibility }, [
      {
        mediaType: 'video',
        mediaId: media.id,
        url: ctx.media.storage.urlFor(media.key),
        thumbnailUrl: ctx.media.storage.urlFor(media.thumbKey),
        width: media.width,
        height: media.height,
        altText: upload.altText,
      },
    ]);
    const after = await ctx.joinTransaction(drizzleRunner(tx), { kind: 'post-written', postId, actorId: upload.userId, content: upload.content });
    return { ...done, outcome: 'published', postId, groupId: upload.groupId, visibility: upload.visibility, after };
  });
  if (!result) return null;
  const key = result.uploadKey;
  await ctx.media.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, "removing a published clip's upload failed; the media GC will"));
  const topic = userTopic(result.userId);
  if (result.outcome === 'dropped') {
    await ctx.publish({ type: 'video-upload', topic, uploadId, status: 'failed', postId: null });
    return null;
  }
  const { postId } = result;
  await announcePost(ctx, { postId, authorId: result.userId, groupId: result.groupId, visibility: result.visibility }, result.after);
  await ctx.publish({ type: 'video-upload', topic, uploadId, status: 'published', postId });
  return postId;
}

/** Clips an event was lost for (see repo.unpublishedTranscodedUploads), published now; resolves to how many. */
export async function publishLostVideoPosts(ctx: VideoContext, olderThanS: number): Promise<number> {
  const stale = await repo.unpublishedTranscodedUploads(ctx.reader, olderThanS, 50);
  let published = 0;
  for (const { id } of stale) if (await publishVideoPost(ctx, id)) published++;
  return published;
}

/**
 * Gives up on clips still 'processing' past `olderThanS` (longer than every attempt of their job
 * could take: the job was lost, or failed without its clean-up): the row and the upload go, and the
 * author reads 'No pudimos procesar el video' instead of a card processing forever. Resolves to how many.
 */
export async function abandonStuckVideoUploads(ctx: VideoContext, olderThanS: number): Promise<number> {
  const stuck = await repo.deleteStuckVideoUploads(ctx.reader, olderThanS, 50);
  for (const upload of stuck) {
    await ctx.media.storage
      .delete(upload.uploadKey)
      .catch((err: unknown) => ctx.log.warn({ err, key: upload.uploadKey }, "removing a stuck clip's upload failed; the media GC will"));
    await ctx.publish({ type: 'video-upload', topic: userTopic(upload.userId), uploadId: upload.id, status: 'failed', postId: null });
  }
  return stuck.length;
}
