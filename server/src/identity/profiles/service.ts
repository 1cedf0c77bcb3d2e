import type { DbOrTx } from '@tribuna/drizzle/client';
import { usernameCandidate } from './names.ts';
import * as repo from './repository.ts';
import type { ProfileRow } from './repository.ts';

/** Collisions are rare; after this many random suffixes something else is wrong. */
const USERNAME_ATTEMPTS = 12;

export interface NewProfile {
  displayName: string;
  avatarUrl?: string | null;
  /** A valid username (see usernameBase); digits are appended while it is taken. */
  usernameBase: string;
}

/** Creates a profile under the first free username derived from the base. */
export async function createProfile(db: DbOrTx, profile: NewProfile): Promise<ProfileRow> {
  for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
    const row = await repo.insertProfileUnlessUsernameTaken(db, {
      displayName: profile.displayName,
      avatarUrl: profile.avatarUrl ?? null,
      username: usernameCandidate(profile.usernameBase, attempt),
    });
    if (row) return row;
  }
  throw new Error(`no free username found for "${profile.usernameBase}"`);
}

// What other domains (identity's sign-ins, the admin's users screen) use of profiles.
export { findProfile, listProfilesForDevLogin, setRole, setSuspended, USERNAME_UNIQUE_INDEX, type ProfileRow } from './repository.ts';
