import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { ADMIN_REPORT_ROUTES } from '@tribuna/contracts/api/admin/reports';
import { REPORT_MESSAGES } from '@tribuna/contracts/reportRules';
import { badRequest, HttpError } from '../../http/errors.ts';
import { serve } from '../../http/serve.ts';
import { TimeoutError } from '../../http/timeout.ts';
import { requireUser } from '../../identity/plugin.ts';
import { QueueUnavailableError } from '../../plugins/queues.ts';
import { ReportCache } from './cache.ts';
import { getCachedReport, requestRecompute } from './service.ts';

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

  serve(app, ADMIN_REPORT_ROUTES.adminReport, async (request) => getCachedReport(db, cache, request.query, timeZone), DATE_FIELDS);

  serve(app, ADMIN_REPORT_ROUTES.recomputeReports, async (request, reply) => {
    const admin = requireUser(request);
    try {
      const accepted = await requestRecompute({ db, enqueue: app.enqueue, queue: app.queues.maintenance }, admin.id);
      return reply.code(202).send(accepted);
    } catch (err) {
      if (err instanceof QueueUnavailableError || err instanceof TimeoutError) throw new HttpError(503, QUEUE_DOWN);
      throw err;
    }
  });
};

export default reportRoutes;
