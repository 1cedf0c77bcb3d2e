import type { Role } from '@tribuna/contracts/roles';

/** Where a signed-in user lands after signing in (or on visiting /login): admins to /admin, everyone else to /. */
export function homeFor(user: { role: Role }): '/admin' | '/' {
  return user.role === 'admin' ? '/admin' : '/';
}
