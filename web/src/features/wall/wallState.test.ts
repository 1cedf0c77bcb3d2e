import { describe, expect, it, vi } from 'vitest';
import { buildComment, buildPost, buildReply, feedPage, noReactions } from '../../test/wallFixtures';
import { commentsReducer, initialCommentsState } from './commentsState';
import { applyMyReaction, appendUnique, feedReducer, initialFeedState, toggledReaction } from './feedState';
import { SlotPool } from './liveSlots';
import { postLiveHandler } from './postLive';
import { validateComment, validatePost } from './validation';

describe('feed state', () => {
  it('appends pages without duplicates and ignores answers of an older load', () => {
    const [a, b, c] = [buildPost(), buildPost(), buildPost()];
    expect(appendUnique([a!, b!], [b!, c!]).map((p) => p.id)).toEqual([a!.id, b!.id, c!.id]);
    let state = feedReducer(initialFeedState, { type: 'page-loaded', generation: 0, page: feedPage([a!], 'x'), append: false });
    state = feedReducer(state, { type: 'reload' });
    const stale = feedReducer(state, { type: 'page-loaded', generation: 0, page: feedPage([b!]), append: true });
    expect(stale).toBe(state);
    expect(state.status).toBe('loading');
  });

  it('keeps my reaction when live counts arrive, and counts only posts it does not show', () => {
    const post = buildPost({ myReaction: 'haha' });
    let state = feedReducer(initialFeedState, { type: 'page-loaded', generation: 0, page: feedPage([post]), append: false });
    state = feedReducer(state, { type: 'reactions', postId: post.id, reactions: { ...noReactions(), haha: 3 } });
    expect(state.posts[0]!.myReaction).toBe('haha');
    expect(state.posts[0]!.reactions.haha).toBe(3);
    expect(feedReducer(state, { type: 'new-post', postId: post.id }).newPosts).toBe(0);
    expect(feedReducer(state, { type: 'new-post', postId: buildPost().id }).newPosts).toBe(1);
  });

  it('toggles reactions: same type removes, another replaces', () => {
    expect(toggledReaction('like', 'like')).toBeNull();
    expect(toggledReaction('like', 'sad')).toBe('sad');
    expect(applyMyReaction({ ...noReactions(), like: 2 }, 'like', 'sad')).toEqual({ ...noReactions(), like: 1, sad: 1 });
  });
});

describe('comments state', () => {
  it('adds comments and replies once, and removes either', () => {
    const post = buildPost();
    const parent = buildComment(post.id);
    const reply = buildReply(post.id, { parentCommentId: parent.id });
    let state = commentsReducer(initialCommentsState, { type: 'loaded', comments: [parent] });
    state = commentsReducer(state, { type: 'add', comment: reply });
    expect(commentsReducer(state, { type: 'add', comment: reply })).toBe(state);
    expect(state.comments[0]!.replies).toHaveLength(1);
    state = commentsReducer(state, { type: 'remove', commentId: reply.id });
    expect(state.comments[0]!.replies).toHaveLength(0);
    state = commentsReducer(state, { type: 'remove', commentId: parent.id });
    expect(state.comments).toHaveLength(0);
  });
});

describe('live post slots', () => {
  it('grants at most the capacity and hands a freed slot to the next waiter', () => {
    const pool = new SlotPool(2);
    const granted: string[] = [];
    const releaseA = pool.acquire(() => granted.push('a'));
    pool.acquire(() => granted.push('b'));
    const releaseC = pool.acquire(() => granted.push('c'));
    pool.acquire(() => granted.push('d'));
    expect(granted).toEqual(['a', 'b']);
    releaseC(); // stops waiting
    releaseA();
    expect(granted).toEqual(['a', 'b', 'd']);
    expect(pool.size).toBe(2);
  });
});

describe('post live handler', () => {
  it('reads the post again on a resync only (not on every connection), coalescing resyncs that overlap', async () => {
    const refetch = vi.fn(async () => {});
    const handler = postLiveHandler({ postId: 'p', feed: () => {}, comments: () => null, refetch });
    expect(handler.onReconnect).toBeUndefined();
    await Promise.all([handler.onResync?.(), handler.onResync?.(), handler.onResync?.()]);
    // The first read, then one more for the calls made while it ran.
    expect(refetch).toHaveBeenCalledTimes(2);
  });
});

describe('validation', () => {
  it('accepts an image-only post and rejects blank text', () => {
    expect(validatePost('   ', [new File(['x'], 'a.png', { type: 'image/png' })])).toBeNull();
    expect(validatePost('   ', [])).toBe('Debes escribir algo o agregar una imagen');
    expect(validateComment('  ')).toBe('El comentario no puede estar vacío');
  });
});
