import { and, asc, eq, gt, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { authFactors } from '@tribuna/drizzle/schema/index';
import { LOCK_KEYS, xactLock } from '@tribuna/drizzle/locks';

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

/** `secret` is the encrypted value (see secretBox.ts). */
export async function insertFactor(db: DbOrTx, values: { id: string; userId: string; secret: string; createdAt: Date }): Promise<FactorRow> {
  const [row] = await db
    .insert(authFactors)
    .values({ ...values, factorType: 'totp', status: 'unverified' })
    .returning();
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

/** One start-up re-encryption batch at a time across instances (held until the transaction ends). */
export async function lockSecretSealing(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(LOCK_KEYS.factorSecrets)}`);
}

/**
 * Up to `limit` factors after `afterId` (in id order) whose secret does not start with
 * `sealedPrefix` (plaintext, or sealed with another key), locked until the transaction ends.
 */
export async function factorsToSeal(tx: Tx, sealedPrefix: string, afterId: string, limit: number): Promise<Pick<FactorRow, 'id' | 'userId' | 'secret'>[]> {
  return tx
    .select({ id: authFactors.id, userId: authFactors.userId, secret: authFactors.secret })
    .from(authFactors)
    .where(and(gt(authFactors.id, afterId), notLike(authFactors.secret, `${sealedPrefix}%`)))
    .orderBy(asc(authFactors.id))
    .limit(limit)
    .for('update');
}

export async function replaceSecret(tx: Tx, id: string, secret: string): Promise<void> {
  await tx.update(authFactors).set({ secret }).where(eq(authFactors.id, id));
}
