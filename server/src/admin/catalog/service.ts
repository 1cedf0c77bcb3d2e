import type {
  ContestantView,
  CreateContestantInput,
  CreateRealityInput,
  CreateSeasonInput,
  RealityView,
  SeasonView,
  UpdateContestantInput,
  UpdateRealityInput,
  UpdateSeasonInput,
  UploadedPhoto,
} from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { Db, Tx } from '@tribuna/drizzle/client';
import { constraintOf, sqlState } from '@tribuna/drizzle/sqlState';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { insertMedia } from '../../media/service.ts';
import type { IngestFile, IngestOptions, StoredImage } from '../../media/service.ts';
import type { UploadedFile } from '../../media/uploads.ts';
import { recordAudit } from '../audit.ts';
import { presentContestant, presentReality, presentSeason, presentUploadedPhoto } from './presenter.ts';
import * as repo from './repository.ts';
import * as rules from './rules.ts';

export interface CatalogContext {
  db: Db;
  media: {
    ingest(file: IngestFile, options?: IngestOptions): Promise<StoredImage>;
    discard(images: StoredImage[]): Promise<void>;
  };
  log: { warn(obj: object, msg: string): void };
}

/** Who writes: every write is recorded in the audit log under this id. */
export interface Admin {
  id: string;
}

const ensure = <T>(row: T | undefined, message: string): T => {
  if (row === undefined) throw notFound(message);
  return row;
};

// --- Realities ---------------------------------------------------------------------------------

export async function listRealities(ctx: CatalogContext, includeDeleted = false): Promise<RealityView[]> {
  return (await repo.listRealities(ctx.db, includeDeleted)).map(presentReality);
}

export async function createReality(ctx: CatalogContext, admin: Admin, input: CreateRealityInput): Promise<RealityView> {
  const name = rules.realityName(input.name);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.insertReality(tx, { name, active: input.active ?? true });
    await recordAudit(tx, admin.id, { action: 'reality.create', entityType: 'reality', entityId: row.id, before: null, after: row });
    return presentReality({ ...row, seasonCount: 0 });
  });
}

export async function updateReality(ctx: CatalogContext, admin: Admin, realityId: string, input: UpdateRealityInput, now = new Date()): Promise<RealityView> {
  const name = input.name === undefined ? undefined : rules.realityName(input.name);
  return ctx.db.transaction(async (tx) => {
    const [before] = await repo.lockRealities(tx, [realityId]);
    ensure(before, ADMIN_MESSAGES.realityNotFound);
    const after = ensure(await repo.updateReality(tx, realityId, { name, active: input.active }, now), ADMIN_MESSAGES.realityNotFound);
    await recordAudit(tx, admin.id, { action: 'reality.update', entityType: 'reality', entityId: realityId, before, after });
    return presentReality(ensure(await repo.realityView(tx, realityId), ADMIN_MESSAGES.realityNotFound));
  });
}

/** Soft delete: hidden from every list and deactivated; its seasons, polls and votes stay. */
export async function deleteReality(ctx: CatalogContext, admin: Admin, realityId: string, now = new Date()): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await repo.lockRealities(tx, [realityId]);
    ensure(before, ADMIN_MESSAGES.realityNotFound);
    const after = ensure(await repo.updateReality(tx, realityId, { active: false, deletedAt: now }, now), ADMIN_MESSAGES.realityNotFound);
    await recordAudit(tx, admin.id, { action: 'reality.delete', entityType: 'reality', entityId: realityId, before, after });
  });
}

/**
 * Undoes the soft delete ('Mostrar eliminados' → Restaurar): listed again, still inactive (the
 * delete deactivated it; the admin turns it on). Its seasons not deleted on their own come back
 * with it, as they were. A reality that is not deleted: 409.
 */
export async function restoreReality(ctx: CatalogContext, admin: Admin, realityId: string, now = new Date()): Promise<RealityView> {
  return ctx.db.transaction(async (tx) => {
    const before = ensure(await repo.lockAnyReality(tx, realityId), ADMIN_MESSAGES.realityNotFound);
    if (before.deletedAt === null) throw conflict(ADMIN_MESSAGES.realityNotDeleted);
    const after = ensure(await repo.restoreReality(tx, realityId, now), ADMIN_MESSAGES.realityNotFound);
    await recordAudit(tx, admin.id, { action: 'reality.restore', entityType: 'reality', entityId: realityId, before, after });
    return presentReality(ensure(await repo.realityView(tx, realityId), ADMIN_MESSAGES.realityNotFound));
  });
}

