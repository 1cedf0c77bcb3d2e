// The demo users' notifications, derived from the demo wall as the server would have written them
// (notifications/service.ts): reactions to their posts and comments, comments on their posts and
// replies to their comments, never for their own actions. The older ones are read.
import type { DemoClock } from './clock.ts';
import type { DemoData } from './plan.ts';

type WallData = Pick<DemoData, 'posts' | 'comments' | 'postReactions' | 'commentReactions'>;

const HOUR = 3_600_000;
/** Notifications older than this are read (the badge shows the recent ones). */
const READ_AFTER_HOURS = 12;

export function planNotifications(wall: WallData, clock: DemoClock): DemoData['notifications'] {
  const notifications: DemoData['notifications'] = [];
  const postAuthor = new Map(wall.posts.map((p) => [p.id!, p.userId]));
  const commentsById = new Map(wall.comments.map((c) => [c.id!, c]));
  const readAt = (at: Date) => (clock.now.getTime() - at.getTime() > READ_AFTER_HOURS * HOUR ? clock.now : null);
  const add = (row: Omit<DemoData['notifications'][number], 'readAt' | 'groupKey'> & { groupKey?: string }) => {
    if (row.userId === row.actorId) return;
    const createdAt = row.createdAt as Date;
    notifications.push({ ...row, groupKey: row.groupKey ?? row.dedupeKey, readAt: readAt(createdAt) });
  };

  for (const r of wall.postReactions) {
    add({
      userId: postAuthor.get(r.postId)!,
      actorId: r.userId,
      type: 'post_reaction',
      postId: r.postId,
      commentId: null,
      reactionType: r.reactionType,
      dedupeKey: `r:p:${r.postId}:${r.userId}`,
      groupKey: `r:p:${r.postId}`,
      createdAt: r.createdAt as Date,
    });
  }
  for (const r of wall.commentReactions) {
    const comment = commentsById.get(r.commentId)!;
    add({
      userId: comment.userId,
      actorId: r.userId,
      type: 'comment_reaction',
      postId: comment.postId,
      commentId: r.commentId,
      reactionType: r.reactionType,
      dedupeKey: `r:c:${r.commentId}:${r.userId}`,
      groupKey: `r:c:${r.commentId}`,
      createdAt: r.createdAt as Date,
    });
  }
  for (const c of wall.comments) {
    const base = { actorId: c.userId, postId: c.postId, commentId: c.id!, reactionType: null, createdAt: c.createdAt as Date };
    const parentAuthor = c.parentCommentId ? commentsById.get(c.parentCommentId)!.userId : null;
    if (parentAuthor) add({ ...base, userId: parentAuthor, type: 'comment_reply', dedupeKey: `y:${c.id}` });
    const author = postAuthor.get(c.postId)!;
    if (author !== parentAuthor) add({ ...base, userId: author, type: 'post_comment', dedupeKey: `c:${c.id}` });
  }
  return notifications;
}
