const bar = 'animate-pulse rounded-full bg-slate-200 dark:bg-white/10';

/** Loading rows: a table from md, cards below (the screens' own layouts). */
export function ListSkeleton({ rows = 4, label = 'Cargando…' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} aria-hidden="true" className="flex items-center gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 dark:bg-ink-900 dark:ring-white/10">
          <div className="min-w-0 flex-1 space-y-2">
            <div className={`${bar} h-4 w-2/5`} />
            <div className={`${bar} h-3 w-3/5`} />
          </div>
          <div className={`${bar} h-6 w-16`} />
        </div>
      ))}
    </div>
  );
}

/** Loading counters (the dashboard's four cards). */
export function CounterSkeleton({ count = 4 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} aria-hidden="true" className="space-y-3 rounded-2xl bg-white p-4 ring-1 ring-slate-200 dark:bg-ink-900 dark:ring-white/10">
          <div className={`${bar} h-3 w-2/3`} />
          <div className={`${bar} h-7 w-1/2`} />
        </div>
      ))}
    </>
  );
}

/** A few loading lines inside a card. */
export function LinesSkeleton({ lines = 5 }: { lines?: number }) {
  return (
    <div aria-hidden="true" className="space-y-4">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="flex items-center gap-3">
          <div className="size-8 shrink-0 animate-pulse rounded-full bg-slate-200 dark:bg-white/10" />
          <div className={`${bar} h-3 flex-1`} />
        </div>
      ))}
    </div>
  );
}
