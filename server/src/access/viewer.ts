/** Who reads: a visitor (null) or a signed-in user; admins see every post. */
export interface Viewer {
  id: string;
  isAdmin: boolean;
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
 * The viewer a signed-in user (or a visitor: null) reads as: an admin only with the powers of one
 * (holdsAdminPowers: not suspended, the second factor when REQUIRE_ADMIN_MFA).
 */
export function viewerOf(
  user: { id: string; role: string; level?: string; isSuspended?: boolean } | null | undefined,
  requireAdminMfa: boolean,
): Viewer | null {
  return user ? { id: user.id, isAdmin: holdsAdminPowers(user, requireAdminMfa) } : null;
}
