import type { ReactNode } from 'react';

/** What a list shows when it has nothing: the spec's message and, optionally, an action. */
export function EmptyState({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-2xl border-2 border-dashed border-slate-300 px-6 py-10 text-center dark:border-white/15">
      <p className="font-medium text-slate-600 dark:text-slate-300">{message}</p>
      {children}
    </div>
  );
}
