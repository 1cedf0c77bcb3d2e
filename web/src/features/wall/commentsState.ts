import type { CommentView, ReactionCounts, ReplyView } from '@tribuna/contracts/api/wall';
import type { ReactionType } from '@tribuna/contracts/wallRules';

/** The comments of one post: top-level comments, oldest first, each with its replies. */
export interface CommentsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  comments: CommentView[];
}

export type CommentsAction =
  | { type: 'loading' }
  | { type: 'loaded'; comments: CommentView[] }
  | { type: 'failed' }
  | { type: 'add'; comment: ReplyView }
  | { type: 'edit'; commentId: string; content: string; editedAt: string | null }
  | { type: 'remove'; commentId: string }
  | { type: 'reactions'; commentId: string; reactions: ReactionCounts; myReaction?: ReactionType | null };

export const initialCommentsState: CommentsState = { status: 'idle', comments: [] };

/** Whether a comment or a reply with this id is already shown. */
export function hasComment(comments: readonly CommentView[], id: string): boolean {
  return comments.some((comment) => comment.id === id || comment.replies.some((reply) => reply.id === id));
}

/** Applies `update` to the comment or reply with this id. */
function mapComment(comments: CommentView[], id: string, update: (comment: ReplyView) => ReplyView): CommentView[] {
  return comments.map((comment) => {
    if (comment.id === id) return { ...comment, ...update(comment), replies: comment.replies };
    if (!comment.replies.some((reply) => reply.id === id)) return comment;
    return { ...comment, replies: comment.replies.map((reply) => (reply.id === id ? update(reply) : reply)) };
  });
}

export function commentsReducer(state: CommentsState, action: CommentsAction): CommentsState {
  switch (action.type) {
    case 'loading':
      return { ...state, status: state.status === 'ready' ? 'ready' : 'loading' };
    case 'loaded':
      return { status: 'ready', comments: action.comments };
    case 'failed':
      return { ...state, status: state.status === 'ready' ? 'ready' : 'error' };
    case 'add': {
      // The author's own POST answer and the live `comment-created` both bring it: keep one.
      if (hasComment(state.comments, action.comment.id)) return state;
      const { comment } = action;
      if (comment.parentCommentId === null) return { ...state, comments: [...state.comments, { ...comment, replies: [] }] };
      if (!state.comments.some((c) => c.id === comment.parentCommentId)) return state;
      return {
        ...state,
        comments: state.comments.map((c) => (c.id === comment.parentCommentId ? { ...c, replies: [...c.replies, comment] } : c)),
      };
    }
    case 'edit':
      return { ...state, comments: mapComment(state.comments, action.commentId, (c) => ({ ...c, content: action.content, editedAt: action.editedAt })) };
    case 'remove':
      return {
        ...state,
        comments: state.comments
          .filter((comment) => comment.id !== action.commentId)
          .map((comment) =>
            comment.replies.some((reply) => reply.id === action.commentId)
              ? { ...comment, replies: comment.replies.filter((reply) => reply.id !== action.commentId) }
              : comment,
          ),
      };
    case 'reactions':
      return {
        ...state,
        comments: mapComment(state.comments, action.commentId, (c) => ({
          ...c,
          reactions: action.reactions,
          myReaction: action.myReaction === undefined ? c.myReaction : action.myReaction,
        })),
      };
  }
}

/** The comment or reply with this id. */
export function findComment(comments: readonly CommentView[], id: string): ReplyView | null {
  for (const comment of comments) {
    if (comment.id === id) return comment;
    const reply = comment.replies.find((r) => r.id === id);
    if (reply) return reply;
  }
  return null;
}
