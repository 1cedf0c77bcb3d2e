import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import type { StoredImage } from '../media/service.ts';
import { insertMedia } from '../media/service.ts';
import type { DemoData, PostImageJob } from './plan.ts';
import { LOCK_KEYS, xactLock } from '@tribuna/drizzle/locks';

/** A post picture the pipeline has stored (files written), waiting for its rows. */
export interface StoredPostImage {
  job: PostImageJob;
  image: StoredImage;
}

/** Demo data goes only into a database nobody has used: no profile and no reality yet. */
export async function hasProfilesOrRealities(db: DbOrTx): Promise<boolean> {
  const rows = await db.execute<{ used: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM ${schema.profiles}) OR EXISTS (SELECT 1 FROM ${schema.realities}) AS used`);
  return rows[0]?.used === true;
}

/** Serialises concurrent seeders (several starters on one database) until the transaction ends. */
export async function lockSeeding(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(LOCK_KEYS.seeding)}`);
}

export async function insertDemoData(tx: Tx, data: DemoData, postImages: StoredPostImage[]): Promise<void> {
  await tx.insert(schema.realities).values(data.realities);
  await tx.insert(schema.seasons).values(data.seasons);
  await tx.insert(schema.contestants).values(data.contestants);
  await tx.insert(schema.profiles).values(data.profiles);
  await tx.insert(schema.accounts).values(data.accounts);
  await tx.insert(schema.polls).values(data.polls);
  await tx.insert(schema.pollOptions).values(data.pollOptions);
  await tx.insert(schema.pollPointsConfig).values(data.pollPointsConfig);
  await tx.insert(schema.votes).values(data.votes);
  await tx.insert(schema.shareHistory).values(data.shareHistory);
  await tx.insert(schema.userPointsHistory).values(data.userPointsHistory);
  await tx.insert(schema.groups).values(data.groups);
  await tx.insert(schema.groupMembers).values(data.groupMembers);
  await tx.insert(schema.posts).values(data.posts);
  // Each picture's media row (as an upload's, in the post's transaction), then the post's row naming it.
  for (const { job, image } of postImages) {
    const mediaId = await insertMedia(tx, image, job.uploadedBy);
    await tx.insert(schema.postMedia).values({
      postId: job.postId,
      mediaType: 'image',
      url: image.url,
      thumbnailUrl: image.thumbnailUrl,
      width: image.width,
      height: image.height,
      order: job.order,
      mediaId,
      altText: job.alt,
    });
  }
  // Parents before replies.
  const topLevel = data.comments.filter((c) => !c.parentCommentId);
  const replies = data.comments.filter((c) => c.parentCommentId);
  await tx.insert(schema.comments).values(topLevel);
  if (replies.length > 0) await tx.insert(schema.comments).values(replies);
  await tx.insert(schema.postReactions).values(data.postReactions);
  if (data.commentReactions.length > 0) await tx.insert(schema.commentReactions).values(data.commentReactions);
  if (data.notifications.length > 0) await tx.insert(schema.notifications).values(data.notifications);
  await tx.insert(schema.pageViews).values(data.pageViews);
}
