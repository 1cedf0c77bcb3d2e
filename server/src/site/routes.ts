import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SITE_ROUTES } from '@tribuna/contracts/api/site';
import { serve } from '../http/serve.ts';
import { presentSiteConfig } from './presenter.ts';

const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const site = presentSiteConfig(app.config);
  serve(app, SITE_ROUTES.site, async () => site);
};

export default siteRoutes;
