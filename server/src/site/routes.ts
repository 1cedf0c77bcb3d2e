import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SiteConfig } from '@tribuna/contracts/api/site';
import { errorResponses } from '../http/errors.ts';
import { presentSiteConfig } from './presenter.ts';

const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const site = presentSiteConfig(app.config);
  app.get(
    '/api/site',
    {
      schema: { tags: ['site'], summary: 'Public site settings', response: { 200: SiteConfig, ...errorResponses(429) } },
      config: { rateLimit: 'site.read' },
    },
    async () => site,
  );
};

export default siteRoutes;