// --- Seasons -----------------------------------------------------------------------------------

export async function listSeasons(ctx: CatalogContext, realityId?: string, includeDeleted = false): Promise<SeasonView[]> {
  return (await repo.listSeasons(ctx.db, realityId, includeDeleted)).map(presentSeason);
}

/** A duplicate season number that slipped past the check (it cannot while the reality is locked) is still a 409. */
async function seasonWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlState(err) === '23505' && constraintOf(err) === 'seasons_reality_number_uq') throw conflict(ADMIN_MESSAGES.seasonNumberTaken);
    throw err;
  }
}

/** One active season per reality: the others are deactivated (and audited) in the caller's transaction. */
async function deactivateOthers(tx: Tx, admin: Admin, realityId: string, keepSeasonId: string | null, now: Date): Promise<void> {
  for (const after of await repo.deactivateOtherSeasons(tx, realityId, keepSeasonId, now)) {
    await recordAudit(tx, admin.id, {
      action: 'season.deactivate',
      entityType: 'season',
      entityId: after.id,
      before: { ...after, active: true },
      after,
    });
  }
}

export async function createSeason(ctx: CatalogContext, admin: Admin, input: CreateSeasonInput, now = new Date()): Promise<SeasonView> {
  const year = rules.seasonYear(input.year);
  const startDate = input.startDate ?? null;
  const endDate = input.endDate ?? null;
  rules.seasonDates(startDate, endDate);
  const active = input.active ?? false;
  return seasonWrite(() =>
    ctx.db.transaction(async (tx) => {
      const [reality] = await repo.lockRealities(tx, [input.realityId]);
      if (!reality) throw badRequest(ADMIN_MESSAGES.realityRequired);
      const number = input.number ?? (await repo.nextSeasonNumber(tx, reality.id));
      if (await repo.seasonNumberTaken(tx, reality.id, number, null)) throw conflict(ADMIN_MESSAGES.seasonNumberTaken);
      if (active) await deactivateOthers(tx, admin, reality.id, null, now);
      const row = await repo.insertSeason(tx, { realityId: reality.id, number, year, startDate, endDate, active });
      await recordAudit(tx, admin.id, { action: 'season.create', entityType: 'season', entityId: row.id, before: null, after: row });
      return presentSeason({ ...row, realityName: reality.name, realityDeleted: false });
    }),
  );
}

/**
 * Any field; the badge toggle sends `active` alone. Activating deactivates the other seasons of
 * the reality in the same transaction, under the reality's lock: of two concurrent activations in
 * one reality, the later one wins and neither fails.
 */
export async function updateSeason(ctx: CatalogContext, admin: Admin, seasonId: string, input: UpdateSeasonInput, now = new Date()): Promise<SeasonView> {
  if (input.year !== undefined) rules.seasonYear(input.year);
  rules.calendarDate(input.startDate);
  rules.calendarDate(input.endDate);
  return seasonWrite(() =>
    ctx.db.transaction(async (tx) => {
      const current = ensure(await repo.findSeason(tx, seasonId), ADMIN_MESSAGES.seasonNotFound);
      const realityId = input.realityId ?? current.realityId;
      const locked = await repo.lockRealities(tx, [current.realityId, realityId]);
      if (!locked.some((r) => r.id === realityId)) {
        if (input.realityId !== undefined && input.realityId !== current.realityId) throw badRequest(ADMIN_MESSAGES.realityRequired);
        throw notFound(ADMIN_MESSAGES.seasonNotFound);
      }
      // Read again under the lock: a concurrent writer of this reality may have just changed it.
      const before = ensure(await repo.findSeason(tx, seasonId, 'no key update'), ADMIN_MESSAGES.seasonNotFound);
      // Moved to another reality meanwhile (whose lock this transaction does not hold): the admin saw stale data.
      if (before.realityId !== current.realityId) throw conflict(ADMIN_MESSAGES.saveSeasonFailed);

      const startDate = input.startDate === undefined ? before.startDate : input.startDate;
      const endDate = input.endDate === undefined ? before.endDate : input.endDate;
      rules.seasonDates(startDate, endDate);
      const number = input.number ?? before.number;
      if ((number !== before.number || realityId !== before.realityId) && (await repo.seasonNumberTaken(tx, realityId, number, seasonId))) {
        throw conflict(ADMIN_MESSAGES.seasonNumberTaken);
      }
      const active = input.active ?? before.active;
      if (active) await deactivateOthers(tx, admin, realityId, seasonId, now);
      const after = ensure(
        await repo.updateSeason(tx, seasonId, { realityId, number, year: input.year ?? before.year, startDate, endDate, active }, now),
        ADMIN_MESSAGES.seasonNotFound,
      );
      const action = active && !before.active ? 'season.activate' : !active && before.active ? 'season.deactivate' : 'season.update';
      await recordAudit(tx, admin.id, { action, entityType: 'season', entityId: seasonId, before, after });
      return presentSeason(ensure(await repo.seasonView(tx, seasonId), ADMIN_MESSAGES.seasonNotFound));
    }),
  );
}

