import { Suspense, useCallback, useEffect, useId, useRef, useState, type ComponentType, type KeyboardEvent, type SVGProps } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { ADMIN_EXTRA_NAV, ADMIN_NAV } from '@tribuna/contracts/adminRules';
import { Avatar } from '../../components/Avatar';
import { ClockIcon, CloseIcon, HomeIcon, LogoutIcon, ShieldIcon } from '../../components/icons';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useSignOut } from '../../lib/session/useSignOut';
import { ThemeToggle } from '../../components/ThemeToggle';
import { ListSkeleton } from '../../components/admin/Skeletons';
import { MODERATION_QUEUE_TEXTS } from '@tribuna/contracts/moderationRules';
import { CalendarIcon, ChartIcon, FlagIcon, GridIcon, MenuIcon, PeopleIcon, ReportIcon, ShieldAlertIcon, StarIcon, TvIcon } from './icons';
import { useModerationCount } from './moderation/useModerationCount';
import { MODERATION_PATH, seesWholeBackOffice } from './staffAccess';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const NAV_ICONS: Record<(typeof ADMIN_NAV)[number]['path'], Icon> = {
  '/admin': GridIcon,
  '/admin/realitys': TvIcon,
  '/admin/temporadas': CalendarIcon,
  '/admin/concursantes': StarIcon,
  '/admin/encuestas': ChartIcon,
  '/admin/informes': ReportIcon,
  '/admin/usuarios': PeopleIcon,
  '/admin/abuse-report': ShieldAlertIcon,
};

