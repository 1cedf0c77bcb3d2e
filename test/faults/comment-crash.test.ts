// A server instance killed with -9 in the middle of a comment load. The notifications of a comment
// are written in the comment's own transaction (the `wall.written` transactional event), so no
// moment of the kill can leave a stored comment whose post author (or mentioned fan) is never told:
// every acknowledged comment is stored, and every stored comment, acknowledged or not, has its
// notifications.
import { describe, expect, it } from 'vitest';
import { createDatabase } from '@tribuna/drizzle/client';
import { SESSION_COOKIE } from '../../server/src/identity/sessions/constants.ts';
import { startSession } from '../../server/src/identity/sessions/service.ts';
import { buildPost, buildUser } from '../support/factories.ts';
import { startFaultStack } from './support/stack.ts';
import { startServerProcess, startWorkerProcess, type ServerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';

const AUTHORS = 4;
const FANS = 24;
const COMMENTS_PER_FAN = 8;
/** Every third comment mentions the watcher. */
const MENTION_EVERY = 3;

const stack = await startFaultStack();

interface CommentRecord {
  fan: number;
  postId: string;
  content: string;
  /** Every attempt's status, in order (0: no answer). */
  attempts: number[];
  /** The id the server answered with (201). */
  commentId: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /api/posts/:postId/comments as the web client sends it (multipart). */
async function postComment(baseUrl: string, cookie: string, postId: string, content: string): Promise<{ status: number; commentId: string | null }> {
  const form = new FormData();
  form.set('content', content);
  try {
    const res = await fetch(`${baseUrl}/api/posts/${postId}/comments`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'tribuna' },
      body: form,
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => null)) as { comment?: { id: string } } | null;
    return { status: res.status, commentId: res.status === 201 ? (body?.comment?.id ?? null) : null };
  } catch {
    return { status: 0, commentId: null };
  }
}

describe('a server instance killed with -9 under a comment load', () => {
  it("loses no acknowledged comment, and every stored comment has its author's and its mention's notifications", async () => {
    const input = stack.processInput();
    const first: ServerProcess = await startServerProcess(input);
    stack.running.push(first);
    const second = await startServerProcess(input);
    stack.running.push(second);
    stack.running.push(await startWorkerProcess(input));
    stack.database = createDatabase(input.databaseUrl, { max: 4 });
    const { db, sql } = stack.database;

    const posts: { id: string; authorId: string }[] = [];
    for (let i = 0; i < AUTHORS; i++) {
      const author = await buildUser(db);
      posts.push({ id: (await buildPost(db, author.id)).id, authorId: author.id });
    }
    const watcher = await buildUser(db);
    const fans: string[] = [];
    for (let i = 0; i < FANS; i++) {
      const user = await buildUser(db);
      const session = await startSession(db, { userId: user.id, mfaPending: false, userAgent: 'tribuna-faults' });
      fans.push(`${SESSION_COOKIE}=${session.token}`);
    }

    // Each fan comments on the posts in turn, on instance 1 until a request goes unanswered (or
    // instance 1 is known dead), then on instance 2. A comment has no idempotency key: an
    // unanswered one is written again as a new comment (its first copy may or may not be stored).
    let firstDead = false;
    const records: CommentRecord[] = [];
    const progress = { acknowledged: 0, statuses: new Map<number, number>() };
    const runFan = async (cookie: string, fan: number) => {
      let failedOver = false;
      for (let i = 0; i < COMMENTS_PER_FAN; i++) {
        const post = posts[(fan + i) % posts.length]!;
        const mention = (fan * COMMENTS_PER_FAN + i) % MENTION_EVERY === 0 ? ` @${watcher.username}` : '';
        for (let attempt = 0; attempt < 40; attempt++) {
          const record: CommentRecord = { fan, postId: post.id, content: `Comentario ${fan}-${i}-${attempt}${mention}`, attempts: [], commentId: null };
          records.push(record);
          const result = await postComment(!failedOver && !firstDead ? first.url : second.url, cookie, post.id, record.content);
          record.attempts.push(result.status);
          progress.statuses.set(result.status, (progress.statuses.get(result.status) ?? 0) + 1);
          if (result.status === 201) {
            record.commentId = result.commentId;
            progress.acknowledged++;
            break;
          }
          if (result.status === 0) failedOver = true;
          if (result.status !== 0 && result.status !== 503) throw new Error(`comment answered ${result.status}`);
          await sleep(200);
        }
        await sleep(20 + Math.random() * 40);
      }
    };
    const load = Promise.all(fans.map(runFan));

    const total = FANS * COMMENTS_PER_FAN;
    await waitUntil(() => progress.acknowledged >= total / 3, { timeoutMs: 90_000, what: 'a third of the comments to be acknowledged' });
    const acknowledgedBeforeKill = progress.acknowledged;
    await first.kill9();
    firstDead = true;
    await load;

    const acknowledged = records.filter((r) => r.commentId !== null);
    const stored = await sql<{ id: string; post_id: string; content: string; author_notified: boolean; watcher_notified: boolean }[]>`
      SELECT c.id, c.post_id, c.content,
        EXISTS (SELECT 1 FROM notifications n JOIN posts p ON p.id = c.post_id
                WHERE n.comment_id = c.id AND n.type = 'post_comment' AND n.user_id = p.user_id) AS author_notified,
        EXISTS (SELECT 1 FROM notifications n
                WHERE n.comment_id = c.id AND n.type = 'comment_mention' AND n.user_id = ${watcher.id}) AS watcher_notified
      FROM comments c WHERE c.post_id = ANY(${posts.map((p) => p.id)})`;
    const storedIds = new Set(stored.map((c) => c.id));
    const lost = acknowledged.filter((r) => !storedIds.has(r.commentId!));
    const mentioning = stored.filter((c) => c.content.includes(`@${watcher.username}`));
    const unanswered = records.filter((r) => r.attempts.includes(0)).length;
    console.log(
      `comment-crash: ${acknowledged.length} comments acknowledged (${acknowledgedBeforeKill} before kill -9), ${unanswered} requests unanswered, ` +
        `${stored.length} stored (${stored.length - acknowledged.length} committed without an answer); ` +
        `authors notified of ${stored.filter((c) => c.author_notified).length}, watcher of ${mentioning.filter((c) => c.watcher_notified).length} of ${mentioning.length} mentions; ` +
        `attempts by status ${JSON.stringify(Object.fromEntries(progress.statuses))}`,
    );

    // The kill happened mid-load, and some fans had to fail over.
    expect(acknowledgedBeforeKill).toBeLessThan(total);
    expect(unanswered).toBeGreaterThan(0);
    // Every fan's comments were acknowledged in the end, and every acknowledged one is stored.
    expect(acknowledged.length).toBe(total);
    expect(lost).toEqual([]);
    // No stored comment without its notifications: the post's author, and the watcher when mentioned.
    expect(stored.filter((c) => !c.author_notified).map((c) => c.id)).toEqual([]);
    expect(mentioning.length).toBeGreaterThan(0);
    expect(mentioning.filter((c) => !c.watcher_notified).map((c) => c.id)).toEqual([]);
  });
});
