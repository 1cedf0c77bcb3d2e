import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { profiles } from '@tribuna/drizzle/schema/index';
import type { Role } from '@tribuna/contracts/roles';

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfileRow = typeof profiles.$inferInsert;

export async function findProfile(db: DbOrTx, id: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, id)).limit(1);
  return row ?? null;
}

/** Inserts a profile unless its username is taken (the only unique key besides the random id): null then. */
export async function insertProfileUnlessUsernameTaken(db: DbOrTx, values: NewProfileRow): Promise<ProfileRow | null> {
  const [row] = await db.insert(profiles).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function setRole(db: DbOrTx, id: string, role: Role, now: Date): Promise<void> {
  await db.update(profiles).set({ role, updatedAt: now }).where(eq(profiles.id, id));
}

export async function setSuspended(db: DbOrTx, id: string, isSuspended: boolean, now: Date): Promise<ProfileRow | null> {
  const [row] = await db.update(profiles).set({ isSuspended, updatedAt: now }).where(eq(profiles.id, id)).returning();
  return row ?? null;
}

export type ProfileEdit = Partial<Pick<NewProfileRow, 'displayName' | 'username' | 'bio' | 'avatarUrl' | 'bannerUrl' | 'showInVoterLists'>>;

/**
 * The edit dialog's update: only the given fields, and updated_at. A username another profile
 * holds (ignoring case) fails with the unique violation of profiles_username_lower_uq.
 */
export async function updateProfileFields(db: DbOrTx, id: string, values: ProfileEdit, now: Date): Promise<ProfileRow | null> {
  const [row] = await db
    .update(profiles)
    .set({ ...values, updatedAt: now })
    .where(eq(profiles.id, id))
    .returning();
  return row ?? null;
}

/** The unique index keeping usernames unique ignoring case. */
export const USERNAME_UNIQUE_INDEX = 'profiles_username_lower_uq';

export const ANONYMISED_DISPLAY_NAME = 'Usuario eliminado';

/** The spec's account deletion: name replaced, username/avatar/banner/bio cleared, suspended, no points. */
export async function anonymiseProfile(db: DbOrTx, id: string, now: Date): Promise<ProfileRow | null> {
  const [row] = await db
    .update(profiles)
    .set({
      displayName: ANONYMISED_DISPLAY_NAME,
      username: null,
      avatarUrl: null,
      bannerUrl: null,
      bio: null,
      isSuspended: true,
      totalPoints: 0,
      deletedAt: now,
      updatedAt: now,
    })
    .where(eq(profiles.id, id))
    .returning();
  return row ?? null;
}

/** Profiles for the development sign-in form: admins first, then by name. */
export async function listProfilesForDevLogin(db: DbOrTx, limit: number) {
  return db
    .select({
      id: profiles.id,
      displayName: profiles.displayName,
      username: profiles.username,
      avatarUrl: profiles.avatarUrl,
      role: profiles.role,
    })
    .from(profiles)
    .orderBy(desc(sql`${profiles.role} = 'admin'`), asc(sql`lower(${profiles.displayName})`), asc(profiles.id))
    .limit(limit);
}
