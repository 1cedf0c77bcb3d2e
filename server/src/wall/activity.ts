/**
 * What people wrote on the wall, told to the other domains INSIDE the writer's transaction (the
 * `wall.written` transactional event; the notifications join it): what they write commits or rolls
 * back with the post or comment, so an instance dying right after COMMIT loses nothing. Ids and the
 * text written only; a participant re-reads whatever else it needs on the transaction.
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
  interface TransactionalEvents {
    /** A post or comment written, inside its transaction (wall/service.ts). */
    'wall.written': WallActivity;
    /** Reaction taps, inside the batch's transaction (wall/reactionWriter.ts). */
    'wall.reactions': ReactionTaps;
  }
}
