import { CloseButton } from './CloseButton';
import { DownloadIcon } from './icons';
import { useNavBarVisible } from '../lib/navVisibility';
import { useInstallBanner } from '../lib/pwa/useInstallBanner';

/** Invites the visitor to install the app (see useInstallBanner for when it shows). */
export function InstallBanner() {
  const { visible, install, dismiss } = useInstallBanner();
  const aboveTabBar = useNavBarVisible();
  if (!visible) return null;

  return (
    <aside
      aria-labelledby="install-banner-title"
      className={`fixed inset-x-3 z-30 flex items-center gap-3 rounded-2xl bg-white p-4 shadow-2xl ring-1 ring-black/5 md:inset-x-auto md:right-6 md:bottom-6 md:w-[26rem] dark:bg-ink-800 dark:ring-white/10 ${
        aboveTabBar ? 'bottom-[calc(5rem+env(safe-area-inset-bottom))]' : 'bottom-[calc(1rem+env(safe-area-inset-bottom))]'
      }`}
    >
      <img src="/icon.svg" alt="" className="size-12 shrink-0 rounded-xl" />
      <div className="min-w-0 flex-1">
        <p id="install-banner-title" className="font-bold">
          Instala Tribuna en tu dispositivo
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">Vota más rápido y sigue los resultados desde tu pantalla de inicio.</p>
      </div>
      <button
        type="button"
        onClick={() => void install()}
        className="brand-gradient inline-flex shrink-0 items-center gap-1.5 rounded-full px-4 py-2 text-sm font-bold text-white shadow-md"
      >
        <DownloadIcon className="size-4" />
        Instalar
      </button>
      <CloseButton
        onClick={dismiss}
        label="Cerrar y no volver a mostrar"
        className="absolute -top-2 -right-2 size-8 bg-slate-200 text-slate-600 shadow hover:bg-slate-300 dark:bg-ink-700 dark:text-slate-300 dark:hover:bg-ink-700/80"
        iconClassName="size-4"
      />
    </aside>
  );
}
