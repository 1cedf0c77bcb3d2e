import type { Role } from '@tribuna/contracts/roles';

export type Access = 'allow' | '/login' | '/';

/**
 * The spec's route-guard rules, in one place:
 * no user → /login; a required role sends non-matching users to /;
 * admin passes any requirement; any other role passes only its own requirement
 * (so a moderator passes only a moderator requirement). Without a required role,
 * any signed-in user passes.
 */
export function resolveAccess(user: { role: Role } | null, required?: Role): Access {
  if (!user) return '/login';
  if (!required || user.role === 'admin' || user.role === required) return 'allow';
  return '/';
}
