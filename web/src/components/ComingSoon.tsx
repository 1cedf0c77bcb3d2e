import { Link } from 'react-router-dom';
import { Spinner } from './Spinner';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** Stand-in for a screen whose feature is not built yet: says so plainly and shows no data. */
export function ComingSoon({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-6 px-4 py-12 text-center">
      <h1 className="text-2xl font-extrabold tracking-tight">{title}</h1>
      <Spinner label="Esta sección llegará pronto" />
      <Link
        to="/"
        className="rounded-full px-4 py-2 text-sm font-semibold text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/5"
      >
        Volver al inicio
      </Link>
    </section>
  );
}
