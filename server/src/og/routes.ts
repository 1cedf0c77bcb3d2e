import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HomePollQuery } from '../polls/schemas.ts';
import { sharedPollId } from '../polls/service.ts';
import { sharePreviewTags } from './service.ts';

/**
 * The home page. A shared link (`/?encuesta=<pollId>`) of a public poll gets its Open Graph and
 * Twitter card tags in index.html, so chat apps and social networks show the poll and its leader;
 * everything else is the plain SPA page.
 */
const openGraphRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true, querystring: HomePollQuery } }, async (request, reply) => {
    const pollId = sharedPollId(request.query.encuesta);
    if (!pollId) return reply.sendSpaIndex();
    let tags: string | null = null;
    try {
      tags = await sharePreviewTags(app.database.db, app.config.publicUrl, pollId);
    } catch (err) {
      // The page must load even when the preview cannot be built (PostgreSQL down).
      request.log.warn({ err }, 'share preview unavailable');
    }
    return reply.sendSpaIndex(tags ?? undefined);
  });
};

export default openGraphRoutes;
