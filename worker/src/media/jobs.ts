import type { DbOrTx } from '@tribuna/drizzle/client';
import { LocalDiskStorage, type MediaStorage } from '../../../server/src/media/storage.ts';
import type { JobHandlers } from '../registry.ts';
import { referencedMediaKeys } from './repository.ts';
import { createTranscodeVideoJob } from './videoJob.ts';

const MINUTE_MS = 60_000;
/** Keys asked about per query. */
export const GC_BATCH = 500;

/**
 * Deletes the files of `storage` that nothing names (a media row, a profile, a video upload) and
 * that were last written before `cutoff`. Files are stored before the transaction inserting their
 * row commits, so a recent unreferenced file may be an upload in flight: only old ones go. Returns what it saw and removed.
 */
export async function collectMediaGarbage(db: DbOrTx, storage: MediaStorage, cutoff: Date, batchSize = GC_BATCH) {
  let scanned = 0;
  let deleted = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const kept = await referencedMediaKeys(db, batch);
    for (const key of batch) {
      if (kept.has(key)) continue;
      await storage.delete(key);
      deleted++;
    }
    batch = [];
  };
  for await (const file of storage.list()) {
    scanned++;
    if (file.modifiedAt >= cutoff) continue;
    batch.push(file.key);
    if (batch.length >= batchSize) await sweep();
  }
  if (batch.length > 0) await sweep();
  return { scanned, deleted };
}

export const mediaJobs: Pick<JobHandlers, 'media.gc' | 'media.transcode-video'> = {
  // Files of failed posts that discard() missed (a crash between storing and inserting), temporary
  // files of interrupted writes, a failed transcode's MP4 and poster, and uploaded clips no
  // video_uploads row names any more.
  'media.gc': async (payload, ctx) => {
    const minutes = payload.olderThanMinutes; // at least 60 (the registry checked)
    const storage = new LocalDiskStorage(ctx.config.mediaDir);
    const result = await collectMediaGarbage(ctx.db, storage, new Date(Date.now() - minutes * MINUTE_MS));
    if (result.deleted > 0) ctx.logger.info({ ...result, olderThanMinutes: minutes }, 'unreferenced media files deleted');
    return result;
  },
  'media.transcode-video': createTranscodeVideoJob(),
};
