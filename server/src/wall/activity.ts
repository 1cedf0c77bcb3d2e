/**
 * What people did on the wall, told after commit to this instance's other domains (the
 * notifications subscribe): the `wall.activity` domain event. Ids and the text written only; a
 * subscriber re-reads whatever else it needs (the current reaction, the owners) under its own locks.
 */
export type WallActivity =
  /** A comment, or a reply to `parentCommentId`. */
  | { kind: 'comment-created'; commentId: string; postId: string; parentCommentId: string | null; actorId: string; content: string }
  /** A post was published or its text edited (@mentions). */
  | { kind: 'post-written'; postId: string; actorId: string; content: string }
  /** A comment's text was edited (@mentions). */
  | { kind: 'comment-edited'; commentId: string; postId: string; actorId: string; content: string };

/**
 * A batch of reaction taps, inside its transaction (the `wall.reactions` transactional event): the
 * (item, user) pairs tapped, each once. Whether each tap added, changed or removed a reaction is
 * for the participant to read: its statements run after the taps', in the same transaction.
 */
export interface ReactionTaps {
  kind: 'post' | 'comment';
  taps: { itemId: string; userId: string }[];
}

declare module '../events/bus.ts' {
  interface DomainEvents {
    /** Wall activity, after commit (this instance only). */
    'wall.activity': WallActivity;
  }
  interface TransactionalEvents {
    /** Reaction taps, inside the batch's transaction (wall/reactionWriter.ts). */
    'wall.reactions': ReactionTaps;
  }
}
