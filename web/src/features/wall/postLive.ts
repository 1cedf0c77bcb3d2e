import type { Dispatch } from 'react';
import type { LiveTopicHandler } from '../../lib/live/liveClient';
import type { CommentsAction } from './commentsState';
import type { FeedAction } from './feedState';

export interface PostLiveTarget {
  postId: string;
  feed: Dispatch<FeedAction>;
  /** The card's comments, while its comments section is open (null when closed). */
  comments: () => Dispatch<CommentsAction> | null;
  /** Reads the post (and its open comments) again over HTTP. */
  refetch: () => Promise<void>;
}

/** Runs `task`, coalescing calls made while it runs into one more run after it. */
function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await task();
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
}

/** The `post:{id}` topic's handler: edits, deletes, reactions and comments land in the card's state. */
export function postLiveHandler(target: PostLiveTarget): LiveTopicHandler {
  const { postId, feed } = target;
  const refresh = coalesced(target.refetch);
  // Reaction counts come as paced snapshots with a growing `seq` (per item: the post's id or a
  // comment's): one not newer than the last applied is stale and ignored.
  const appliedSeq = new Map<string, number>();
  const isNewer = (item: string, seq: number) => {
    const last = appliedSeq.get(item);
    if (last !== undefined && seq <= last) return false;
    appliedSeq.set(item, seq);
    return true;
  };
  return {
    onMessage(message) {
      if (!('postId' in message) || message.postId !== postId) return;
      const comments = target.comments();
      switch (message.type) {
        case 'post-updated':
          feed({ type: 'patch', postId, patch: { content: message.content, editedAt: message.editedAt } });
          break;
        case 'post-deleted':
          feed({ type: 'remove', postId });
          break;
        case 'post-reactions':
          if (!isNewer(postId, message.seq)) break;
          // The counts are everyone's; the viewer's own reaction is not in them and stays as is.
          feed({ type: 'reactions', postId, reactions: message.reactions });
          break;
        case 'comment-created':
          feed({ type: 'patch', postId, patch: { commentCount: message.commentCount } });
          comments?.({ type: 'add', comment: message.comment });
          break;
        case 'comment-updated':
          comments?.({ type: 'edit', commentId: message.commentId, content: message.content, editedAt: message.editedAt });
          break;
        case 'comment-deleted':
          feed({ type: 'patch', postId, patch: { commentCount: message.commentCount } });
          comments?.({ type: 'remove', commentId: message.commentId });
          break;
        case 'comment-reactions':
          if (!isNewer(message.commentId, message.seq)) break;
          comments?.({ type: 'reactions', commentId: message.commentId, reactions: message.reactions });
          break;
        default:
          break;
      }
    },
    // Messages may have been lost while the socket was away: read the post again. Only then (the
    // client's onResync), not on every connection: a freshly loaded wall has just read its posts.
    // The counts are read afresh then, and the socket may now be on another instance with its own
    // sequence: the seq tracking starts over.
    onResync: () => {
      appliedSeq.clear();
      return refresh();
    },
  };
}
