// Demo data for `npm start` on an empty database: a season with contestants and polls, fans who
// voted and shared, a lively wall and some traffic. Images are drawn locally (see images.ts).
import type { Config } from '@tribuna/contracts/config';
import { createDatabase } from '@tribuna/drizzle/client';
import { writeWebp } from './images.ts';
import { buildDemoData, type DemoData, type ImageJob } from './plan.ts';
import { hasProfilesOrRealities, insertDemoData, lockSeeding } from './repository.ts';

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
    // Files first: if the transaction then fails, the leftovers are overwritten by the next try.
    await renderImages(config.mediaDir, data.images);

    const seeded = await database.db.transaction(async (tx) => {
      await lockSeeding(tx);
      // Another starter may have seeded while we drew the images.
      if (await hasProfilesOrRealities(tx)) return false;
      await insertDemoData(tx, data);
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

function describe(data: DemoData): string {
  return (
    `demo data: ${data.profiles.length} users, ${data.contestants.length} contestants, ${data.polls.length} polls, ` +
    `${data.votes.length} votes, ${data.posts.length} posts, ${data.comments.length} comments, ` +
    `${data.groups.length} groups, ${data.pageViews.length} page views, ${data.images.length} images`
  );
}
