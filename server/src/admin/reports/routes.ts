import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { RecomputeAccepted, Report, ReportQuery } from '@tribuna/contracts/api/admin/reports';
import { REPORT_MESSAGES } from '@tribuna/contracts/reportRules';
import { badRequest, errorResponses, HttpError } from '../../http/errors.ts';
import { TimeoutError } from '../../http/timeout.ts';
import { requireUser } from '../../identity/plugin.ts';
import { QueueUnavailableError } from '../../plugins/queues.ts';
import { ReportCache } from './cache.ts';
import { getCachedReport, requestRecompute } from './service.ts';

const tags = ['admin'];

/**
 * A Desde or Hasta that is empty or not a date answers the screen's own message (the form sends
 * what the date fields hold) rather than the schema's sentence; anything else stays as it is.
 */
const DATE_FIELDS = {
  attachValidation: true,
  preHandler: async (request: FastifyRequest) => {
    const error = request.validationError as (Error & { validation?: FastifySchemaValidationError[]; validationContext?: string }) | undefined;
    if (!error) return;
    const dateField = (issue: FastifySchemaValidationError) => ['/from', '/to'].includes(issue.instancePath);
    if (error.validationContext === 'querystring' && (error.validation ?? []).every(dateField)) {
      throw badRequest(REPORT_MESSAGES.customDatesRequired);
    }
    throw error;
  },
};

const QUEUE_DOWN = 'No se pudo iniciar el recálculo; inténtalo de nuevo en unos minutos';

/** /api/admin/reports: the admin guard runs in the parent context (admin/routes.ts). */
const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const timeZone = app.config.showTimezone;
  const cache = new ReportCache();

  // '' not '/': the report is /api/admin/reports itself.
  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'Usage report of a period in SHOW_TIMEZONE, from the worker’s daily aggregates (exact distinct active users)',
        querystring: ReportQuery,
        response: { 200: Report, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
      ...DATE_FIELDS,
    },
    async (request) => getCachedReport(db, cache, request.query, timeZone),
  );

  app.post(
    '/recompute',
    {
      schema: {
        tags,
        summary: 'Recompute every day’s aggregates (a worker job; repeated requests join the pending one)',
        response: { 202: RecomputeAccepted, ...errorResponses(401, 403, 429, 503) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => {
      const admin = requireUser(request);
      try {
        const accepted = await requestRecompute({ db, enqueue: app.enqueue, queue: app.queues.maintenance }, admin.id);
        return reply.code(202).send(accepted);
      } catch (err) {
        if (err instanceof QueueUnavailableError || err instanceof TimeoutError) throw new HttpError(503, QUEUE_DOWN);
        throw err;
      }
    },
  );
};

export default reportRoutes;
