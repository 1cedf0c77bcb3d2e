import { describe, expect, it, vi } from 'vitest';
import type { ReactionCounts } from '@tribuna/contracts/api/wall';
import type { LiveTopicHandler } from '../../lib/live/liveClient';
import { postLiveHandler } from './postLive';

const postId = '11111111-1111-4111-8111-111111111111';
const commentId = '22222222-2222-4222-8222-222222222222';
const topic = `post:${postId}`;
const counts = (love: number): ReactionCounts => ({ like: 0, love, haha: 0, wow: 0, sad: 0, angry: 0 });

function setup() {
  const feed = vi.fn();
  const comments = vi.fn();
  const refetch = vi.fn(async () => {});
  const handler: LiveTopicHandler = postLiveHandler({ postId, feed, comments: () => comments, refetch });
  const post = (seq: number, love: number) => handler.onMessage({ type: 'post-reactions', topic, postId, reactions: counts(love), seq });
  const comment = (seq: number, love: number) => handler.onMessage({ type: 'comment-reactions', topic, postId, commentId, reactions: counts(love), seq });
  return { feed, comments, refetch, handler, post, comment };
}

describe('paced reaction snapshots of a post', () => {
  it('applies the absolute counts of newer snapshots and ignores one not newer than the last applied', () => {
    const { feed, post } = setup();
    post(5, 3);
    post(4, 9); // older, arrived late
    post(5, 9); // the same snapshot again
    post(7, 4);
    // The viewer's own reaction is not in the action: it stays from their own tap's answer.
    expect(feed.mock.calls.map(([action]) => action)).toEqual([
      { type: 'reactions', postId, reactions: counts(3) },
      { type: 'reactions', postId, reactions: counts(4) },
    ]);
  });

  it('tracks the sequence per item: the post and each comment apart', () => {
    const { feed, comments, post, comment } = setup();
    post(10, 1);
    comment(3, 2); // lower than the post's, but the comment's first
    comment(2, 5);
    expect(feed).toHaveBeenCalledTimes(1);
    expect(comments.mock.calls.map(([action]) => action)).toEqual([{ type: 'reactions', commentId, reactions: counts(2) }]);
  });

  it('starts the tracking over after a resync (the socket may be on another instance)', async () => {
    const { feed, refetch, handler, post } = setup();
    post(50, 1);
    await handler.onResync?.();
    expect(refetch).toHaveBeenCalledTimes(1);
    post(2, 6);
    expect(feed).toHaveBeenLastCalledWith({ type: 'reactions', postId, reactions: counts(6) });
  });
});
