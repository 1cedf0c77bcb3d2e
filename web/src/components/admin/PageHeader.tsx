import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** A screen's title (h2 under the shell's h1 'Administración'), a line of description and its main action. */
export function PageHeader({ title, description, children }: { title: string; description?: string; children?: ReactNode }) {
  useDocumentTitle(`${title} · Administración`);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h2 className="text-2xl font-black tracking-tight">{title}</h2>
        {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      </div>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </div>
  );
}
