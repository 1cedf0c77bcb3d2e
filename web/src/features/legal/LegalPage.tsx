import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeftIcon } from '../../components/icons';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** Page chrome around a legal text: Volver button to / and the title. The layout adds the footer. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <Link
        to="/"
        className="inline-flex items-center gap-2 rounded-full bg-slate-200/70 px-4 py-2 text-sm font-semibold transition hover:bg-slate-300/70 dark:bg-white/10 dark:hover:bg-white/15"
      >
        <ArrowLeftIcon className="size-4" />
        Volver
      </Link>
      <h1 className="mt-6 mb-6 text-3xl font-black tracking-tight sm:text-4xl">{title}</h1>
      {children}
    </article>
  );
}
