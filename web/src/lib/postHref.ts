/**
 * Where a link to one post leads: the wall with the post shown first, its comments open (WallPage
 * reads `?post=`, FocusedPost in features/wall). Notifications link there, also for an entry about
 * a comment or a reply.
 */
export const postHref = (entry: { postId: string }) => `/wall?post=${encodeURIComponent(entry.postId)}`;
