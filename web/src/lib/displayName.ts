import type { Profile } from '@tribuna/contracts/api/me';

/** The spec's name fallback: display name, then username, then 'Usuario'. */
export function displayNameOf(profile: Pick<Profile, 'displayName' | 'username'>): string {
  return profile.displayName?.trim() || profile.username?.trim() || 'Usuario';
}
