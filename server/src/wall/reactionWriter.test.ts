import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ReactionType } from '@tribuna/contracts/wallRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildComment, buildPost, buildUser } from '../../../test/support/factories.ts';
import type { AfterCommit } from '../events/bus.ts';
import { HttpError } from '../http/errors.ts';
import type { ReactionTaps } from './activity.ts';
import { ReactionWriter, type CommittedTaps } from './reactionWriter.ts';

const database = testDatabase();
const db = database.db;

afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await truncateAll(database);
});

describe('the reaction writer', () => {
  let writer: ReactionWriter;
  let committed: CommittedTaps[];
  let joined: ReactionTaps[];
  let joinTransaction: (tx: Parameters<ConstructorParameters<typeof ReactionWriter>[0]['joinTransaction']>[0], payload: ReactionTaps) => Promise<AfterCommit[]>;

  beforeEach(() => {
    committed = [];
    joined = [];
    joinTransaction = async (_tx, payload) => {
      joined.push(payload);
      return [];
    };
    writer = new ReactionWriter({
      sql: database.sql,
      joinTransaction: (tx, payload) => joinTransaction(tx, payload),
      onCommitted: async (taps) => void committed.push(taps),
    });
  });
  afterEach(async () => {
    await writer.close();
  });

  const tap = (kind: 'post' | 'comment', itemId: string, userId: string, type: ReactionType, isAdmin = false) =>
    writer.tap(kind, { itemId, userId, isAdmin, type });
  const stored = async (table: 'post_reactions' | 'comment_reactions') =>
    (await database.sql.unsafe<{ user_id: string; reaction_type: string }[]>(`SELECT user_id::text, reaction_type FROM ${table} ORDER BY 1, 2`)).map((r) => [
      r.user_id,
      r.reaction_type,
    ]);

  it("writes the same instant's taps of many fans on several posts as one batch, each answered", async () => {
    const author = await buildUser(db);
    const [viral, quiet] = [await buildPost(db, author.id), await buildPost(db, author.id)];
    const fans = await Promise.all(Array.from({ length: 40 }, () => buildUser(db)));
    const answers = await Promise.all([
      ...fans.map((fan, i) => tap('post', viral.id, fan.id, i % 2 === 0 ? 'love' : 'wow')),
      tap('post', quiet.id, fans[0]!.id, 'haha'),
    ]);
    expect(writer.stats.post).toMatchObject({ batches: 1, commands: 41, largestBatch: 41 });
    expect(answers.slice(0, 40).map((a) => a.mine)).toEqual(fans.map((_, i) => (i % 2 === 0 ? 'love' : 'wow')));
    // Every answer has the counts at the batch's commit.
    for (const answer of answers.slice(0, 40)) expect(answer.counts).toEqual({ love: 20, wow: 20 });
    expect(answers[40]).toEqual({ mine: 'haha', counts: { haha: 1 } });
    // The other domains joined the batch's transaction once, with each pair; live viewers hear of each item once.
    expect(joined).toEqual([{ kind: 'post', taps: [...fans.map((f) => ({ itemId: viral.id, userId: f.id })), { itemId: quiet.id, userId: fans[0]!.id }] }]);
    await writer.close();
    expect(committed).toEqual([
      {
        kind: 'post',
        items: [
          { itemId: viral.id, postId: viral.id },
          { itemId: quiet.id, postId: quiet.id },
        ],
      },
    ]);
  });

  it("keeps one fan's taps on one item in order, each in a batch of its own", async () => {
    const fan = await buildUser(db);
    const post = await buildPost(db, fan.id);
    const other = await buildPost(db, fan.id);
    const answers = await Promise.all([
      tap('post', post.id, fan.id, 'like'),
      tap('post', post.id, fan.id, 'like'),
      tap('post', other.id, fan.id, 'sad'),
      tap('post', post.id, fan.id, 'love'),
    ]);
    // like, the same again (removed), then love; the tap on the other post rides with the first.
    expect(answers.map((a) => a.mine)).toEqual(['like', null, 'sad', 'love']);
    expect(writer.stats.post).toMatchObject({ batches: 3, largestBatch: 2 });
    expect(await stored('post_reactions')).toEqual([
      [fan.id, 'love'],
      [fan.id, 'sad'],
    ]);
  });

  it('answers 404 to a tap on what the fan may not see, and writes the rest of its batch', async () => {
    const [author, fan] = [await buildUser(db), await buildUser(db)];
    const hidden = await buildPost(db, author.id, { isHidden: true });
    const privateToAuthor = await buildPost(db, author.id, { visibility: 'followers' });
    const open = await buildPost(db, author.id);
    const comment = await buildComment(db, open.id, author.id);
    const hiddenComment = await buildComment(db, open.id, author.id, { isHidden: true });
    const onHidden = await buildComment(db, hidden.id, author.id);
    const results = await Promise.allSettled([
      tap('post', hidden.id, fan.id, 'like'),
      tap('post', privateToAuthor.id, fan.id, 'like'),
      tap('post', privateToAuthor.id, author.id, 'like', true),
      tap('post', open.id, fan.id, 'like'),
      tap('comment', comment.id, fan.id, 'haha'),
      tap('comment', hiddenComment.id, fan.id, 'haha'),
      tap('comment', onHidden.id, fan.id, 'haha'),
    ]);
    const outcome = (r: PromiseSettledResult<unknown>) =>
      r.status === 'fulfilled' ? 'ok' : r.reason instanceof HttpError ? `${r.reason.statusCode} ${r.reason.message}` : String(r.reason);
    expect(results.map(outcome)).toEqual([
      `404 ${WALL_MESSAGES.postNotFound}`,
      `404 ${WALL_MESSAGES.postNotFound}`,
      'ok',
      'ok',
      'ok',
      `404 ${WALL_MESSAGES.commentNotFound}`,
      `404 ${WALL_MESSAGES.commentNotFound}`,
    ]);
    expect(await stored('post_reactions')).toEqual(
      [
        [author.id, 'like'],
        [fan.id, 'like'],
      ].sort(),
    );
    expect(await stored('comment_reactions')).toEqual([[fan.id, 'haha']]);
    await writer.close();
    // A comment's live change goes to its post's topic.
    expect(committed).toContainEqual({ kind: 'comment', items: [{ itemId: comment.id, postId: open.id }] });
  });

  it('writes nothing of a batch whose joined statements fail, and answers its taps 503', async () => {
    const fan = await buildUser(db);
    const post = await buildPost(db, fan.id);
    joinTransaction = async (tx) => {
      await tx.execute(sql`SELECT 1 / 0`);
      return [];
    };
    const refused = await Promise.allSettled([tap('post', post.id, fan.id, 'like')]);
    expect(refused[0]).toMatchObject({ status: 'rejected', reason: { statusCode: 503 } });
    expect(await stored('post_reactions')).toEqual([]);
    expect(writer.stats.post.failedBatches).toBe(1);
  });

  it('runs the after-commit work the joined statements hand back, once per batch', async () => {
    const [fan, other] = [await buildUser(db), await buildUser(db)];
    const post = await buildPost(db, fan.id);
    let ran = 0;
    joinTransaction = async () => [async () => void ran++];
    await Promise.all([tap('post', post.id, fan.id, 'like'), tap('post', post.id, other.id, 'like')]);
    await writer.close();
    expect(ran).toBe(1);
  });
});
