import { Link } from 'react-router-dom';
import { useSessionStore } from '../auth/sessionStore';
import { ThemeToggle } from '../theme/ThemeToggle';

/**
 * The brand line on the home page. Visitors (who get no navigation bar) also find the theme
 * toggle and a way to sign in; signed-in users see it on mobile only, where the tab bar has no brand.
 */
export function HomeHeader() {
  const signedIn = useSessionStore((state) => state.user !== null);
  const sessionReady = useSessionStore((state) => state.status === 'ready');

  return (
    <header className={`mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 pt-5 ${signedIn ? 'md:hidden' : ''}`}>
      <Link to="/" className="brand-text text-3xl font-black tracking-tight">
        Tribuna
      </Link>
      {sessionReady && !signedIn && (
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <Link
            to="/login"
            className="rounded-full bg-slate-900 px-4 py-2 text-sm font-bold text-white transition hover:bg-slate-700 dark:bg-white dark:text-ink-950 dark:hover:bg-slate-200"
          >
            Iniciar sesión
          </Link>
        </div>
      )}
    </header>
  );
}
