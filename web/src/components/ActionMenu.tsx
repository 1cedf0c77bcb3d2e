import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDismiss, type DismissReason } from '../lib/useDismiss';
import { DotsIcon } from './featureIcons';

export interface ActionMenuItem {
  label: string;
  onSelect: () => void;
  /** 'danger': a destructive item (rose). */
  tone?: 'normal' | 'danger';
}

const itemClass =
  'flex w-full rounded-xl px-3 py-2 text-left text-sm font-medium outline-none hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-white/10 dark:focus-visible:bg-white/10';
const TONES = { normal: 'text-slate-700 dark:text-slate-200', danger: 'text-rose-600 dark:text-rose-400' } as const;

/**
 * A '⋯' button opening a menu of actions (WAI-ARIA menu button: the first item takes focus, arrows
 * move, Escape closes and gives focus back, Tab or a click outside closes). A post's or comment's
 * menu on the wall, a group's on its page.
 */
export function ActionMenu({ label, items }: { label: string; items: readonly ActionMenuItem[] }) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback((reason?: DismissReason) => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  }, []);
  useDismiss(open, containerRef, close);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const elements = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = elements.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown') elements[(index + 1) % elements.length]?.focus();
    else if (event.key === 'ArrowUp') elements[(index - 1 + elements.length) % elements.length]?.focus();
    else if (event.key === 'Tab') return setOpen(false);
    else return;
    event.preventDefault();
  }

  // Focus goes back to the button first, so a dialog the item opens gives it back there on closing.
  const choose = (action: () => void) => () => {
    setOpen(false);
    buttonRef.current?.focus();
    action();
  };

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex size-9 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-white/10"
      >
        <DotsIcon className="size-5" />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="absolute top-full right-0 z-20 mt-1 w-48 rounded-2xl bg-white p-1.5 shadow-xl ring-1 ring-slate-200 dark:bg-ink-800 dark:ring-white/10"
        >
          {items.map((item) => (
            <button key={item.label} type="button" role="menuitem" onClick={choose(item.onSelect)} className={`${itemClass} ${TONES[item.tone ?? 'normal']}`}>
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
