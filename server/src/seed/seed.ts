// Demo data for `npm start` on an empty database: a season with contestants and polls, fans who
// voted and shared, a lively wall and some traffic. Images are drawn locally (see images.ts); the
// wall's pictures then go through the media pipeline as uploads do (processImage, storage, media rows).
import type { Config } from '@tribuna/contracts/config';
import { createDatabase } from '@tribuna/drizzle/client';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { ConcurrencyLimiter } from '../media/limiter.ts';
import { createMediaService } from '../media/service.ts';
import { LocalDiskStorage } from '../media/storage.ts';
import { renderUpload, writeWebp } from './images.ts';
import { buildDemoData, type DemoData, type ImageJob, type PostImageJob } from './plan.ts';
import { hasProfilesOrRealities, insertDemoData, lockSeeding, type StoredPostImage } from './repository.ts';

export { DEMO_ADMIN_USERNAME, DEMO_MODERATOR_USERNAME } from './content.ts';

export interface SeedLogger {
  info(msg: string): void;
}

/**
 * Seeds the demo data when the database has no profile and no reality, in one transaction.
 * Returns false, writing nothing, when it is not empty.
 */
export async function seedIfEmpty(config: Config, logger?: SeedLogger): Promise<boolean> {
  const database = createDatabase(config.databaseUrl, { max: 2, applicationName: 'tribuna-seed' });
  try {
    if (await hasProfilesOrRealities(database.db)) return false;

    const data = buildDemoData(new Date(), config.showTimezone);
    // Files first: if the transaction then fails, the leftovers are overwritten by the next try
    // (the demo files) or are orphans the worker's media GC removes (the pipeline's, no row names them).
    await renderImages(config.mediaDir, data.images);
    const postImages = await ingestPostImages(config.mediaDir, database.db, data.postImages);

    const seeded = await database.db.transaction(async (tx) => {
      await lockSeeding(tx);
      // Another starter may have seeded while we drew the images.
      if (await hasProfilesOrRealities(tx)) return false;
      await insertDemoData(tx, data, postImages);
      return true;
    });
    if (seeded) logger?.info(describe(data));
    return seeded;
  } finally {
    await database.close();
  }
}

async function renderImages(mediaDir: string, images: ImageJob[], parallel = 4): Promise<void> {
  const queue = [...images];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await writeWebp(mediaDir, job.name, job.svg);
    }),
  );
}

/**
 * The wall's pictures through the real pipeline (createMediaService over LocalDiskStorage in
 * MEDIA_DIR): each drawing, encoded as JPEG or PNG, is validated, re-encoded to WebP within
 * 2048 px, thumbnailed and given its ThumbHash placeholder, and stored under its content key.
 */
async function ingestPostImages(mediaDir: string, db: DbOrTx, jobs: PostImageJob[]): Promise<StoredPostImage[]> {
  const media = createMediaService({
    storage: new LocalDiskStorage(mediaDir),
    db,
    // The server's own bound (2 at once); nobody else waits on this one, so the queue holds them all.
    limiter: new ConcurrencyLimiter(2, jobs.length),
  });
  return Promise.all(
    jobs.map(async (job) => {
      const data = await renderUpload(job.svg, job.format);
      return { job, image: await media.ingest({ data, declaredType: `image/${job.format}` }) };
    }),
  );
}

function describe(data: DemoData): string {
  return (
    `demo data: ${data.profiles.length} users, ${data.contestants.length} contestants, ${data.polls.length} polls, ` +
    `${data.votes.length} votes, ${data.posts.length} posts, ${data.comments.length} comments, ` +
    `${data.groups.length} groups, ${data.pageViews.length} page views, ${data.images.length} images, ${data.postImages.length} post pictures`
  );
}
