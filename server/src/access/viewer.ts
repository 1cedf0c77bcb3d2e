/** Who reads: a visitor (null) or a signed-in user; admins see every post. */
export interface Viewer {
  id: string;
  isAdmin: boolean;
  /**
   * A site moderator (role 'moderator', not suspended): besides the moderation queue, they may
   * delete any post or comment they can see from the wall (mayDeleteFromWall), nothing more.
   */
  isModerator?: boolean;
}

/**
 * Whether `user` holds the admin powers used outside /api/admin (moderating any post or comment,
 * reading private groups, the admin live topic) by the same rule as adminGuard: the admin role, not
 * suspended, and with REQUIRE_ADMIN_MFA a session verified with the second factor.
 */
export function holdsAdminPowers(user: { role: string; level?: string; isSuspended?: boolean } | null | undefined, requireMfa: boolean): boolean {
  return user?.role === 'admin' && user.isSuspended !== true && (!requireMfa || user.level === 'aal2');
}

/**
 * Site staff with moderation powers (the moderation queue and its actions, the `moderation` live
 * topic): admins by holdsAdminPowers (the second factor included), and moderators who are not suspended.
 */
export function holdsModerationPowers(user: { role: string; level?: string; isSuspended?: boolean } | null | undefined, requireMfa: boolean): boolean {
  if (holdsAdminPowers(user, requireMfa)) return true;
  return user?.role === 'moderator' && user.isSuspended !== true;
}

/**
 * The viewer a signed-in user (or a visitor: null) reads as: an admin only with the powers of one
 * (holdsAdminPowers: not suspended, the second factor when REQUIRE_ADMIN_MFA).
 */
export function viewerOf(
  user: { id: string; role: string; level?: string; isSuspended?: boolean } | null | undefined,
  requireAdminMfa: boolean,
): Viewer | null {
  if (!user) return null;
  const isAdmin = holdsAdminPowers(user, requireAdminMfa);
  // Only a moderator's wall deletions differ from a fan's (the queue has its own guard).
  return user.role === 'moderator' && user.isSuspended !== true ? { id: user.id, isAdmin, isModerator: true } : { id: user.id, isAdmin };
}
