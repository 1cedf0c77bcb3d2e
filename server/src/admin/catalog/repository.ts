import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { contestants, realities, seasons } from '@tribuna/drizzle/schema/index';

// The only SQL of the back-office catalogue. Soft-deleted rows (deleted_at set) are invisible here
// except where a write needs them (season numbers stay taken by deleted seasons), in the lists asked
// for them ('Mostrar eliminados') and in the restores.

export type RealityRow = typeof realities.$inferSelect;
export type SeasonRow = typeof seasons.$inferSelect;
export type ContestantRow = typeof contestants.$inferSelect;
export type RealityListRow = RealityRow & { seasonCount: number };
export type SeasonListRow = SeasonRow & { realityName: string; realityDeleted: boolean };
export type ContestantListRow = ContestantRow & { seasonNumber: number; realityName: string; seasonDeleted: boolean };

// --- Realities ---------------------------------------------------------------------------------

// Qualified by hand: drizzle writes a column of the only table of a query without its table name.
const liveSeasonCount = sql<number>`(SELECT count(*)::int FROM seasons s WHERE s.reality_id = realities.id AND s.deleted_at IS NULL)`;

async function selectRealities(db: DbOrTx, where?: SQL, includeDeleted = false): Promise<RealityListRow[]> {
  const rows = await db
    .select({ reality: realities, seasonCount: liveSeasonCount })
    .from(realities)
    .where(and(includeDeleted ? undefined : isNull(realities.deletedAt), where))
    .orderBy(sql`lower(${realities.name})`, asc(realities.id));
  return rows.map((r) => ({ ...r.reality, seasonCount: r.seasonCount }));
}

/** Every reality not deleted (and the deleted ones too with `includeDeleted`), by name, with its number of seasons (not deleted). */
export const listRealities = (db: DbOrTx, includeDeleted = false) => selectRealities(db, undefined, includeDeleted);

export async function realityView(db: DbOrTx, realityId: string): Promise<RealityListRow | undefined> {
  return (await selectRealities(db, eq(realities.id, realityId)))[0];
}

/**
 * Locks the realities of `ids` that are not deleted (FOR NO KEY UPDATE, in id order so that two
 * writers never wait on each other crosswise) and returns them. Every season write holds the lock
 * of its reality: activations, numbering and moves of one reality's seasons happen one at a time.
 */
export async function lockRealities(tx: Tx, ids: string[]): Promise<RealityRow[]> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return [];
  return tx
    .select()
    .from(realities)
    .where(and(inArray(realities.id, sorted), isNull(realities.deletedAt)))
    .orderBy(asc(realities.id))
    .for('no key update');
}

/** A reality deleted or not, locked (FOR NO KEY UPDATE) for its restore. */
export async function lockAnyReality(tx: Tx, realityId: string): Promise<RealityRow | undefined> {
  const [row] = await tx.select().from(realities).where(eq(realities.id, realityId)).for('no key update');
  return row;
}

/** Clears a deleted reality's deleted_at (it stays inactive, as the delete left it); undefined when it is not deleted. */
export async function restoreReality(tx: Tx, realityId: string, now: Date): Promise<RealityRow | undefined> {
  const [row] = await tx
    .update(realities)
    .set({ deletedAt: null, updatedAt: now })
    .where(and(eq(realities.id, realityId), isNotNull(realities.deletedAt)))
    .returning();
  return row;
}

export async function insertReality(tx: Tx, values: { name: string; active: boolean }): Promise<RealityRow> {
  const [row] = await tx.insert(realities).values(values).returning();
  return row!;
}

/** Updates a reality that is not deleted; undefined when there is none. */
export async function updateReality(
  tx: Tx,
  realityId: string,
  set: Partial<Pick<RealityRow, 'name' | 'active' | 'deletedAt'>>,
  now: Date,
): Promise<RealityRow | undefined> {
  const [row] = await tx
    .update(realities)
    .set({ ...set, updatedAt: now })
    .where(and(eq(realities.id, realityId), isNull(realities.deletedAt)))
    .returning();
  return row;
}

// --- Seasons -----------------------------------------------------------------------------------

