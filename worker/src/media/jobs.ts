import type { DbOrTx } from '@tribuna/drizzle/client';
import { LocalDiskStorage, type MediaStorage } from '../../../server/src/media/storage.ts';
import type { JobHandlers } from '../registry.ts';
import { referencedMediaKeys } from './repository.ts';

const MINUTE_MS = 60_000;
/** Keys asked about per query. */
export const GC_BATCH = 500;

/**
 * Deletes the files of `storage` that no media row names and that were last written before
 * `cutoff`. Files are stored before the transaction inserting their row commits, so a recent
 * unreferenced file may be an upload in flight: only old ones go. Returns what it saw and removed.
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

export const mediaJobs: Pick<JobHandlers, 'media.gc'> = {
  // Files of failed posts that discard() missed (a crash between storing and inserting), and
  // temporary files of interrupted writes.
  'media.gc': async (payload, ctx) => {
    const minutes = payload.olderThanMinutes; // at least 60 (the registry checked)
    const storage = new LocalDiskStorage(ctx.config.mediaDir);
    const result = await collectMediaGarbage(ctx.db, storage, new Date(Date.now() - minutes * MINUTE_MS));
    if (result.deleted > 0) ctx.logger.info({ ...result, olderThanMinutes: minutes }, 'unreferenced media files deleted');
    return result;
  },
};
