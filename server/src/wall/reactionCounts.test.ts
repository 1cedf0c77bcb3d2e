import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { createDatabase } from '@tribuna/drizzle/client';
import { pipelinedCommit, poolRunner } from '@tribuna/drizzle/pipelined';
import type { ReactionType } from '@tribuna/contracts/wallRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { fileContext } from '../../../test/support/fileContext.ts';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import { applyTaps, COMMENT_REACTIONS, findComment, findPostCard, listComments, lockTaps, POST_REACTIONS, reactionCountsOf, type Tap } from './repository.ts';

const database = testDatabase();
const db = database.db;
const runner = poolRunner(database.sql);
// Taps from many connections at once, so that they land on several shards.
const tappers = createDatabase(fileContext().databaseUrl, { max: 12, applicationName: 'tribuna-test-tappers' });

afterAll(async () => {
  await Promise.all([database.close(), tappers.close()]);
});
beforeEach(async () => {
  await truncateAll(database);
});

type Counts = Partial<Record<ReactionType, number>>;
type Kind = 'post' | 'comment';
const TABLES = {
  post: { reactions: 'post_reactions', counts: 'post_reaction_counts', column: 'post_id' },
  comment: { reactions: 'comment_reactions', counts: 'comment_reaction_counts', column: 'comment_id' },
} as const;

/** Every item's reactions per type as the counters keep them (shards summed, zero sums left out), and as a count says they are. */
async function counts(kind: Kind): Promise<{ kept: Record<string, Counts>; counted: Record<string, Counts> }> {
  const t = TABLES[kind];
  const read = async (from: string, n: string) => {
    const rows = await database.sql.unsafe<{ item: string; reaction_type: ReactionType; n: number }[]>(
      `SELECT ${t.column}::text AS item, reaction_type, ${n}::int AS n FROM ${from} GROUP BY 1, 2 HAVING ${n} <> 0`,
    );
    const byItem: Record<string, Counts> = {};
    for (const r of rows) (byItem[r.item] ??= {})[r.reaction_type] = r.n;
    return byItem;
  };
  return { kept: await read(t.counts, 'sum(reactions)'), counted: await read(t.reactions, 'count(*)') };
}

async function expectExact(kind: Kind, expected?: Record<string, Counts>): Promise<void> {
  const { kept, counted } = await counts(kind);
  expect(kept).toEqual(counted);
  if (expected) expect(kept).toEqual(expected);
}

/** A batch of taps as the reaction writer sends it (one round trip): locks, taps, then the items' counts. */
const taps = async (target: typeof POST_REACTIONS, batch: Tap[], client = database.sql) => {
  const [, results, counts] = await pipelinedCommit(client, (tx) =>
    Promise.all([
      lockTaps(tx, target, batch),
      applyTaps(tx, target, batch),
      reactionCountsOf(
        tx,
        target,
        batch.map((t) => t.itemId),
      ),
    ]),
  );
  return results.map((r, i) => ({ allowed: r.allowed, mine: r.mine, counts: counts.get(batch[i]!.itemId) ?? {} }));
};

/** One tap alone: the user's reaction after it and the item's counts. */
const tap = async (target: typeof POST_REACTIONS, itemId: string, userId: string, type: ReactionType, client = database.sql) => {
  const [answer] = await taps(target, [{ itemId, userId, isAdmin: false, type }], client);
  return { mine: answer!.mine, counts: answer!.counts };
};

