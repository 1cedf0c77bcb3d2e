import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { POLL_ROUTES } from '@tribuna/contracts/api/polls';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { notFound, tooManyRequests } from '../http/errors.ts';
import { serve } from '../http/serve.ts';
import { sharedPollId } from '../polls/service.ts';
import { PollCardCache } from './cardCache.ts';
import { postPreviewTags, sharePreviewTags, type PreviewSources } from './service.ts';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { Type } from '@sinclair/typebox';

/** The id of a shared link (`?encuesta=`, `?post=`); repeated, the first counts; anything else gets the plain page. */
const SharedId = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
import { TOO_MANY_REQUESTS_MESSAGE } from '@tribuna/contracts/httpMessages';

/**
 * The home page. A shared link (`/?encuesta=<pollId>`) of a public poll gets its Open Graph and
 * Twitter card tags in index.html, so chat apps and social networks show the poll and its current
 * result (its share card); everything else is the plain SPA page. Beyond the 'og.preview' limit (a
 * degrading one) the plain page is served too: the SPA shows the shared poll all the same, and a
 * crawler gets the site's own preview rather than none.
 */
const openGraphRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sources: PreviewSources = {
    polls: app.pollCache,
    live: app.pollsLive.store,
    publicUrl: app.config.publicUrl,
    log: app.log,
    reader: poolRunner(app.database.sql),
  };
  const cards = new PollCardCache({ ...sources, mediaDir: app.config.mediaDir });

  /**
   * An SPA page whose shared link (`?<param>=<id>`) gets preview tags for crawlers; the page must
   * load even when the preview cannot be built (PostgreSQL down), and beyond 'og.preview' it is the
   * plain page.
   */
  const previewPage = (url: string, param: string, tagsOf: (id: string) => Promise<string | null>) =>
    app.get(url, { schema: { hide: true, querystring: Type.Object({ [param]: SharedId }) }, config: { rateLimit: 'og.preview' } }, async (request, reply) => {
      const id = sharedPollId((request.query as Record<string, string | string[] | undefined>)[param]);
      if (!id || request.rateLimited) return reply.sendSpaIndex();
      let tags: string | null = null;
      try {
        tags = await tagsOf(id);
      } catch (err) {
        request.log.warn({ err, url }, 'link preview unavailable');
      }
      return reply.sendSpaIndex(tags ?? undefined);
    });

  previewPage('/', 'encuesta', (pollId) => sharePreviewTags(sources, pollId));
  // A shared post (`/wall?post=<id>`, the link the notifications use); the SPA itself (the wall,
  // behind sign-in) is the same page for everybody.
  previewPage('/wall', 'post', (postId) => postPreviewTags(sources, postId));

  serve(app, POLL_ROUTES.pollCard, async (request, reply) => {
    // Beyond the limit a card already drawn is still served, whatever its age; none is drawn.
    const card = request.rateLimited ? await cards.cached(request.params.pollId) : await cards.get(request.params.pollId);
    if (!card) throw request.rateLimited ? tooManyRequests(TOO_MANY_REQUESTS_MESSAGE) : notFound(VOTE_MESSAGES.pollNotFound);
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=30').header('content-disposition', 'inline').send(card.png);
  });
};

export default openGraphRoutes;
