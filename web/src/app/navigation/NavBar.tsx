import type { ComponentType, SVGProps } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { BellIcon, HomeIcon, UsersIcon, WallIcon } from '../../components/icons';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useUnreadStore, unreadSuffix } from '../../features/notifications/unreadStore';
import { useNotificationsLive } from '../../features/notifications/useNotificationsLive';
import { ThemeToggle } from '../../components/ThemeToggle';
import { UnreadBadge } from './UnreadBadge';
import { UserMenu } from './UserMenu';
import { useNavBarVisible } from '../../lib/navVisibility';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex flex-1 flex-col items-center gap-0.5 py-2 text-[11px] font-medium transition ${
    isActive ? 'text-fuchsia-600 dark:text-fuchsia-400' : 'text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white'
  }`;

const barLinkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex items-center gap-2 rounded-full px-3 py-2 text-sm font-semibold transition ${
    isActive
      ? 'bg-fuchsia-600/10 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300'
      : 'text-slate-600 hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10'
  }`;

interface LinkProps {
  to: string;
  label: string;
  icon: Icon;
  end?: boolean;
  /** Unread entries to show on the icon (the notifications link); its name then says how many. */
  unread?: number;
}

/**
 * How many are unread, for screen readers only, after the visible label: the link's name reads
 * 'Avisos, 3 sin leer' and still starts with (and contains) its visible text, as voice control
 * expects (an aria-label would hide the visible text from that check).
 */
function UnreadSuffix({ count }: { count: number }) {
  return count > 0 ? <span className="sr-only">{unreadSuffix(count)}</span> : null;
}

function Tab({ to, label, icon: TabIcon, end, unread = 0 }: LinkProps) {
  return (
    <NavLink to={to} end={end} className={tabClass}>
      <span className="relative">
        <TabIcon className="size-6" />
        <UnreadBadge count={unread} className="-top-1.5 left-3.5" />
      </span>
      <span>{label}</span>
      <UnreadSuffix count={unread} />
    </NavLink>
  );
}

function BarLink({ to, label, icon: LinkIcon, end, unread = 0 }: LinkProps) {
  return (
    <NavLink to={to} end={end} className={barLinkClass}>
      <span className="relative">
        <LinkIcon className="size-5" />
        <UnreadBadge count={unread} className="-top-2.5 left-1.5" />
      </span>
      <span>{label}</span>
      <UnreadSuffix count={unread} />
    </NavLink>
  );
}

/**
 * Signed-in navigation. Below md: a bottom tab bar; from md: a top bar with the brand.
 * Active links carry aria-current="page" (NavLink sets it).
 */
export function NavBar() {
  const user = useSessionStore((state) => state.user);
  const visible = useNavBarVisible();
  // The badge stays live on every page while signed in, the back-office included.
  useNotificationsLive();
  const unread = useUnreadStore((state) => state.count);
  if (!visible || !user) return null;

  return (
    <>
      <header className="sticky top-0 z-40 hidden border-b border-slate-200/80 bg-white/80 backdrop-blur-lg md:block dark:border-white/10 dark:bg-ink-950/80">
        <nav aria-label="Navegación principal" className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-6">
          <Link to="/" className="brand-text mr-4 text-2xl font-black tracking-tight">
            Tribuna
          </Link>
          <BarLink to="/" end label="Home" icon={HomeIcon} />
          <BarLink to="/wall" label="Muro" icon={WallIcon} />
          <BarLink to="/grupos" label="Grupos" icon={UsersIcon} />
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle variant="pill" />
            <BarLink to="/notificaciones" label="Notificaciones" icon={BellIcon} unread={unread} />
            <UserMenu user={user} variant="bar" />
          </div>
        </nav>
      </header>

      <nav
        aria-label="Navegación principal"
        className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200/80 bg-white/90 pb-[env(safe-area-inset-bottom)] backdrop-blur-lg md:hidden dark:border-white/10 dark:bg-ink-950/90"
      >
        <div className="mx-auto flex max-w-lg items-stretch">
          <Tab to="/" end label="Home" icon={HomeIcon} />
          <Tab to="/wall" label="Muro" icon={WallIcon} />
          <Tab to="/grupos" label="Grupos" icon={UsersIcon} />
          <ThemeToggle
            variant="tab"
            className="flex flex-1 flex-col items-center gap-0.5 py-2 text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
          />
          <Tab to="/notificaciones" label="Avisos" icon={BellIcon} unread={unread} />
          <UserMenu user={user} variant="tab" />
        </div>
      </nav>
    </>
  );
}
