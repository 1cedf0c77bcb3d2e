import type { Config } from '@tribuna/contracts/config';
import type { SiteConfig } from '@tribuna/contracts/api/site';

/** Only the settings a visitor may see; nothing secret leaves the config. */
export function presentSiteConfig(config: Config): SiteConfig {
  return {
    contactEmail: config.contactEmail,
    devLogin: config.devLogin,
    social: { ...config.social },
  };
}