/** The spec's order (admin §7: 'ordered by year then number'): oldest year first, then by number; ties by reality. */
const SEASON_ORDER = [asc(seasons.year), asc(seasons.number), asc(realities.name), asc(seasons.id)];

async function selectSeasons(db: DbOrTx, where?: SQL, includeDeleted = false): Promise<SeasonListRow[]> {
  const rows = await db
    .select({ season: seasons, realityName: realities.name, realityDeleted: sql<boolean>`${realities.deletedAt} IS NOT NULL` })
    .from(seasons)
    .innerJoin(realities, eq(realities.id, seasons.realityId))
    .where(and(includeDeleted ? undefined : and(isNull(seasons.deletedAt), isNull(realities.deletedAt)), where))
    .orderBy(...SEASON_ORDER);
  return rows.map((r) => ({ ...r.season, realityName: r.realityName, realityDeleted: r.realityDeleted }));
}

/**
 * Seasons not deleted (of realities not deleted), by year then number; optionally of one reality.
 * `includeDeleted` adds the deleted seasons and the seasons of deleted realities.
 */
export const listSeasons = (db: DbOrTx, realityId?: string, includeDeleted = false) =>
  selectSeasons(db, realityId ? eq(seasons.realityId, realityId) : undefined, includeDeleted);

export async function seasonView(db: DbOrTx, seasonId: string): Promise<SeasonListRow | undefined> {
  return (await selectSeasons(db, eq(seasons.id, seasonId)))[0];
}

