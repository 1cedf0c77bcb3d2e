import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { ADMIN_CATALOG_ROUTES } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest } from '../../http/errors.ts';
import { serve } from '../../http/serve.ts';
import { withUploads } from '../../media/uploads.ts';
import { requireUser } from '../../identity/plugin.ts';
import { CATALOG_MESSAGES } from './rules.ts';
import * as catalog from './service.ts';

/** The multipart field of POST /api/admin/contestant-photos. */
export const CONTESTANT_PHOTO_FIELD = 'image';

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

  serve(app, ADMIN_CATALOG_ROUTES.adminRealities, async (request) => ({
    realities: await catalog.listRealities(ctx, request.query.includeDeleted === true),
  }));

  serve(
    app,
    ADMIN_CATALOG_ROUTES.createReality,
    async (request, reply) => reply.code(201).send(await catalog.createReality(ctx, requireUser(request), request.body)),
    REALITY_FORM,
  );

  serve(
    app,
    ADMIN_CATALOG_ROUTES.updateReality,
    async (request) => catalog.updateReality(ctx, requireUser(request), request.params.realityId, request.body),
    REALITY_FORM,
  );

  serve(app, ADMIN_CATALOG_ROUTES.deleteReality, async (request, reply) => {
    await catalog.deleteReality(ctx, requireUser(request), request.params.realityId);
    return reply.code(204).send(null);
  });

  serve(app, ADMIN_CATALOG_ROUTES.restoreReality, async (request) => catalog.restoreReality(ctx, requireUser(request), request.params.realityId));

  // --- Seasons ---

  serve(app, ADMIN_CATALOG_ROUTES.adminSeasons, async (request) => ({
    seasons: await catalog.listSeasons(ctx, request.query.realityId, request.query.includeDeleted === true),
  }));

  serve(
    app,
    ADMIN_CATALOG_ROUTES.createSeason,
    async (request, reply) => reply.code(201).send(await catalog.createSeason(ctx, requireUser(request), request.body)),
    SEASON_FORM,
  );

  serve(
    app,
    ADMIN_CATALOG_ROUTES.updateSeason,
    async (request) => catalog.updateSeason(ctx, requireUser(request), request.params.seasonId, request.body),
    SEASON_FORM,
  );

  serve(app, ADMIN_CATALOG_ROUTES.deleteSeason, async (request, reply) => {
    await catalog.deleteSeason(ctx, requireUser(request), request.params.seasonId);
    return reply.code(204).send(null);
  });

  serve(app, ADMIN_CATALOG_ROUTES.restoreSeason, async (request) => catalog.restoreSeason(ctx, requireUser(request), request.params.seasonId));

  // --- Contestants ---

  serve(app, ADMIN_CATALOG_ROUTES.adminContestants, async (request) => ({
    contestants: await catalog.listContestants(ctx, request.query.seasonId, request.query.includeDeleted === true),
  }));

  serve(
    app,
    ADMIN_CATALOG_ROUTES.createContestant,
    async (request, reply) => reply.code(201).send(await catalog.createContestant(ctx, requireUser(request), request.body)),
    CONTESTANT_FORM,
  );

  serve(
    app,
    ADMIN_CATALOG_ROUTES.updateContestant,
    async (request) => catalog.updateContestant(ctx, requireUser(request), request.params.contestantId, request.body),
    CONTESTANT_FORM,
  );

  serve(app, ADMIN_CATALOG_ROUTES.deleteContestant, async (request, reply) => {
    await catalog.deleteContestant(ctx, requireUser(request), request.params.contestantId);
    return reply.code(204).send(null);
  });

  serve(app, ADMIN_CATALOG_ROUTES.restoreContestant, async (request) => catalog.restoreContestant(ctx, requireUser(request), request.params.contestantId));

  serve(
    app,
    ADMIN_CATALOG_ROUTES.uploadContestantPhoto,
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
    { config: { bodyDeadline: 'upload' } },
  );
};

export default catalogRoutes;
