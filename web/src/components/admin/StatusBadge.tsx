import type { ReactNode } from 'react';

export type BadgeTone = 'green' | 'amber' | 'slate' | 'fuchsia' | 'rose' | 'sky';

const TONES: Record<BadgeTone, string> = {
  green: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-400/15 dark:text-emerald-300 dark:ring-emerald-400/30',
  amber: 'bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/30',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-white/10 dark:text-slate-300 dark:ring-white/15',
  fuchsia: 'bg-fuchsia-100 text-fuchsia-800 ring-fuchsia-600/20 dark:bg-fuchsia-400/15 dark:text-fuchsia-200 dark:ring-fuchsia-400/30',
  rose: 'bg-rose-100 text-rose-800 ring-rose-600/20 dark:bg-rose-400/15 dark:text-rose-200 dark:ring-rose-400/30',
  sky: 'bg-sky-100 text-sky-800 ring-sky-600/20 dark:bg-sky-400/15 dark:text-sky-200 dark:ring-sky-400/30',
};

const badgeClass = 'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-bold ring-1 ring-inset whitespace-nowrap';

/** A small status label (Activa, Borrador, Principal…). */
export function StatusBadge({ tone, children, className = '' }: { tone: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={`${badgeClass} ${TONES[tone]} ${className}`}>{children}</span>;
}

interface ToggleBadgeProps {
  active: boolean;
  activeLabel: string;
  inactiveLabel: string;
  /** What the button does, for screen readers ("Cambiar estado de Temporada 3"). */
  label: string;
  onToggle: () => void;
  disabled?: boolean;
}

/** A status badge that is a button: clicking it switches active/inactive (aria-pressed tells the state). */
export function ToggleBadge({ active, activeLabel, inactiveLabel, label, onToggle, disabled = false }: ToggleBadgeProps) {
  return (
    <button
      type="button"
      aria-pressed={active}
      aria-label={`${label}: ${active ? activeLabel : inactiveLabel}`}
      title={label}
      onClick={onToggle}
      disabled={disabled}
      className={`${badgeClass} min-h-7 cursor-pointer transition hover:brightness-95 disabled:cursor-wait disabled:opacity-70 dark:hover:brightness-125 ${TONES[active ? 'green' : 'slate']}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${active ? 'bg-emerald-500' : 'bg-slate-400'}`} />
      {active ? activeLabel : inactiveLabel}
    </button>
  );
}
