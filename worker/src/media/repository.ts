import { and, eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { keysNamedByProfilesOrGroups } from '../../../server/src/media/repository.ts';
import { UPLOADS_DIR } from '../../../server/src/media/storage.ts';

const { media, videoUploads } = schema;

/**
 * Which of `keys` a media row names, as its image or its thumbnail (both columns are indexed), a
 * profile as its avatar or banner, a group as its avatar or cover, or a video_uploads row as its uploaded clip (`uploads/…`, kept
 * until the post is published or the clip given up).
 */
export async function referencedMediaKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: media.key, thumbKey: media.thumbKey })
    .from(media)
    .where(or(inArray(media.key, keys), inArray(media.thumbKey, keys)));
  const wanted = new Set(keys);
  const kept = new Set(rows.flatMap((r) => [r.key, r.thumbKey]).filter((k) => wanted.has(k)));
  // A profile's avatar or banner, a group's avatar or cover (`/media/<key>`): kept even if no media row names it.
  for (const key of await keysNamedByProfilesOrGroups(db, keys)) kept.add(key);
  const uploads = keys.filter((key) => key.startsWith(`${UPLOADS_DIR}/`));
  if (uploads.length > 0) {
    const named = await db.select({ key: videoUploads.uploadKey }).from(videoUploads).where(inArray(videoUploads.uploadKey, uploads));
    for (const { key } of named) kept.add(key);
  }
  return kept;
}

export interface VideoUploadRow {
  id: string;
  userId: string;
  uploadKey: string;
  status: 'processing' | 'transcoded';
  mediaId: string | null;
}

/** The video_uploads row `id` as the transcode job needs it (undefined once published or given up). */
export async function findVideoUpload(db: DbOrTx, id: string): Promise<VideoUploadRow | undefined> {
  const [row] = await db
    .select({ id: videoUploads.id, userId: videoUploads.userId, uploadKey: videoUploads.uploadKey, status: videoUploads.status, mediaId: videoUploads.mediaId })
    .from(videoUploads)
    .where(eq(videoUploads.id, id));
  return row;
}

export interface StoredVideo {
  /** The MP4's key; `thumbKey` its poster's. */
  key: string;
  thumbKey: string;
  width: number;
  height: number;
  /** Of the MP4. */
  bytes: number;
  placeholder: string;
  durationMs: number;
}

/** Marks upload `id` transcoded into `mediaId`; false if it is no longer 'processing' (another run did it, or it is gone). */
export async function markUploadTranscoded(db: DbOrTx, id: string, mediaId: string): Promise<boolean> {
  const rows = await db
    .update(videoUploads)
    .set({ status: 'transcoded', mediaId })
    .where(and(eq(videoUploads.id, id), eq(videoUploads.status, 'processing')))
    .returning({ id: videoUploads.id });
  return rows.length > 0;
}

/** Deletes upload `id` if it is still 'processing' (a clip given up); returns what it was, undefined if nothing was deleted. */
export async function deleteProcessingUpload(db: DbOrTx, id: string): Promise<Pick<VideoUploadRow, 'userId' | 'uploadKey'> | undefined> {
  const [row] = await db
    .delete(videoUploads)
    .where(and(eq(videoUploads.id, id), eq(videoUploads.status, 'processing')))
    .returning({ userId: videoUploads.userId, uploadKey: videoUploads.uploadKey });
  return row;
}
