import { useEffect, useRef, useState, type ComponentType, type SVGProps } from 'react';
import type { Poll } from '@tribuna/contracts/api/polls';
import { CheckIcon, CopyIcon, FacebookIcon, ShareIcon, TelegramIcon, WhatsAppIcon, XIcon } from '../../../components/icons';
import { copyText, platformShareUrl, pollShareLink, shareText, type LinkPlatform } from './shareLinks';
import { CLOSED_POLL_SHARED, useShareReward } from './useShareReward';

const NETWORKS: ReadonlyArray<{ platform: LinkPlatform; label: string; icon: ComponentType<SVGProps<SVGSVGElement>>; className: string }> = [
  { platform: 'whatsapp', label: 'WhatsApp', icon: WhatsAppIcon, className: 'bg-emerald-700 text-white hover:bg-emerald-800' },
  { platform: 'facebook', label: 'Facebook', icon: FacebookIcon, className: 'bg-blue-600 text-white hover:bg-blue-700' },
  { platform: 'x', label: 'X', icon: XIcon, className: 'bg-black text-white hover:bg-slate-800 dark:bg-white dark:text-black dark:hover:bg-slate-200' },
  { platform: 'telegram', label: 'Telegram', icon: TelegramIcon, className: 'bg-sky-700 text-white hover:bg-sky-800' },
];

const COPIED_MS = 2000;
const buttonBase = 'inline-flex min-h-12 items-center justify-center gap-2 rounded-2xl px-4 py-3 text-sm font-bold transition';

interface ShareButtonsProps {
  poll: Pick<Poll, 'id' | 'title' | 'pointsConfig' | 'status'>;
  signedIn: boolean;
}

/**
 * Share the poll: the device's share sheet where there is one, the networks' share pages, and
 * copy link. A signed-in user's share is recorded for the daily bonus (only an active poll's pays).
 */
export function ShareButtons({ poll, signedIn }: ShareButtonsProps) {
  const { toast, reward } = useShareReward(poll.id, signedIn);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const link = pollShareLink(poll.id);
  const text = shareText(poll.title);
  const canNativeShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const bonus = poll.pointsConfig.bonusForSharing;

  useEffect(
    () => () => {
      if (copiedTimer.current) clearTimeout(copiedTimer.current);
    },
    [],
  );

  async function nativeShare() {
    try {
      await navigator.share({ title: poll.title, text, url: link });
    } catch (error) {
      // The user closed the share sheet: nothing was shared.
      if (!(error instanceof DOMException && error.name === 'AbortError')) console.debug('No se pudo compartir', error);
      return;
    }
    void reward('native');
  }

  async function copyLink() {
    try {
      await copyText(link);
    } catch (error) {
      console.debug('No se pudo copiar el enlace', error);
      return;
    }
    setCopied(true);
    if (copiedTimer.current) clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
    void reward('copy');
  }

  return (
    <section aria-labelledby="share-title" className="space-y-3">
      <div>
        <h2 id="share-title" className="text-lg font-extrabold">
          Comparte la encuesta
        </h2>
        {signedIn && poll.status === 'active' && bonus > 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Gana {bonus} {bonus === 1 ? 'punto' : 'puntos'} al compartir, una vez al día.
          </p>
        )}
        {signedIn && poll.status === 'closed' && bonus > 0 && <p className="text-sm text-slate-600 dark:text-slate-400">{CLOSED_POLL_SHARED}</p>}
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        {canNativeShare && (
          <button type="button" onClick={nativeShare} className={`${buttonBase} brand-gradient col-span-2 text-white hover:brightness-110`}>
            <ShareIcon className="size-5" />
            Compartir
          </button>
        )}
        {NETWORKS.map(({ platform, label, icon: NetworkIcon, className }) => (
          <a
            key={platform}
            href={platformShareUrl(platform, link, text)}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => void reward(platform)}
            className={`${buttonBase} ${className}`}
          >
            <NetworkIcon className="size-5" />
            {label}
          </a>
        ))}
        <button
          type="button"
          onClick={copyLink}
          className={`${buttonBase} col-span-2 bg-slate-200 text-slate-900 hover:bg-slate-300 dark:bg-white/10 dark:text-white dark:hover:bg-white/20`}
        >
          {copied ? <CheckIcon className="size-5" /> : <CopyIcon className="size-5" />}
          {copied ? '¡Enlace copiado!' : 'Copiar enlace'}
        </button>
      </div>
      <div
        role="status"
        className="pointer-events-none fixed inset-x-0 bottom-[calc(5.5rem+env(safe-area-inset-bottom))] z-40 flex justify-center px-4 md:bottom-6"
      >
        {toast && (
          <p
            className={`pointer-events-auto rounded-full px-5 py-3 text-sm font-bold shadow-xl ${
              toast.tone === 'success' ? 'bg-emerald-600 text-white' : 'bg-slate-900 text-white dark:bg-white dark:text-ink-950'
            }`}
          >
            {toast.text}
          </p>
        )}
      </div>
    </section>
  );
}
