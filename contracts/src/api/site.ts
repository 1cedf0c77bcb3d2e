import { Type, type Static } from '@sinclair/typebox';
import { defineRoutes } from '../route.ts';

const NullableUrl = Type.Union([Type.String(), Type.Null()]);

/** Public, runtime-configurable site settings (footer, legal pages, social links). */
export const SiteConfig = Type.Object({
  contactEmail: Type.String(),
  devLogin: Type.Boolean(),
  social: Type.Object({
    whatsapp: NullableUrl,
    facebook: NullableUrl,
    instagram: NullableUrl,
    tiktok: NullableUrl,
    x: NullableUrl,
  }),
});
export type SiteConfig = Static<typeof SiteConfig>;

export const SITE_ROUTES = defineRoutes({
  site: {
    method: 'GET',
    path: '/api/site',
    status: 200,
    tags: ['site'],
    summary: 'Public site settings',
    response: SiteConfig,
    errors: [429],
    rateLimit: 'site.read',
  },
});
