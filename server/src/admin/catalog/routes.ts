import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import {
  ContestantList,
  ContestantParams,
  ContestantQuery,
  ContestantView,
  CreateContestantInput,
  CreateRealityInput,
  CreateSeasonInput,
  RealityList,
  RealityParams,
  RealityQuery,
  RealityView,
  SeasonList,
  SeasonParams,
  SeasonQuery,
  SeasonView,
  UpdateContestantInput,
  UpdateRealityInput,
  UpdateSeasonInput,
  UploadedPhoto,
} from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest, errorResponses } from '../../http/errors.ts';
import { withUploads } from '../../media/uploads.ts';
import { requireUser } from '../../identity/plugin.ts';
import { CATALOG_MESSAGES } from './rules.ts';
import * as catalog from './service.ts';

/** The multipart field of POST /api/admin/contestant-photos. */
export const CONTESTANT_PHOTO_FIELD = 'image';

const tags = ['admin'];
const NoContent = Type.Null();

/**
 * The form's own message (spec §5) when a required body field is missing or not even of the right
 * type or format (an unselected reality sent as '' or null), instead of the schema's sentence.
 * The route validates with attachValidation; every other validation error is answered as usual.
 */
function formMessages(messages: Record<string, string>) {
  const relevant = new Set(['required', 'type', 'format']);
  return {
    attachValidation: true,
    preHandler: async (request: FastifyRequest) => {
      const error = request.validationError as (Error & { validation?: FastifySchemaValidationError[]; validationContext?: string }) | undefined;
      if (!error) return;
      if (error.validationContext === 'body') {
        for (const issue of error.validation ?? []) {
          if (!relevant.has(issue.keyword)) continue;
          const field = issue.keyword === 'required' ? String(issue.params.missingProperty) : issue.instancePath.split('/')[1];
          const message = field === undefined ? undefined : messages[field];
          if (message) throw badRequest(message);
        }
      }
      throw error;
    },
  };
}

const REALITY_FORM = formMessages({ name: ADMIN_MESSAGES.realityNameRequired });
const SEASON_FORM = formMessages({ realityId: ADMIN_MESSAGES.realityRequired, year: ADMIN_MESSAGES.yearRange });
const CONTESTANT_FORM = formMessages({ seasonId: ADMIN_MESSAGES.contestantSeasonRequired, fullName: ADMIN_MESSAGES.contestantNameRequired });

/**
 * /api/admin/{realities,seasons,contestants,contestant-photos}: the back-office catalogue. The
 * admin guard runs in the parent context (admin/routes.ts); the admin's id is what the audit log records.
 */