/** Soft delete: hidden from every list and deactivated; its contestants, polls and votes stay. */
export async function deleteSeason(ctx: CatalogContext, admin: Admin, seasonId: string, now = new Date()): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = ensure(await repo.findSeason(tx, seasonId, 'no key update'), ADMIN_MESSAGES.seasonNotFound);
    const after = ensure(await repo.updateSeason(tx, seasonId, { active: false, deletedAt: now }, now), ADMIN_MESSAGES.seasonNotFound);
    await recordAudit(tx, admin.id, { action: 'season.delete', entityType: 'season', entityId: seasonId, before, after });
  });
}

/**
 * Undoes a season's soft delete. Restored inactive, always: the reality may have another active
 * season by now, and one active season per reality holds without a second look (the admin
 * activates it with the badge, which deactivates the others). A season whose reality is deleted is
 * refused (409, restore the reality first): restored alone it would still be hidden with its reality.
 * Under the reality's lock, like every season write: a concurrent delete of the reality waits.
 */
export async function restoreSeason(ctx: CatalogContext, admin: Admin, seasonId: string, now = new Date()): Promise<SeasonView> {
  return ctx.db.transaction(async (tx) => {
    const current = ensure(await repo.findAnySeason(tx, seasonId), ADMIN_MESSAGES.seasonNotFound);
    const [reality] = await repo.lockRealities(tx, [current.realityId]);
    if (!reality) throw conflict(ADMIN_MESSAGES.seasonRealityDeleted);
    const before = ensure(await repo.findAnySeason(tx, seasonId, 'no key update'), ADMIN_MESSAGES.seasonNotFound);
    // Moved to another reality meanwhile (whose lock this transaction does not hold): the admin saw stale data.
    if (before.realityId !== current.realityId) throw conflict(ADMIN_MESSAGES.restoreSeasonFailed);
    if (before.deletedAt === null) throw conflict(ADMIN_MESSAGES.seasonNotDeleted);
    const after = ensure(await repo.restoreSeason(tx, seasonId, now), ADMIN_MESSAGES.seasonNotFound);
    await recordAudit(tx, admin.id, { action: 'season.restore', entityType: 'season', entityId: seasonId, before, after });
    return presentSeason(ensure(await repo.seasonView(tx, seasonId), ADMIN_MESSAGES.seasonNotFound));
  });
}

// --- Contestants -------------------------------------------------------------------------------

export async function listContestants(ctx: CatalogContext, seasonId?: string, includeDeleted = false): Promise<ContestantView[]> {
  return (await repo.listContestants(ctx.db, seasonId, includeDeleted)).map(presentContestant);
}

/** The season a contestant goes in, held (FOR SHARE) so it cannot be deleted under the write. */
async function seasonForContestant(tx: Tx, seasonId: string) {
  const season = await repo.findSeason(tx, seasonId, 'share');
  if (!season) throw badRequest(ADMIN_MESSAGES.contestantSeasonRequired);
  return season;
}

export async function createContestant(ctx: CatalogContext, admin: Admin, input: CreateContestantInput): Promise<ContestantView> {
  const fullName = rules.contestantName(input.fullName);
  const photoUrl = rules.photoUrl(input.photoUrl);
  const outcome = rules.contestantOutcome(input.status ?? 'active', input.eliminationDate ?? null, input.finalPosition ?? null);
  return ctx.db.transaction(async (tx) => {
    await seasonForContestant(tx, input.seasonId);
    const row = await repo.insertContestant(tx, { seasonId: input.seasonId, fullName, photoUrl, ...outcome });
    await recordAudit(tx, admin.id, { action: 'contestant.create', entityType: 'contestant', entityId: row.id, before: null, after: row });
    return presentContestant(ensure(await repo.contestantView(tx, row.id), ADMIN_MESSAGES.contestantNotFound));
  });
}