describe('reaction counters', () => {
  it('follow inserts, toggles, type changes and deletes of post reactions, and answer the tap with them', async () => {
    const [ana, luis, eva] = [await buildUser(db), await buildUser(db), await buildUser(db)];
    const [p1, p2] = [await buildPost(db, ana.id), await buildPost(db, ana.id)];
    await expectExact('post', {});

    // One statement of many rows on two posts (a seed).
    await db.insert(schema.postReactions).values([
      { postId: p1.id, userId: ana.id, reactionType: 'like' },
      { postId: p1.id, userId: luis.id, reactionType: 'like' },
      { postId: p1.id, userId: eva.id, reactionType: 'wow' },
      { postId: p2.id, userId: luis.id, reactionType: 'sad' },
    ]);
    await expectExact('post', { [p1.id]: { like: 2, wow: 1 }, [p2.id]: { sad: 1 } });

    // Taps: another type replaces (an UPDATE), the same again removes (a DELETE), a new one adds.
    expect(await tap(POST_REACTIONS, p1.id, luis.id, 'love')).toEqual({ mine: 'love', counts: { like: 1, love: 1, wow: 1 } });
    expect(await tap(POST_REACTIONS, p1.id, eva.id, 'wow')).toEqual({ mine: null, counts: { like: 1, love: 1 } });
    expect(await tap(POST_REACTIONS, p2.id, eva.id, 'haha')).toEqual({ mine: 'haha', counts: { sad: 1, haha: 1 } });
    await expectExact('post', { [p1.id]: { like: 1, love: 1 }, [p2.id]: { sad: 1, haha: 1 } });

    // Updates in bulk, one that keeps the type among them; deletes in bulk.
    await db.update(schema.postReactions).set({ reactionType: 'angry' }).where(eq(schema.postReactions.postId, p1.id));
    await db.update(schema.postReactions).set({ createdAt: new Date() }).where(eq(schema.postReactions.postId, p2.id));
    await expectExact('post', { [p1.id]: { angry: 2 }, [p2.id]: { sad: 1, haha: 1 } });
    await db.delete(schema.postReactions).where(inArray(schema.postReactions.userId, [luis.id, eva.id]));
    await expectExact('post', { [p1.id]: { angry: 1 } });

    // The post page reads the same counts.
    expect((await findPostCard(runner, p1.id, null))?.reactions).toEqual({ angry: 1 });
    expect((await findPostCard(runner, p2.id, null))?.reactions).toEqual({});
  });

  it('follow comment reactions the same way, and the comment list reads them', async () => {
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    const post = await buildPost(db, ana.id);
    const top = await buildComment(db, post.id, ana.id);
    const reply = await buildComment(db, post.id, luis.id, { parentCommentId: top.id });
    await db.insert(schema.commentReactions).values([
      { commentId: top.id, userId: ana.id, reactionType: 'haha' },
      { commentId: top.id, userId: luis.id, reactionType: 'haha' },
      { commentId: reply.id, userId: ana.id, reactionType: 'love' },
    ]);
    expect(await tap(COMMENT_REACTIONS, top.id, luis.id, 'wow')).toEqual({ mine: 'wow', counts: { haha: 1, wow: 1 } });
    expect(await tap(COMMENT_REACTIONS, reply.id, ana.id, 'love')).toEqual({ mine: null, counts: {} });
    await expectExact('comment', { [top.id]: { haha: 1, wow: 1 } });
    const listed = await listComments(runner, post.id, null, 10);
    expect(listed.map((c) => c.reactions)).toEqual([{ haha: 1, wow: 1 }, {}]);
    expect((await findComment(runner, top.id, null))?.reactions).toEqual({ haha: 1, wow: 1 });
  });

  it('go with their item: a deleted post, comment or reply takes its counters; a deleted reactor takes their reactions out', async () => {
    const [ana, luis, eva] = [await buildUser(db), await buildUser(db), await buildUser(db)];
    const [kept, doomed] = [await buildPost(db, ana.id), await buildPost(db, luis.id)];
    const top = await buildComment(db, kept.id, ana.id);
    const reply = await buildComment(db, kept.id, luis.id, { parentCommentId: top.id });
    const onDoomed = await buildComment(db, doomed.id, ana.id);
    for (const user of [ana, luis, eva]) {
      await tap(POST_REACTIONS, kept.id, user.id, 'like');
      await tap(POST_REACTIONS, doomed.id, user.id, 'love');
      for (const c of [top, reply, onDoomed]) await tap(COMMENT_REACTIONS, c.id, user.id, 'wow');
    }
    await expectExact('post', { [kept.id]: { like: 3 }, [doomed.id]: { love: 3 } });

    // A post deleted (its reactions, comments and their reactions cascade): no counter row is left for them.
    await db.delete(schema.posts).where(eq(schema.posts.id, doomed.id));
    await expectExact('post', { [kept.id]: { like: 3 } });
    await expectExact('comment', { [top.id]: { wow: 3 }, [reply.id]: { wow: 3 } });
    const rowsOf = (table: string, column: string, id: string) => database.sql.unsafe(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [id]);
    expect(await rowsOf('post_reaction_counts', 'post_id', doomed.id)).toHaveLength(0);
    expect(await rowsOf('comment_reaction_counts', 'comment_id', onDoomed.id)).toHaveLength(0);

    // A top-level comment deleted takes its reply along.
    await db.delete(schema.comments).where(eq(schema.comments.id, top.id));
    await expectExact('comment', {});
    expect(await database.sql`SELECT 1 FROM comment_reaction_counts`).toHaveLength(0);

    // An account erased: its reactions on others' posts leave the counts.
    await db.delete(schema.profiles).where(eq(schema.profiles.id, eva.id));
    await expectExact('post', { [kept.id]: { like: 2 } });
  });

  it('start from zero after a TRUNCATE of the reactions, and when the tests empty every table', async () => {
    const user = await buildUser(db);
    const post = await buildPost(db, user.id);
    const comment = await buildComment(db, post.id, user.id);
    await tap(POST_REACTIONS, post.id, user.id, 'like');
    await tap(COMMENT_REACTIONS, comment.id, user.id, 'like');
    await database.sql`TRUNCATE post_reactions, comment_reactions`;
    expect(await database.sql`SELECT 1 FROM post_reaction_counts UNION ALL SELECT 1 FROM comment_reaction_counts`).toHaveLength(0);
    expect(await tap(POST_REACTIONS, post.id, user.id, 'haha')).toMatchObject({ counts: { haha: 1 } });
    await truncateAll(database);
    expect(await database.sql`SELECT 1 FROM post_reaction_counts`).toHaveLength(0);
  });

  it('stay exact when many fans tap one post at once from many connections', async () => {
    const author = await buildUser(db);
    const post = await buildPost(db, author.id);
    const comment = await buildComment(db, post.id, author.id);
    const fans = await Promise.all(Array.from({ length: 40 }, () => buildUser(db)));
    const types: ReactionType[] = ['like', 'love', 'haha', 'like', 'wow'];
    // Each fan taps five times at once (sets, replaces, sometimes removes), on the post and on its comment.
    const answers = await Promise.all(
      fans.flatMap((fan, i) =>
        types.flatMap((_, k) => {
          const type = types[(i + k) % types.length]!;
          return [tap(POST_REACTIONS, post.id, fan.id, type, tappers.sql), tap(COMMENT_REACTIONS, comment.id, fan.id, type, tappers.sql)];
        }),
      ),
    );
    expect(answers).toHaveLength(400);
    await expectExact('post');
    await expectExact('comment');
    const [row] = await database.sql<{ n: number; shards: number }[]>`
      SELECT (SELECT count(*)::int FROM post_reactions) AS n, (SELECT count(DISTINCT shard)::int FROM post_reaction_counts) AS shards`;
    expect(row!.n).toBeGreaterThan(0);
    // Twelve connections: the taps were counted on several shards, not one hot row.
    expect(row!.shards).toBeGreaterThan(1);
    // Every answer's counts are a possible state: no more reactions than fans, none negative.
    for (const { counts: answered } of answers) {
      const values = Object.values(answered);
      expect(values.every((v) => v > 0)).toBe(true);
      expect(values.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(fans.length);
    }
    // A last round of taps, one per fan, answered after all the others: the final answer's counts are the table's.
    const last = await tap(POST_REACTIONS, post.id, author.id, 'sad');
    const { counted } = await counts('post');
    expect(last.counts).toEqual(counted[post.id]);
  });

  it('move once per batch: many fans on several items in one statement, each answered, invisible items untouched', async () => {
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    const [viral, quiet] = [await buildPost(db, ana.id), await buildPost(db, luis.id)];
    const hidden = await buildPost(db, ana.id, { isHidden: true });
    const onlyLuis = await buildPost(db, luis.id, { visibility: 'followers' });
    const fans = await Promise.all(Array.from({ length: 30 }, () => buildUser(db)));
    await tap(POST_REACTIONS, viral.id, fans[0]!.id, 'like');
    const batch: Tap[] = [
      ...fans.map((fan, i) => ({ itemId: viral.id, userId: fan.id, isAdmin: false, type: (i % 3 === 0 ? 'like' : 'love') as ReactionType })),
      { itemId: quiet.id, userId: ana.id, isAdmin: false, type: 'wow' },
      { itemId: hidden.id, userId: luis.id, isAdmin: true, type: 'wow' },
      { itemId: onlyLuis.id, userId: ana.id, isAdmin: false, type: 'wow' },
      { itemId: onlyLuis.id, userId: fans[1]!.id, isAdmin: true, type: 'sad' },
    ];
    const answers = await taps(POST_REACTIONS, batch);
    // fans[0] took their like back; every other fan added one; 10 likes were asked (fans 0, 3, ..., 27).
    expect(answers.slice(0, 30).map((a) => a.mine)).toEqual(fans.map((_, i) => (i === 0 ? null : i % 3 === 0 ? 'like' : 'love')));
    expect(answers[0]!.counts).toEqual({ like: 9, love: 20 });
    expect(answers[30]).toEqual({ allowed: true, mine: 'wow', counts: { wow: 1 } });
    // A deleted post is nobody's to react to, an admin's neither; a followers-only post is its author's (and admins').
    expect(answers[31]).toMatchObject({ allowed: false, mine: null });
    expect(answers[32]).toMatchObject({ allowed: false, mine: null });
    expect(answers[33]).toEqual({ allowed: true, mine: 'sad', counts: { sad: 1 } });
    await expectExact('post', { [viral.id]: { like: 9, love: 20 }, [quiet.id]: { wow: 1 }, [onlyLuis.id]: { sad: 1 } });
  });

  it('are filled for reactions that existed before the migration', async () => {
    const [ana, luis] = [await buildUser(db), await buildUser(db)];
    const post = await buildPost(db, ana.id);
    const comment = await buildComment(db, post.id, ana.id);
    await db.insert(schema.postReactions).values([
      { postId: post.id, userId: ana.id, reactionType: 'like' },
      { postId: post.id, userId: luis.id, reactionType: 'wow' },
    ]);
    await db.insert(schema.commentReactions).values({ commentId: comment.id, userId: luis.id, reactionType: 'sad' });
    // As before the migration: reactions without counters. Then the migration's own backfill.
    await database.sql`DELETE FROM post_reaction_counts`;
    await database.sql`DELETE FROM comment_reaction_counts`;
    const migration = await readFile(fileURLToPath(new URL('../../../drizzle/migrations/0026_reaction_counts_triggers.sql', import.meta.url)), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').slice(-2);
    expect(backfill.every((statement) => /INSERT INTO \w+_reaction_counts/.test(statement))).toBe(true);
    for (const statement of backfill) await database.sql.unsafe(statement);
    await expectExact('post', { [post.id]: { like: 1, wow: 1 } });
    await expectExact('comment', { [comment.id]: { sad: 1 } });
  });
});
