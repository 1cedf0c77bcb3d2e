import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HomePollQuery } from '../polls/schemas.ts';
import { sharedPollId } from '../polls/service.ts';
import { sharePreviewTags, type PreviewSources } from './service.ts';

/**
 * The home page. A shared link (`/?encuesta=<pollId>`) of a public poll gets its Open Graph and
 * Twitter card tags in index.html, so chat apps and social networks show the poll and its leader;
 * everything else is the plain SPA page. Beyond the 'og.preview' limit (a degrading one) the plain
 * page is served too: the SPA shows the shared poll all the same, and a crawler gets the site's
 * own preview rather than none.
 */
const openGraphRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sources: PreviewSources = { polls: app.pollCache, live: app.pollsLive.store, publicUrl: app.config.publicUrl, log: app.log };

  app.get('/', { schema: { hide: true, querystring: HomePollQuery }, config: { rateLimit: 'og.preview' } }, async (request, reply) => {
    const pollId = sharedPollId(request.query.encuesta);
    if (!pollId || request.rateLimited) return reply.sendSpaIndex();
    let tags: string | null = null;
    try {
      tags = await sharePreviewTags(sources, pollId);
    } catch (err) {
      // The page must load even when the preview cannot be built (PostgreSQL down).
      request.log.warn({ err }, 'share preview unavailable');
    }
    return reply.sendSpaIndex(tags ?? undefined);
  });
};

export default openGraphRoutes;
