/**
 * A follow begun or ended, told to the other domains INSIDE its transaction (the `follows.changed`
 * transactional event; the notifications join it: 'X empezó a seguirte' is written or removed with
 * the follow, or not at all). Only a change: following again, or unfollowing nobody, tells nothing.
 */
export interface FollowChange {
  followerId: string;
  followeeId: string;
  /** true: the follow began; false: it ended. */
  following: boolean;
}

declare module '../events/bus.ts' {
  interface TransactionalEvents {
    /** A follow begun or ended, inside its transaction (follows/service.ts). */
    'follows.changed': FollowChange;
  }
}
