interface SpinnerProps {
  /** Read by screen readers and shown under the spinner unless `hideLabel`. */
  label?: string;
  hideLabel?: boolean;
  className?: string;
}

/** An accessible busy indicator: a polite status region with a text label. */
export function Spinner({ label = 'Cargando…', hideLabel = false, className = '' }: SpinnerProps) {
  return (
    <div role="status" aria-live="polite" className={`flex flex-col items-center justify-center gap-3 ${className}`}>
      <span aria-hidden="true" className="size-10 animate-spin rounded-full border-4 border-fuchsia-500/25 border-t-fuchsia-500" />
      <span className={hideLabel ? 'sr-only' : 'text-sm font-medium text-slate-500 dark:text-slate-400'}>{label}</span>
    </div>
  );
}

/** A whole-page loading state. */
export function PageSpinner({ label }: { label?: string }) {
  return <Spinner label={label} className="min-h-[60dvh] px-4" />;
}