const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: catalog.CatalogContext = { db: app.database.db, media: app.media, log: app.log };

  // --- Realities ---

  app.get(
    '/realities',
    {
      schema: {
        tags,
        summary: 'Realities not deleted (includeDeleted: the deleted ones too, marked by deletedAt), by name, with their season counts',
        querystring: RealityQuery,
        response: { 200: RealityList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => ({ realities: await catalog.listRealities(ctx, request.query.includeDeleted === true) }),
  );

  app.post(
    '/realities',
    {
      schema: {
        tags,
        summary: 'Create a reality (name required, trimmed, ≤100; active by default)',
        body: CreateRealityInput,
        response: { 201: RealityView, ...errorResponses(400, 401, 403, 429) },
      },
      ...REALITY_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => reply.code(201).send(await catalog.createReality(ctx, requireUser(request), request.body)),
  );

  app.patch(
    '/realities/:realityId',
    {
      schema: {
        tags,
        summary: 'Rename a reality or toggle it active',
        params: RealityParams,
        body: UpdateRealityInput,
        response: { 200: RealityView, ...errorResponses(400, 401, 403, 404, 429) },
      },
      ...REALITY_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.updateReality(ctx, requireUser(request), request.params.realityId, request.body),
  );

  app.delete(
    '/realities/:realityId',
    {
      schema: {
        tags,
        summary: 'Soft-delete a reality: hidden and deactivated, its seasons, polls and votes kept',
        params: RealityParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => {
      await catalog.deleteReality(ctx, requireUser(request), request.params.realityId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/realities/:realityId/restore',
    {
      schema: {
        tags,
        summary: 'Restore a soft-deleted reality: listed again, inactive, with its seasons that were not deleted on their own',
        params: RealityParams,
        response: { 200: RealityView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.restoreReality(ctx, requireUser(request), request.params.realityId),
  );

  // --- Seasons ---

  app.get(
    '/seasons',
    {
      schema: {
        tags,
        summary: 'Seasons not deleted, by year then number, optionally of one reality (includeDeleted: the deleted ones and those of deleted realities too)',
        querystring: SeasonQuery,
        response: { 200: SeasonList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => ({ seasons: await catalog.listSeasons(ctx, request.query.realityId, request.query.includeDeleted === true) }),
  );

  app.post(
    '/seasons',
    {
      schema: {
        tags,
        summary: 'Create a season (number defaults to the next of the reality; activating it deactivates the others of the reality)',
        body: CreateSeasonInput,
        response: { 201: SeasonView, ...errorResponses(400, 401, 403, 409, 429) },
      },
      ...SEASON_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => reply.code(201).send(await catalog.createSeason(ctx, requireUser(request), request.body)),
  );

  app.patch(
    '/seasons/:seasonId',
    {
      schema: {
        tags,
        summary: 'Edit a season or toggle it active (activating it deactivates the others of the reality)',
        params: SeasonParams,
        body: UpdateSeasonInput,
        response: { 200: SeasonView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      ...SEASON_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.updateSeason(ctx, requireUser(request), request.params.seasonId, request.body),
  );

  app.delete(
    '/seasons/:seasonId',
    {
      schema: {
        tags,
        summary: 'Soft-delete a season: hidden and deactivated, its contestants, polls and votes kept',
        params: SeasonParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => {
      await catalog.deleteSeason(ctx, requireUser(request), request.params.seasonId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/seasons/:seasonId/restore',
    {
      schema: {
        tags,
        summary: 'Restore a soft-deleted season, inactive (409 while its reality is deleted)',
        params: SeasonParams,
        response: { 200: SeasonView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.restoreSeason(ctx, requireUser(request), request.params.seasonId),
  );

  // --- Contestants ---

  app.get(
    '/contestants',
    {
      schema: {
        tags,
        summary: 'Contestants not deleted: of one season by name, or all newest first (includeDeleted: the deleted ones and those of deleted seasons too)',
        querystring: ContestantQuery,
        response: { 200: ContestantList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => ({ contestants: await catalog.listContestants(ctx, request.query.seasonId, request.query.includeDeleted === true) }),
  );

  app.post(
    '/contestants',
    {
      schema: {
        tags,
        summary: 'Create a contestant (season and name required; photo an https or uploaded /media/ URL)',
        body: CreateContestantInput,
        response: { 201: ContestantView, ...errorResponses(400, 401, 403, 429) },
      },
      ...CONTESTANT_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => reply.code(201).send(await catalog.createContestant(ctx, requireUser(request), request.body)),
  );

  app.patch(
    '/contestants/:contestantId',
    {
      schema: {
        tags,
        summary: 'Edit a contestant (elimination date kept for eliminated/finalist/winner, final position for finalist/winner)',
        params: ContestantParams,
        body: UpdateContestantInput,
        response: { 200: ContestantView, ...errorResponses(400, 401, 403, 404, 429) },
      },
      ...CONTESTANT_FORM,
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.updateContestant(ctx, requireUser(request), request.params.contestantId, request.body),
  );

  app.delete(
    '/contestants/:contestantId',
    {
      schema: {
        tags,
        summary: 'Soft-delete a contestant: hidden from the lists, poll options and votes naming them kept',
        params: ContestantParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => {
      await catalog.deleteContestant(ctx, requireUser(request), request.params.contestantId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/contestants/:contestantId/restore',
    {
      schema: {
        tags,
        summary: 'Restore a soft-deleted contestant as it was (409 while its season or reality is deleted)',
        params: ContestantParams,
        response: { 200: ContestantView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => catalog.restoreContestant(ctx, requireUser(request), request.params.contestantId),
  );

  app.post(
    '/contestant-photos',
    {
      schema: {
        tags,
        summary: 'Upload a contestant photo (under 5 MB): re-encoded to WebP, cropped square, with a thumbnail and a placeholder',
        description:
          'multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image type is sniffed from the bytes. File: image (one).',
        consumes: ['multipart/form-data'],
        response: { 201: UploadedPhoto, ...errorResponses(400, 401, 403, 406, 413, 415, 429, 503) },
      },
      config: { rateLimit: 'admin.upload', bodyDeadline: 'upload' },
    },
    async (request, reply) => {
      const admin = requireUser(request);
      const spec = {
        fileFields: [CONTESTANT_PHOTO_FIELD],
        textFields: [],
        maxFiles: 1,
        maxFileBytes: ADMIN_LIMITS.contestantPhotoBytes,
        tooManyFilesMessage: CATALOG_MESSAGES.photoOneImage,
        fileTooLargeMessage: CATALOG_MESSAGES.photoTooLarge,
      };
      const photo = await withUploads(request, spec, ({ files }) => catalog.uploadContestantPhoto(ctx, admin, files));
      return reply.code(201).send(photo);
    },
  );
};

export default catalogRoutes;
