import { Type, type Static } from '@sinclair/typebox';

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
