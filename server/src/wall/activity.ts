/**
 * What people did on the wall, told after commit to this instance's other domains (the
 * notifications subscribe): the `wall.activity` domain event. Ids and the text written only; a
 * subscriber re-reads whatever else it needs (the current reaction, the owners) under its own locks.
 */
export type WallActivity =
  /** A reaction to a post was added, changed or removed (the subscriber reads which). */
  | { kind: 'post-reaction'; postId: string; actorId: string }
  /** A reaction to a comment was added, changed or removed. */
  | { kind: 'comment-reaction'; commentId: string; postId: string; actorId: string }
  /** A comment, or a reply to `parentCommentId`. */
  | { kind: 'comment-created'; commentId: string; postId: string; parentCommentId: string | null; actorId: string; content: string }
  /** A post was published or its text edited (@mentions). */
  | { kind: 'post-written'; postId: string; actorId: string; content: string }
  /** A comment's text was edited (@mentions). */
  | { kind: 'comment-edited'; commentId: string; postId: string; actorId: string; content: string };

declare module '../events/bus.ts' {
  interface DomainEvents {
    /** Wall activity, after commit (this instance only). */
    'wall.activity': WallActivity;
  }
}
