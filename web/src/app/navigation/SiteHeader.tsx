import { Link } from 'react-router-dom';
import { useSessionStore } from '../../lib/session/sessionStore';
import { ThemeToggle } from '../../components/ThemeToggle';

interface SiteHeaderProps {
  /** Home: signed-in users keep the brand line on phones, where the tab bar has no brand. */
  brandForUsersOnPhones?: boolean;
}

/**
 * The header of the pages a visitor can open (home, a shared profile, the legal pages): the brand
 * as a link home, the theme toggle and 'Iniciar sesión'. Visitors get no navigation bar, so without
 * it a shared link opened on a phone would be a dead end. Signed-in users have the navigation bar
 * instead. While the session loads only the brand shows (the actions would be a guess).
 */
export function SiteHeader({ brandForUsersOnPhones = false }: SiteHeaderProps) {
  const signedIn = useSessionStore((state) => state.user !== null);
  const sessionReady = useSessionStore((state) => state.status === 'ready');
  if (signedIn && !brandForUsersOnPhones) return null;

  return (
    <header className={`mx-auto flex w-full max-w-3xl items-center justify-between gap-3 px-4 pt-5 pb-3 ${signedIn ? 'md:hidden' : ''}`}>
      <Link to="/" className="brand-text text-3xl font-black tracking-tight">
        Tribuna
      </Link>
      {sessionReady && !signedIn && (
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <Link
            to="/login"
            className="rounded-full bg-slate-900 px-4 py-2 text-sm font-bold whitespace-nowrap text-white transition hover:bg-slate-700 dark:bg-white dark:text-ink-950 dark:hover:bg-slate-200"
          >
            Iniciar sesión
          </Link>
        </div>
      )}
    </header>
  );
}
