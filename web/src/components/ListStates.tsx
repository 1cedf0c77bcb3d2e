import type { ReactNode } from 'react';
import { AlertIcon } from './icons';

const pulse = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10';

/** Grey rows while a tab's first page loads. */
export function TabSkeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div aria-busy="true" className="space-y-3">
      <p role="status" className="sr-only">
        {label}
      </p>
      {Array.from({ length: rows }, (_, i) => (
        <div
          key={i}
          aria-hidden="true"
          className="flex items-center gap-3 rounded-3xl bg-white p-4 ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10"
        >
          <div className="size-12 shrink-0 rounded-2xl bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
          <div className="flex-1 space-y-2">
            <div className={`h-3 w-2/3 ${pulse}`} />
            <div className={`h-2.5 w-1/3 ${pulse}`} />
          </div>
        </div>
      ))}
    </div>
  );
}

const TONES = {
  error: 'border-rose-300 bg-rose-50 text-rose-800 dark:border-rose-500/40 dark:bg-rose-500/10 dark:text-rose-200',
  warning: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-200',
} as const;

/** A tab's load error with Reintentar ('warning': the voting history's yellow box). */
export function TabError({ message, onRetry, tone = 'error' }: { message: string; onRetry: () => void; tone?: keyof typeof TONES }) {
  return (
    <div role="alert" className={`flex items-start gap-2.5 rounded-2xl border px-4 py-3 text-sm font-medium ${TONES[tone]}`}>
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        <p>{message}</p>
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 rounded-full bg-white/70 px-4 py-1.5 text-sm font-bold ring-1 ring-current/30 hover:bg-white dark:bg-white/10 dark:hover:bg-white/20"
        >
          Reintentar
        </button>
      </div>
    </div>
  );
}

/** A tab with nothing to show. */
export function TabEmpty({ children, icon }: { children: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-3xl bg-white px-6 py-12 text-center ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
      {icon}
      <p className="font-semibold text-slate-600 dark:text-slate-300">{children}</p>
    </div>
  );
}

/** 'Cargar más' (disabled while the next page loads). */
export function LoadMoreButton({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  return (
    <div className="flex justify-center">
      <button
        type="button"
        onClick={onClick}
        disabled={loading}
        className="rounded-full px-5 py-2.5 text-sm font-bold text-fuchsia-700 ring-1 ring-fuchsia-300 hover:bg-fuchsia-50 disabled:opacity-60 dark:text-fuchsia-300 dark:ring-fuchsia-500/40 dark:hover:bg-white/5"
      >
        {loading ? 'Cargando…' : 'Cargar más'}
      </button>
    </div>
  );
}

export const badgeClass = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-bold';
