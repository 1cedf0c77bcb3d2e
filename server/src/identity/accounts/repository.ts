import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { accounts } from '@tribuna/drizzle/schema/index';
import { signInLockKey, xactLock } from '@tribuna/drizzle/locks';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;

/**
 * Serialises sign-ins of the same (issuer, subject) until the transaction ends, so two racing
 * callbacks of a first sign-in cannot both create a profile.
 */
export async function lockIdentity(tx: DbOrTx, issuer: string, subject: string): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(signInLockKey(issuer, subject))}`);
}

export async function findAccountByIdentity(db: DbOrTx, issuer: string, subject: string): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.oidcIssuer, issuer), eq(accounts.oidcSubject, subject)))
    .limit(1);
  return row ?? null;
}

export async function findAccount(db: DbOrTx, userId: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.userId, userId)).limit(1);
  return row ?? null;
}

/** Inserts the account; null when the identity already has one (belt and braces behind the lock). */
export async function insertAccount(db: DbOrTx, values: NewAccountRow): Promise<AccountRow | null> {
  const [row] = await db
    .insert(accounts)
    .values(values)
    .onConflictDoNothing({ target: [accounts.oidcIssuer, accounts.oidcSubject] })
    .returning();
  return row ?? null;
}

export async function recordSignIn(db: DbOrTx, userId: string, values: { email: string | null; emailVerified: boolean; lastSignInAt: Date }): Promise<void> {
  await db.update(accounts).set(values).where(eq(accounts.userId, userId));
}

/** Account deletion forgets the e-mail and the identity: signing in again starts a new profile. */
export async function deleteAccount(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(accounts).where(eq(accounts.userId, userId));
}
