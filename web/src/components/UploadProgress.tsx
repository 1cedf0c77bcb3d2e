/** The progress bar of an upload (0-100), named for screen readers by what is being sent. */
export function UploadProgress({ label, percent, className = '' }: { label: string; percent: number; className?: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={`h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10 ${className}`}
    >
      <div className="brand-gradient h-full transition-[width] motion-reduce:transition-none" style={{ width: `${percent}%` }} />
    </div>
  );
}
