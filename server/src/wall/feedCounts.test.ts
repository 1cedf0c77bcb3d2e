import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { publicFeedCount } from './repository.ts';

const database = testDatabase();
const db = database.db;
const runner = poolRunner(database.sql);

afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await truncateAll(database);
});

/** The public wall's size as feed_counts keeps it, and as a count of the posts says it is. */
async function counts() {
  const [row] = await database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM posts WHERE NOT is_hidden AND group_id IS NULL AND visibility = 'public'`;
  return { kept: await publicFeedCount(runner), counted: row!.n };
}

describe('feed_counts', () => {
  it('follow every insert, update and delete of posts that moves one on or off the public wall', async () => {
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    const [group] = await db.insert(schema.groups).values({ name: 'Fans' }).returning();
    expect(await counts()).toEqual({ kept: 0, counted: 0 });

    // One statement of many rows (a seed), of which only the public ones without a group count.
    await db.insert(schema.posts).values([
      { userId: ana.id, content: 'uno' },
      { userId: ana.id, content: 'dos' },
      { userId: luis.id, content: 'tres', visibility: 'followers' },
      { userId: luis.id, content: 'cuatro', visibility: 'group', groupId: group!.id },
      { userId: luis.id, content: 'cinco', isHidden: true },
    ]);
    expect(await counts()).toEqual({ kept: 2, counted: 2 });

    const post = await buildPost(db, luis.id);
    expect(await counts()).toEqual({ kept: 3, counted: 3 });

    // An edit or new activity leaves the count; hiding, a visibility change or a group moves it.
    await db.update(schema.posts).set({ content: 'editado', lastActivityAt: new Date() }).where(eq(schema.posts.id, post.id));
    expect(await counts()).toEqual({ kept: 3, counted: 3 });
    await db.update(schema.posts).set({ isHidden: true }).where(eq(schema.posts.id, post.id));
    expect(await counts()).toEqual({ kept: 2, counted: 2 });
    await db.update(schema.posts).set({ isHidden: true }).where(eq(schema.posts.id, post.id));
    expect(await counts()).toEqual({ kept: 2, counted: 2 });
    await db.update(schema.posts).set({ isHidden: false }).where(eq(schema.posts.id, post.id));
    await db.update(schema.posts).set({ visibility: 'public' }).where(eq(schema.posts.content, 'tres'));
    expect(await counts()).toEqual({ kept: 4, counted: 4 });
    await db
      .update(schema.posts)
      .set({ visibility: 'followers' })
      .where(inArray(schema.posts.content, ['uno', 'dos', 'tres']));
    expect(await counts()).toEqual({ kept: 1, counted: 1 });

    // A deleted author or group takes its posts with it.
    await db.update(schema.posts).set({ visibility: 'public' }).where(eq(schema.posts.userId, ana.id));
    expect(await counts()).toEqual({ kept: 3, counted: 3 });
    await db.delete(schema.profiles).where(eq(schema.profiles.id, ana.id));
    expect(await counts()).toEqual({ kept: 1, counted: 1 });
    await db.delete(schema.groups).where(eq(schema.groups.id, group!.id));
    expect(await counts()).toEqual({ kept: 1, counted: 1 });
  });

  it('start from zero after a TRUNCATE of posts or when their row is gone', async () => {
    const user = await buildUser(db);
    await buildPost(db, user.id);
    await database.sql`TRUNCATE posts CASCADE`;
    expect(await counts()).toEqual({ kept: 0, counted: 0 });
    // As the tests empty every table: no trigger fires, the row goes with the posts.
    await buildPost(db, user.id);
    await truncateAll(database);
    expect(await database.sql`SELECT 1 FROM feed_counts`).toHaveLength(0);
    await buildPost(db, (await buildUser(db)).id);
    expect(await counts()).toEqual({ kept: 1, counted: 1 });
  });
});
