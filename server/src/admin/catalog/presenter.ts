import type { ContestantView, RealityView, SeasonView, UploadedPhoto } from '@tribuna/contracts/api/admin/catalog';
import type { StoredImage } from '../../media/service.ts';
import type { ContestantListRow, RealityListRow, SeasonListRow } from './repository.ts';

export function presentReality(row: RealityListRow): RealityView {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    seasonCount: row.seasonCount,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentSeason(row: SeasonListRow): SeasonView {
  return {
    id: row.id,
    realityId: row.realityId,
    realityName: row.realityName,
    number: row.number,
    year: row.year,
    startDate: row.startDate,
    endDate: row.endDate,
    active: row.active,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    realityDeleted: row.realityDeleted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentContestant(row: ContestantListRow): ContestantView {
  return {
    id: row.id,
    seasonId: row.seasonId,
    seasonNumber: row.seasonNumber,
    realityName: row.realityName,
    fullName: row.fullName,
    photoUrl: row.photoUrl,
    status: row.status,
    eliminationDate: row.eliminationDate,
    finalPosition: row.finalPosition,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    seasonDeleted: row.seasonDeleted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentUploadedPhoto(image: StoredImage): UploadedPhoto {
  return { url: image.url, thumbnailUrl: image.thumbnailUrl, width: image.width, height: image.height, placeholder: image.placeholder };
}
