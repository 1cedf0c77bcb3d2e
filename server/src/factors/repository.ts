import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { authFactors } from '@tribuna/drizzle/schema/index';

export type FactorRow = typeof authFactors.$inferSelect;

export async function listFactors(db: DbOrTx, userId: string): Promise<FactorRow[]> {
  return db.select().from(authFactors).where(eq(authFactors.userId, userId)).orderBy(asc(authFactors.createdAt));
}

export async function findFactor(db: DbOrTx, id: string): Promise<FactorRow | null> {
  const [row] = await db.select().from(authFactors).where(eq(authFactors.id, id)).limit(1);
  return row ?? null;
}

export async function findVerifiedFactor(db: DbOrTx, userId: string): Promise<FactorRow | null> {
  const [row] = await db
    .select()
    .from(authFactors)
    .where(and(eq(authFactors.userId, userId), eq(authFactors.status, 'verified')))
    .orderBy(asc(authFactors.createdAt))
    .limit(1);
  return row ?? null;
}

export async function deleteUnverifiedFactors(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(authFactors).where(and(eq(authFactors.userId, userId), eq(authFactors.status, 'unverified')));
}

export async function insertFactor(db: DbOrTx, values: { userId: string; secret: string; createdAt: Date }): Promise<FactorRow> {
  const [row] = await db.insert(authFactors).values({ ...values, factorType: 'totp', status: 'unverified' }).returning();
  return row!;
}

/**
 * Records that a code of time step `step` was accepted, and marks the factor verified. Only one
 * caller can win a given step: the update requires the stored step to be older, so a replayed
 * code (or two concurrent submissions of it) finds no row. Returns the updated factor or null.
 */
export async function consumeStep(db: DbOrTx, id: string, step: number, now: Date): Promise<FactorRow | null> {
  const [row] = await db
    .update(authFactors)
    .set({ lastUsedStep: step, status: 'verified', verifiedAt: sql`coalesce(${authFactors.verifiedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(authFactors.id, id), or(isNull(authFactors.lastUsedStep), lt(authFactors.lastUsedStep, step))))
    .returning();
  return row ?? null;
}

export async function deleteFactor(db: DbOrTx, id: string): Promise<void> {
  await db.delete(authFactors).where(eq(authFactors.id, id));
}

export async function deleteUserFactors(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(authFactors).where(eq(authFactors.userId, userId));
}