/** Any field; the outcome fields are judged together with the status the contestant ends with. */
export async function updateContestant(
  ctx: CatalogContext,
  admin: Admin,
  contestantId: string,
  input: UpdateContestantInput,
  now = new Date(),
): Promise<ContestantView> {
  const fullName = input.fullName === undefined ? undefined : rules.contestantName(input.fullName);
  const photoUrl = input.photoUrl === undefined ? undefined : rules.photoUrl(input.photoUrl);
  return ctx.db.transaction(async (tx) => {
    const before = ensure(await repo.lockContestant(tx, contestantId), ADMIN_MESSAGES.contestantNotFound);
    if (input.seasonId !== undefined && input.seasonId !== before.seasonId) await seasonForContestant(tx, input.seasonId);
    const outcome = rules.contestantOutcome(
      input.status ?? before.status,
      input.eliminationDate === undefined ? before.eliminationDate : input.eliminationDate,
      input.finalPosition === undefined ? before.finalPosition : input.finalPosition,
    );
    const after = ensure(
      await repo.updateContestant(tx, contestantId, { seasonId: input.seasonId, fullName, photoUrl, ...outcome }, now),
      ADMIN_MESSAGES.contestantNotFound,
    );
    await recordAudit(tx, admin.id, { action: 'contestant.update', entityType: 'contestant', entityId: contestantId, before, after });
    // A contestant of a season or reality deleted meanwhile is no longer listed: not found.
    return presentContestant(ensure(await repo.contestantView(tx, contestantId), ADMIN_MESSAGES.contestantNotFound));
  });
}

/** Soft delete: hidden from the lists; the poll options and votes naming the contestant stay intact. */
export async function deleteContestant(ctx: CatalogContext, admin: Admin, contestantId: string, now = new Date()): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = ensure(await repo.lockContestant(tx, contestantId), ADMIN_MESSAGES.contestantNotFound);
    const after = ensure(await repo.updateContestant(tx, contestantId, { deletedAt: now }, now), ADMIN_MESSAGES.contestantNotFound);
    await recordAudit(tx, admin.id, { action: 'contestant.delete', entityType: 'contestant', entityId: contestantId, before, after });
  });
}

/**
 * Undoes a contestant's soft delete, as it was (status, outcome, photo). A contestant of a season
 * (or reality) that is deleted is refused (409, restore the season first): restored alone it would
 * still be hidden with its season. The season is held (FOR SHARE) so it cannot be deleted under the restore.
 */
export async function restoreContestant(ctx: CatalogContext, admin: Admin, contestantId: string, now = new Date()): Promise<ContestantView> {
  return ctx.db.transaction(async (tx) => {
    const before = ensure(await repo.lockAnyContestant(tx, contestantId), ADMIN_MESSAGES.contestantNotFound);
    if (before.deletedAt === null) throw conflict(ADMIN_MESSAGES.contestantNotDeleted);
    if (!(await repo.findSeason(tx, before.seasonId, 'share'))) throw conflict(ADMIN_MESSAGES.contestantSeasonDeleted);
    const after = ensure(await repo.restoreContestant(tx, contestantId, now), ADMIN_MESSAGES.contestantNotFound);
    await recordAudit(tx, admin.id, { action: 'contestant.restore', entityType: 'contestant', entityId: contestantId, before, after });
    return presentContestant(ensure(await repo.contestantView(tx, contestantId), ADMIN_MESSAGES.contestantNotFound));
  });
}

// --- Contestant photos -------------------------------------------------------------------------

/**
 * One image through the media pipeline, cropped square. Its media row (in the transaction of the
 * audit row) keeps the worker's media.gc from collecting the files before a contestant names them.
 */
export async function uploadContestantPhoto(ctx: CatalogContext, admin: Admin, files: UploadedFile[]): Promise<UploadedPhoto> {
  const file = files[0];
  if (!file) throw badRequest(rules.CATALOG_MESSAGES.photoRequired);
  const image = await ctx.media.ingest({ path: file.path, declaredType: file.declaredType }, { square: ADMIN_LIMITS.contestantPhotoPx });
  try {
    await ctx.db.transaction(async (tx) => {
      const mediaId = await insertMedia(tx, image, admin.id);
      await recordAudit(tx, admin.id, {
        action: 'contestant_photo.upload',
        entityType: 'media',
        entityId: mediaId,
        before: null,
        after: { key: image.key, thumbKey: image.thumbKey, width: image.width, height: image.height, bytes: image.bytes },
      });
    });
  } catch (err) {
    await ctx.media.discard([image]).catch((discardErr: unknown) => ctx.log.warn({ err: discardErr }, 'discarding a failed contestant photo failed'));
    throw err;
  }
  return presentUploadedPhoto(image);
}