const EXTRA_NAV_ICONS: Record<(typeof ADMIN_EXTRA_NAV)[number]['path'], Icon> = {
  '/admin/moderacion': FlagIcon,
  '/admin/auditoria': ShieldIcon,
  '/admin/colas': ClockIcon,
};

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-sm font-semibold transition ${
    isActive
      ? 'bg-fuchsia-600/10 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300'
      : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-white/10 dark:hover:text-white'
  }`;

const footerItemClass =
  'flex min-h-11 w-full items-center gap-3 rounded-xl px-3 py-2 text-left text-sm font-semibold text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-white/10 dark:hover:text-white';

/** The moderation queue's open count beside its entry; screen readers hear it in the entry's name. */
function PendingBadge({ count }: { count: number | null }) {
  if (!count) return null;
  return (
    <span
      aria-hidden="true"
      className="ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-rose-600 px-1.5 py-0.5 text-xs font-bold text-white tabular-nums"
    >
      {count.toLocaleString('es')}
    </span>
  );
}

/** 'Moderación 3 pendientes': the entry's name with its count (its visible text first), or its label alone. */
const pendingName = (label: string, count: number | null) => (count ? `${label} ${MODERATION_QUEUE_TEXTS.pending(count)}` : undefined);

/**
 * The back-office shell (spec §2): a sidebar with the 8 entries (then Moderación, with its live count,
 * Auditoría and Colas), the admin's name, 'Volver al inicio' and 'Cerrar sesión'; a header titled
 * 'Administración'; the screen (a lazy chunk) beside them. A moderator sees only Moderación.
 * Below md the sidebar is off-screen and slides in from the menu button as a modal panel: focus
 * moves into it and stays there, Escape or the overlay closes it, focus goes back to the button.
 */
export function AdminLayout() {
  const user = useSessionStore((state) => state.user);
  const email = useSessionStore((state) => state.email);
  const signOut = useSignOut();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const sidebarRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const sidebarId = useId();
  const name = user ? displayNameOf(user) : 'Administrador';
  const wholeBackOffice = seesWholeBackOffice(user?.role);
  const extraNav = wholeBackOffice ? ADMIN_EXTRA_NAV : ADMIN_EXTRA_NAV.filter((entry) => entry.path === MODERATION_PATH);
  const pending = useModerationCount(true);

  const close = useCallback((restoreFocus = true) => {
    setOpen(false);
    if (restoreFocus) menuButtonRef.current?.focus();
  }, []);

  // Following a link closes the panel (the new screen takes the focus flow from there), as the new
  // route renders.
  const [shownOn, setShownOn] = useState(pathname);
  if (shownOn !== pathname) {
    setShownOn(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const sidebar = sidebarRef.current;
    const focusFirst = () => sidebar?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    focusFirst();
    // Should the browser not take the focus yet (the panel still counted as hidden), try on the next frame.
    const frame = sidebar?.contains(document.activeElement) ? 0 : requestAnimationFrame(focusFirst);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      close();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
    };
  }, [open, close]);

  /** Tab and Shift+Tab cycle inside the open panel. */
  function onSidebarKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!open || event.key !== 'Tab') return;
    const focusables = Array.from(sidebarRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="md:flex md:min-h-dvh">
      {open && (
        <div data-testid="admin-overlay" aria-hidden="true" onClick={() => close()} className="fixed inset-0 z-40 bg-black/60 backdrop-blur-sm md:hidden" />
      )}

      {/* A div, not an aside: <aside> may not take role="dialog" while the phone panel is open. */}
      <div
        ref={sidebarRef}
        id={sidebarId}
        aria-label="Menú de administración"
        role={open ? 'dialog' : 'complementary'}
        aria-modal={open || undefined}
        data-state={open ? 'open' : 'closed'}
        onKeyDown={onSidebarKeyDown}
        className={`fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-slate-200 bg-white shadow-2xl duration-200 md:sticky md:top-0 md:z-auto md:h-dvh md:w-64 md:translate-x-0 md:shadow-none md:visible dark:border-white/10 dark:bg-ink-900 ${
          // Opening shows the panel at once (so it can take the focus) and slides it in; closing
          // slides it out and hides it (from the keyboard and screen readers too) once out of sight.
          open ? 'visible translate-x-0 transition-[translate]' : 'invisible -translate-x-full transition-[translate,visibility]'
        }`}
      >
        <div className="flex items-start gap-3 border-b border-slate-200 px-4 py-4 dark:border-white/10">
          <Avatar name={name} src={user?.avatarUrl ?? null} />
          <div className="min-w-0 flex-1">
            <p className="truncate font-bold">{name}</p>
            {email ? (
              <p className="truncate text-sm text-slate-500 dark:text-slate-400">{email}</p>
            ) : (
              user?.username && <p className="truncate text-sm text-slate-500 dark:text-slate-400">@{user.username}</p>
            )}
            <p className="mt-1 text-xs font-semibold tracking-wide text-fuchsia-700 uppercase dark:text-fuchsia-300">
              {wholeBackOffice ? 'Administrador' : 'Moderador'}
            </p>
          </div>
          <button
            type="button"
            onClick={() => close()}
            aria-label="Cerrar menú"
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 md:hidden dark:text-slate-400 dark:hover:bg-white/10"
          >
            <CloseIcon className="size-5" />
          </button>
        </div>

        <nav aria-label="Secciones de administración" className="flex-1 overflow-y-auto px-3 py-4">
          {wholeBackOffice && (
            <ul className="mb-3 space-y-1 border-b border-slate-200 pb-3 dark:border-white/10">
              {ADMIN_NAV.map((entry) => {
                const EntryIcon = NAV_ICONS[entry.path];
                return (
                  <li key={entry.path}>
                    <NavLink to={entry.path} end={entry.path === '/admin'} className={navLinkClass}>
                      <EntryIcon className="size-5 shrink-0" />
                      {entry.label}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          )}
          {/* Beyond the spec's 8 entries: the moderation queue, the audit log and the worker's queues. */}
          <ul className="space-y-1">
            {extraNav.map((entry) => {
              const EntryIcon = EXTRA_NAV_ICONS[entry.path];
              return (
                <li key={entry.path}>
                  <NavLink to={entry.path} aria-label={entry.path === MODERATION_PATH ? pendingName(entry.label, pending) : undefined} className={navLinkClass}>
                    <EntryIcon className="size-5 shrink-0" />
                    {entry.label}
                    {/* The space keeps the badge's figure a word apart in the text (the name says '… 3 pendientes'). */}
                    {entry.path === MODERATION_PATH && pending ? ' ' : null}
                    {entry.path === MODERATION_PATH && <PendingBadge count={pending} />}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="space-y-1 border-t border-slate-200 px-3 py-3 dark:border-white/10">
          <Link to="/" className={footerItemClass}>
            <HomeIcon className="size-5 shrink-0" />
            Volver al inicio
          </Link>
          <button type="button" onClick={() => void signOut()} className={footerItemClass}>
            <LogoutIcon className="size-5 shrink-0" />
            Cerrar sesión
          </button>
        </div>
      </div>

      <div className="min-w-0 flex-1">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-slate-200/80 bg-white/85 px-3 backdrop-blur-lg sm:px-6 dark:border-white/10 dark:bg-ink-950/85">
          <button
            ref={menuButtonRef}
            type="button"
            onClick={() => setOpen(true)}
            aria-label="Abrir menú"
            aria-controls={sidebarId}
            aria-expanded={open}
            className="relative inline-flex size-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-200/70 md:hidden dark:text-slate-200 dark:hover:bg-white/10"
          >
            <MenuIcon className="size-6" />
            {/* Reports waiting: a dot on the phone's menu button (the count is on the entry inside). */}
            {pending ? (
              <span
                aria-hidden="true"
                data-testid="pending-dot"
                className="absolute top-2 right-2 size-2.5 rounded-full bg-rose-600 ring-2 ring-white dark:ring-ink-950"
              />
            ) : null}
          </button>
          <h1 className="text-lg font-black tracking-tight sm:text-xl">Administración</h1>
          <div className="ml-auto">
            <ThemeToggle />
          </div>
        </header>
        <div className="mx-auto w-full max-w-6xl px-3 py-5 sm:px-6 md:py-8">
          <Suspense fallback={<ListSkeleton label="Cargando sección…" />}>
            <Outlet />
          </Suspense>
        </div>
      </div>
    </div>
  );
}