/** A season that is not deleted, of a reality that is not deleted; `lock` takes its row lock. */
export async function findSeason(db: DbOrTx, seasonId: string, lock: 'no key update' | 'share' | null = null): Promise<SeasonRow | undefined> {
  const query = db
    .select()
    .from(seasons)
    .where(
      and(
        eq(seasons.id, seasonId),
        isNull(seasons.deletedAt),
        sql`EXISTS (SELECT 1 FROM realities r WHERE r.id = seasons.reality_id AND r.deleted_at IS NULL)`,
      ),
    );
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** A season deleted or not, whatever its reality; `lock` takes its row lock. */
export async function findAnySeason(db: DbOrTx, seasonId: string, lock: 'no key update' | null = null): Promise<SeasonRow | undefined> {
  const query = db.select().from(seasons).where(eq(seasons.id, seasonId));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Clears a deleted season's deleted_at and leaves it inactive; undefined when it is not deleted. */
export async function restoreSeason(tx: Tx, seasonId: string, now: Date): Promise<SeasonRow | undefined> {
  const [row] = await tx
    .update(seasons)
    .set({ deletedAt: null, active: false, updatedAt: now })
    .where(and(eq(seasons.id, seasonId), isNotNull(seasons.deletedAt)))
    .returning();
  return row;
}

/** The next season number of a reality: deleted seasons keep theirs (the unique index covers them). */
export async function nextSeasonNumber(tx: Tx, realityId: string): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${seasons.number}), 0)::int + 1` })
    .from(seasons)
    .where(eq(seasons.realityId, realityId));
  return row!.next;
}

/** Whether another season of the reality (deleted ones included) has this number. */
export async function seasonNumberTaken(tx: Tx, realityId: string, number: number, exceptSeasonId: string | null): Promise<boolean> {
  const rows = await tx
    .select({ id: seasons.id })
    .from(seasons)
    .where(and(eq(seasons.realityId, realityId), eq(seasons.number, number), exceptSeasonId ? ne(seasons.id, exceptSeasonId) : undefined))
    .limit(1);
  return rows.length > 0;
}

/** Deactivates every active season of the reality but `keepSeasonId`; returns them as they are now. */
export async function deactivateOtherSeasons(tx: Tx, realityId: string, keepSeasonId: string | null, now: Date): Promise<SeasonRow[]> {
  return tx
    .update(seasons)
    .set({ active: false, updatedAt: now })
    .where(and(eq(seasons.realityId, realityId), eq(seasons.active, true), keepSeasonId ? ne(seasons.id, keepSeasonId) : undefined))
    .returning();
}

export type SeasonValues = Pick<SeasonRow, 'realityId' | 'number' | 'year' | 'startDate' | 'endDate' | 'active'>;

export async function insertSeason(tx: Tx, values: SeasonValues): Promise<SeasonRow> {
  const [row] = await tx.insert(seasons).values(values).returning();
  return row!;
}

export async function updateSeason(tx: Tx, seasonId: string, set: Partial<SeasonValues> & { deletedAt?: Date }, now: Date): Promise<SeasonRow | undefined> {
  const [row] = await tx
    .update(seasons)
    .set({ ...set, updatedAt: now })
    .where(and(eq(seasons.id, seasonId), isNull(seasons.deletedAt)))
    .returning();
  return row;
}

// --- Contestants -------------------------------------------------------------------------------

async function selectContestants(db: DbOrTx, where: SQL | undefined, order: SQL[], includeDeleted = false): Promise<ContestantListRow[]> {
  const rows = await db
    .select({
      contestant: contestants,
      seasonNumber: seasons.number,
      realityName: realities.name,
      seasonDeleted: sql<boolean>`(${seasons.deletedAt} IS NOT NULL OR ${realities.deletedAt} IS NOT NULL)`,
    })
    .from(contestants)
    .innerJoin(seasons, eq(seasons.id, contestants.seasonId))
    .innerJoin(realities, eq(realities.id, seasons.realityId))
    .where(and(includeDeleted ? undefined : and(isNull(contestants.deletedAt), isNull(seasons.deletedAt), isNull(realities.deletedAt)), where))
    .orderBy(...order);
  return rows.map((r) => ({ ...r.contestant, seasonNumber: r.seasonNumber, realityName: r.realityName, seasonDeleted: r.seasonDeleted }));
}

/**
 * Contestants not deleted (of seasons and realities not deleted): of one season by name, else all
 * newest first. `includeDeleted` adds the deleted ones and those of deleted seasons or realities.
 */
export function listContestants(db: DbOrTx, seasonId?: string, includeDeleted = false): Promise<ContestantListRow[]> {
  return seasonId
    ? selectContestants(db, eq(contestants.seasonId, seasonId), [asc(contestants.fullName), asc(contestants.id)], includeDeleted)
    : selectContestants(db, undefined, [desc(contestants.createdAt), desc(contestants.id)], includeDeleted);
}

export async function contestantView(db: DbOrTx, contestantId: string): Promise<ContestantListRow | undefined> {
  return (await selectContestants(db, eq(contestants.id, contestantId), []))[0];
}

/** A contestant that is not deleted, locked for the update that follows. */
export async function lockContestant(tx: Tx, contestantId: string): Promise<ContestantRow | undefined> {
  const [row] = await tx
    .select()
    .from(contestants)
    .where(and(eq(contestants.id, contestantId), isNull(contestants.deletedAt)))
    .for('no key update');
  return row;
}

/** A contestant deleted or not, locked (FOR NO KEY UPDATE) for its restore. */
export async function lockAnyContestant(tx: Tx, contestantId: string): Promise<ContestantRow | undefined> {
  const [row] = await tx.select().from(contestants).where(eq(contestants.id, contestantId)).for('no key update');
  return row;
}

/** Clears a deleted contestant's deleted_at; undefined when it is not deleted. */
export async function restoreContestant(tx: Tx, contestantId: string, now: Date): Promise<ContestantRow | undefined> {
  const [row] = await tx
    .update(contestants)
    .set({ deletedAt: null, updatedAt: now })
    .where(and(eq(contestants.id, contestantId), isNotNull(contestants.deletedAt)))
    .returning();
  return row;
}

export type ContestantValues = Pick<ContestantRow, 'seasonId' | 'fullName' | 'photoUrl' | 'status' | 'eliminationDate' | 'finalPosition'>;

export async function insertContestant(tx: Tx, values: ContestantValues): Promise<ContestantRow> {
  const [row] = await tx.insert(contestants).values(values).returning();
  return row!;
}

export async function updateContestant(
  tx: Tx,
  contestantId: string,
  set: Partial<ContestantValues> & { deletedAt?: Date },
  now: Date,
): Promise<ContestantRow | undefined> {
  const [row] = await tx
    .update(contestants)
    .set({ ...set, updatedAt: now })
    .where(and(eq(contestants.id, contestantId), isNull(contestants.deletedAt)))
    .returning();
  return row;
}
