// The back-office catalogue: realities, seasons, contestants (spec admin-backoffice.md §2–§5).
import { Type, type Static } from '@sinclair/typebox';
import { ADMIN_LIMITS, CONTESTANT_STATUSES } from '../../adminRules.ts';
import { IsoDate, SafeText, Uuid } from '../common.ts';
import { defineRoutes, NoContent } from '../../route.ts';

/** A calendar date, YYYY-MM-DD (season dates, elimination dates). */
export const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// --- Realities -------------------------------------------------------------------------------------

export const RealityView = Type.Object({
  id: Uuid,
  name: Type.String(),
  active: Type.Boolean(),
  seasonCount: Type.Integer({ minimum: 0 }),
  /** Set when the reality was (soft-)deleted: only listed with `includeDeleted`, and restorable. */
  deletedAt: Nullable(IsoDate),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type RealityView = Static<typeof RealityView>;

export const RealityList = Type.Object({ realities: Type.Array(RealityView) });
export type RealityList = Static<typeof RealityList>;

/** GET /api/admin/realities: `includeDeleted` lists the soft-deleted ones too ('Mostrar eliminados'). */
export const RealityQuery = Type.Object({ includeDeleted: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const RealityParams = Type.Object({ realityId: Uuid }, { additionalProperties: false });

/** POST /api/admin/realities: name required (trimmed, 1–100). */
export const CreateRealityInput = Type.Object(
  { name: SafeText({ maxLength: ADMIN_LIMITS.realityName * 2 }), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type CreateRealityInput = Static<typeof CreateRealityInput>;

/** PATCH /api/admin/realities/:realityId: any of name and active (the toggle sends active alone). */
export const UpdateRealityInput = Type.Object(
  { name: Type.Optional(SafeText({ maxLength: ADMIN_LIMITS.realityName * 2 })), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateRealityInput = Static<typeof UpdateRealityInput>;

// --- Seasons ---------------------------------------------------------------------------------------

export const SeasonView = Type.Object({
  id: Uuid,
  realityId: Uuid,
  realityName: Type.String(),
  number: Type.Integer(),
  year: Type.Integer(),
  startDate: Nullable(CalendarDate),
  endDate: Nullable(CalendarDate),
  active: Type.Boolean(),
  /** Set when the season was (soft-)deleted: only listed with `includeDeleted`, and restorable. */
  deletedAt: Nullable(IsoDate),
  /** Its reality is deleted: the season is hidden with it (listed with `includeDeleted`) and cannot be restored before the reality. */
  realityDeleted: Type.Boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type SeasonView = Static<typeof SeasonView>;

export const SeasonList = Type.Object({ seasons: Type.Array(SeasonView) });
export type SeasonList = Static<typeof SeasonList>;

/**
 * GET /api/admin/seasons: optionally of one reality; `includeDeleted` lists too the soft-deleted
 * seasons and the seasons of deleted realities ('Mostrar eliminados').
 */
export const SeasonQuery = Type.Object({ realityId: Type.Optional(Uuid), includeDeleted: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const SeasonParams = Type.Object({ seasonId: Uuid }, { additionalProperties: false });

/**
 * POST /api/admin/seasons. `number` defaults to the next one of the reality. Activating a season
 * deactivates the others of its reality in the same transaction.
 */
export const CreateSeasonInput = Type.Object(
  {
    realityId: Uuid,
    number: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    year: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
    startDate: Type.Optional(Nullable(CalendarDate)),
    endDate: Type.Optional(Nullable(CalendarDate)),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateSeasonInput = Static<typeof CreateSeasonInput>;

/** PATCH /api/admin/seasons/:seasonId: any field (the badge toggle sends active alone). */
export const UpdateSeasonInput = Type.Object(
  {
    realityId: Type.Optional(Uuid),
    number: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    year: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
    startDate: Type.Optional(Nullable(CalendarDate)),
    endDate: Type.Optional(Nullable(CalendarDate)),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSeasonInput = Static<typeof UpdateSeasonInput>;

// --- Contestants -----------------------------------------------------------------------------------

export const ContestantStatusSchema = Type.Union(CONTESTANT_STATUSES.map((s) => Type.Literal(s)));

export const ContestantView = Type.Object({
  id: Uuid,
  seasonId: Uuid,
  seasonNumber: Type.Integer(),
  realityName: Type.String(),
  fullName: Type.String(),
  photoUrl: Nullable(Type.String()),
  status: ContestantStatusSchema,
  eliminationDate: Nullable(CalendarDate),
  finalPosition: Nullable(Type.Integer()),
  /** Set when the contestant was (soft-)deleted: only listed with `includeDeleted`, and restorable. */
  deletedAt: Nullable(IsoDate),
  /** Its season (or the season's reality) is deleted: hidden with it, and not restorable before it. */
  seasonDeleted: Type.Boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ContestantView = Static<typeof ContestantView>;

export const ContestantList = Type.Object({ contestants: Type.Array(ContestantView) });
export type ContestantList = Static<typeof ContestantList>;

/** GET /api/admin/contestants: `includeDeleted` lists too the deleted ones and those of deleted seasons ('Mostrar eliminados'). */
export const ContestantQuery = Type.Object({ seasonId: Type.Optional(Uuid), includeDeleted: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const ContestantParams = Type.Object({ contestantId: Uuid }, { additionalProperties: false });

const contestantFields = {
  seasonId: Uuid,
  fullName: SafeText({ maxLength: ADMIN_LIMITS.contestantName * 2 }),
  /** https URL (an uploaded photo's /media/ URL, from POST /api/admin/contestant-photos, is accepted too); empty → null. */
  photoUrl: Type.Optional(Nullable(SafeText({ maxLength: 2048 }))),
  status: Type.Optional(ContestantStatusSchema),
  /** Only for eliminated, finalist and winner; ignored (stored null) otherwise. */
  eliminationDate: Type.Optional(Nullable(CalendarDate)),
  /** Only for finalist and winner, ≥ 1; ignored (stored null) otherwise. */
  finalPosition: Type.Optional(Nullable(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }))),
};

export const CreateContestantInput = Type.Object(contestantFields, { additionalProperties: false });
export type CreateContestantInput = Static<typeof CreateContestantInput>;

export const UpdateContestantInput = Type.Partial(Type.Object(contestantFields), { additionalProperties: false, minProperties: 1 });
export type UpdateContestantInput = Static<typeof UpdateContestantInput>;

/** POST /api/admin/contestant-photos (multipart, field `image`): the photo through the media pipeline, cropped square. */
export const UploadedPhoto = Type.Object({
  url: Type.String(),
  thumbnailUrl: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  placeholder: Nullable(Type.String()),
});
export type UploadedPhoto = Static<typeof UploadedPhoto>;

/** /api/admin/{realities,seasons,contestants,contestant-photos}: the back-office catalogue. */
export const ADMIN_CATALOG_ROUTES = defineRoutes({
  adminRealities: {
    method: 'GET',
    path: '/api/admin/realities',
    status: 200,
    tags: ['admin'],
    summary: 'Realities not deleted (includeDeleted: the deleted ones too, marked by deletedAt), by name, with their season counts',
    querystring: RealityQuery,
    response: RealityList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  createReality: {
    method: 'POST',
    path: '/api/admin/realities',
    status: 201,
    tags: ['admin'],
    summary: 'Create a reality (name required, trimmed, ≤100; active by default)',
    body: CreateRealityInput,
    response: RealityView,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.write',
  },
  updateReality: {
    method: 'PATCH',
    path: '/api/admin/realities/:realityId',
    status: 200,
    tags: ['admin'],
    summary: 'Rename a reality or toggle it active',
    params: RealityParams,
    body: UpdateRealityInput,
    response: RealityView,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  deleteReality: {
    method: 'DELETE',
    path: '/api/admin/realities/:realityId',
    status: 204,
    tags: ['admin'],
    summary: 'Soft-delete a reality: hidden and deactivated, its seasons, polls and votes kept',
    params: RealityParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  restoreReality: {
    method: 'POST',
    path: '/api/admin/realities/:realityId/restore',
    status: 200,
    tags: ['admin'],
    summary: 'Restore a soft-deleted reality: listed again, inactive, with its seasons that were not deleted on their own',
    params: RealityParams,
    response: RealityView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  adminSeasons: {
    method: 'GET',
    path: '/api/admin/seasons',
    status: 200,
    tags: ['admin'],
    summary: 'Seasons not deleted, by year then number, optionally of one reality (includeDeleted: the deleted ones and those of deleted realities too)',
    querystring: SeasonQuery,
    response: SeasonList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  createSeason: {
    method: 'POST',
    path: '/api/admin/seasons',
    status: 201,
    tags: ['admin'],
    summary: 'Create a season (number defaults to the next of the reality; activating it deactivates the others of the reality)',
    body: CreateSeasonInput,
    response: SeasonView,
    errors: [400, 401, 403, 409, 429],
    rateLimit: 'admin.write',
  },
  updateSeason: {
    method: 'PATCH',
    path: '/api/admin/seasons/:seasonId',
    status: 200,
    tags: ['admin'],
    summary: 'Edit a season or toggle it active (activating it deactivates the others of the reality)',
    params: SeasonParams,
    body: UpdateSeasonInput,
    response: SeasonView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  deleteSeason: {
    method: 'DELETE',
    path: '/api/admin/seasons/:seasonId',
    status: 204,
    tags: ['admin'],
    summary: 'Soft-delete a season: hidden and deactivated, its contestants, polls and votes kept',
    params: SeasonParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  restoreSeason: {
    method: 'POST',
    path: '/api/admin/seasons/:seasonId/restore',
    status: 200,
    tags: ['admin'],
    summary: 'Restore a soft-deleted season, inactive (409 while its reality is deleted)',
    params: SeasonParams,
    response: SeasonView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  adminContestants: {
    method: 'GET',
    path: '/api/admin/contestants',
    status: 200,
    tags: ['admin'],
    summary: 'Contestants not deleted: of one season by name, or all newest first (includeDeleted: the deleted ones and those of deleted seasons too)',
    querystring: ContestantQuery,
    response: ContestantList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  createContestant: {
    method: 'POST',
    path: '/api/admin/contestants',
    status: 201,
    tags: ['admin'],
    summary: 'Create a contestant (season and name required; photo an https or uploaded /media/ URL)',
    body: CreateContestantInput,
    response: ContestantView,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.write',
  },
  updateContestant: {
    method: 'PATCH',
    path: '/api/admin/contestants/:contestantId',
    status: 200,
    tags: ['admin'],
    summary: 'Edit a contestant (elimination date kept for eliminated/finalist/winner, final position for finalist/winner)',
    params: ContestantParams,
    body: UpdateContestantInput,
    response: ContestantView,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  deleteContestant: {
    method: 'DELETE',
    path: '/api/admin/contestants/:contestantId',
    status: 204,
    tags: ['admin'],
    summary: 'Soft-delete a contestant: hidden from the lists, poll options and votes naming them kept',
    params: ContestantParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  restoreContestant: {
    method: 'POST',
    path: '/api/admin/contestants/:contestantId/restore',
    status: 200,
    tags: ['admin'],
    summary: 'Restore a soft-deleted contestant as it was (409 while its season or reality is deleted)',
    params: ContestantParams,
    response: ContestantView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  uploadContestantPhoto: {
    method: 'POST',
    path: '/api/admin/contestant-photos',
    status: 201,
    tags: ['admin'],
    summary: 'Upload a contestant photo (under 5 MB): re-encoded to WebP, cropped square, with a thumbnail and a placeholder',
    description:
      'multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image type is sniffed from the bytes. File: image (one).',
    consumes: ['multipart/form-data'],
    response: UploadedPhoto,
    errors: [400, 401, 403, 406, 413, 415, 429, 503],
    rateLimit: 'admin.upload',
  },
});
