import type { ComponentType, SVGProps } from 'react';
import type { SiteConfig } from '@tribuna/contracts/api/site';
import { FacebookIcon, InstagramIcon, TikTokIcon, WhatsAppIcon, XIcon } from './icons';
import { useSiteConfig } from '../lib/siteStore';

type Network = keyof SiteConfig['social'];

const NETWORKS: ReadonlyArray<{ key: Network; label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }> = [
  { key: 'facebook', label: 'Síguenos en Facebook', icon: FacebookIcon },
  { key: 'instagram', label: 'Síguenos en Instagram', icon: InstagramIcon },
  { key: 'tiktok', label: 'Síguenos en TikTok', icon: TikTokIcon },
  { key: 'x', label: 'Síguenos en X', icon: XIcon },
];

/** Only web links are rendered: a misconfigured value must never become a javascript: link. */
export function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The messaging group and social networks that are configured; nothing when none is. */
export function SocialLinks() {
  const config = useSiteConfig();
  if (!config) return null;
  const whatsapp = safeUrl(config.social.whatsapp);
  const networks = NETWORKS.flatMap((network) => {
    const href = safeUrl(config.social[network.key]);
    return href ? [{ ...network, href }] : [];
  });
  if (!whatsapp && networks.length === 0) return null;

  return (
    <section aria-labelledby="social-title" className="flex flex-col items-center gap-4 text-center">
      <h2 id="social-title" className="text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        Únete a la comunidad
      </h2>
      {whatsapp && (
        <a
          href={whatsapp}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-2 rounded-full bg-emerald-700 px-5 py-3 font-semibold text-white shadow-lg shadow-emerald-700/25 transition hover:bg-emerald-800"
        >
          <WhatsAppIcon className="size-5" />
          Únete a nuestro grupo de WhatsApp
        </a>
      )}
      {networks.length > 0 && (
        <ul className="flex items-center gap-3">
          {networks.map(({ key, label, href, icon: NetworkIcon }) => (
            <li key={key}>
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={label}
                title={label}
                className="inline-flex size-11 items-center justify-center rounded-full bg-slate-200/70 text-slate-700 transition hover:bg-fuchsia-600 hover:text-white dark:bg-white/10 dark:text-slate-200 dark:hover:bg-fuchsia-500"
              >
                <NetworkIcon className="size-5" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
