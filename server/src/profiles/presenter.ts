import type { Profile } from '@tribuna/contracts/api/me';
import type { ProfileRow } from './repository.ts';

/** A profile as the API shows it (the Profile schema): public fields only, never the e-mail. */
export function presentProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    displayName: row.displayName,
    username: row.username,
    bio: row.bio,
    avatarUrl: row.avatarUrl,
    bannerUrl: row.bannerUrl,
    role: row.role,
    isSuspended: row.isSuspended,
    totalPoints: row.totalPoints,
    createdAt: row.createdAt.toISOString(),
  };
}
