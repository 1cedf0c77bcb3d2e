/** Button styles shared by the back-office screens (both themes, visible focus from index.css). */
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-fuchsia-600 px-4 py-2 text-sm font-bold text-white shadow-sm transition hover:bg-fuchsia-700 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10';
export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-rose-600 px-4 py-2 text-sm font-bold text-white transition hover:bg-rose-700 disabled:cursor-not-allowed disabled:opacity-60';
/** Small text buttons in a row or card ("Editar", "Eliminar"). */
export const rowButton =
  'inline-flex min-h-9 items-center justify-center rounded-full px-3 py-1.5 text-sm font-semibold text-fuchsia-700 transition hover:bg-fuchsia-50 dark:text-fuchsia-300 dark:hover:bg-white/10';
export const rowDangerButton =
  'inline-flex min-h-9 items-center justify-center rounded-full px-3 py-1.5 text-sm font-semibold text-rose-700 transition hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10';
/** A card or table surface. */
export const panel = 'rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 dark:bg-ink-900 dark:ring-white/10';
