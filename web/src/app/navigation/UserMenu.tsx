import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import { Avatar } from '../../components/Avatar';
import { ChevronDownIcon, LogoutIcon, MoonIcon, SunIcon, UserIcon } from '../../components/icons';
import { useDismiss, type DismissReason } from '../../lib/useDismiss';
import { displayNameOf } from '../../lib/displayName';
import { useSignOut } from '../../lib/session/useSignOut';
import { nextThemeLabel, useThemeStore } from '../../lib/themeStore';

interface UserMenuProps {
  user: Profile;
  /** 'tab': the mobile bottom-bar item opening upwards; 'bar': the desktop avatar button opening downwards. */
  variant: 'tab' | 'bar';
}

const itemClass =
  'flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-sm font-medium text-slate-700 outline-none hover:bg-slate-100 focus-visible:bg-slate-100 aria-[current=page]:text-fuchsia-600 dark:text-slate-200 dark:hover:bg-white/10 dark:focus-visible:bg-white/10 dark:aria-[current=page]:text-fuchsia-400';

/** The user menu: Perfil, theme switch, Cerrar sesión. Keyboard: arrows move, Escape and outside clicks close. */
export function UserMenu({ user, variant }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { pathname } = useLocation();
  const theme = useThemeStore((state) => state.theme);
  const toggleTheme = useThemeStore((state) => state.toggleTheme);
  const signOut = useSignOut();
  const name = displayNameOf(user);
  const onProfile = pathname === '/perfil' || pathname.startsWith('/perfil/');

  const close = useCallback((reason?: DismissReason) => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  }, []);
  useDismiss(open, containerRef, close);

  // Close when the route changes (e.g. after following "Perfil"): adjusted while rendering the new
  // route, not in an effect after it.
  const [shownOn, setShownOn] = useState(pathname);
  if (shownOn !== pathname) {
    setShownOn(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') focusAt(index + 1);
    else if (event.key === 'ArrowUp') focusAt(index - 1);
    else if (event.key === 'Home') focusAt(0);
    else if (event.key === 'End') focusAt(items.length - 1);
    else if (event.key === 'Tab') return setOpen(false);
    else return;
    event.preventDefault();
  }

  const ThemeIcon = theme === 'dark' ? SunIcon : MoonIcon;

  return (
    <div ref={containerRef} className={variant === 'tab' ? 'relative flex flex-1 justify-center' : 'relative'}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        // The tab is named by its visible 'Perfil' (an aria-label would not contain the initial shown above it).
        aria-label={variant === 'tab' ? undefined : `Menú de ${name}`}
        onClick={() => setOpen((value) => !value)}
        className={
          variant === 'tab'
            ? `flex w-full flex-col items-center gap-0.5 py-2 ${onProfile ? 'text-fuchsia-600 dark:text-fuchsia-400' : 'text-slate-500 dark:text-slate-400'}`
            : 'flex items-center gap-2 rounded-full py-1 pr-3 pl-1 transition hover:bg-slate-200/70 dark:hover:bg-white/10'
        }
      >
        {variant === 'tab' ? (
          <>
            <Avatar name={name} src={user.avatarUrl} size="sm" className="size-6! text-xs!" />
            <span className="text-[11px] font-medium">Perfil</span>
          </>
        ) : (
          <>
            <Avatar name={name} src={user.avatarUrl} size="sm" />
            <span className="max-w-32 truncate text-sm font-semibold">{name}</span>
            <ChevronDownIcon className={`size-4 transition ${open ? 'rotate-180' : ''}`} />
          </>
        )}
      </button>

      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Menú de usuario"
          onKeyDown={onMenuKeyDown}
          className={`absolute z-50 w-56 rounded-2xl bg-white p-1.5 shadow-xl ring-1 ring-black/5 dark:bg-ink-800 dark:ring-white/10 ${
            variant === 'tab' ? 'right-2 bottom-full mb-3' : 'top-full right-0 mt-2'
          }`}
        >
          <Link role="menuitem" to="/perfil" aria-current={pathname === '/perfil' ? 'page' : undefined} className={itemClass}>
            <UserIcon className="size-5" />
            <span>Perfil</span>
          </Link>
          <button
            role="menuitem"
            type="button"
            className={itemClass}
            onClick={() => {
              toggleTheme();
              setOpen(false);
            }}
          >
            <ThemeIcon className="size-5" />
            <span>Modo {nextThemeLabel(theme)}</span>
          </button>
          <button
            role="menuitem"
            type="button"
            className={`${itemClass} text-rose-600! dark:text-rose-400!`}
            onClick={() => {
              setOpen(false);
              void signOut();
            }}
          >
            <LogoutIcon className="size-5" />
            <span>Cerrar sesión</span>
          </button>
        </div>
      )}
    </div>
  );
}
