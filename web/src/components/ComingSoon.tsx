import { Link } from 'react-router-dom';
import { Spinner } from './Spinner';
import { useDocumentTitle } from '../lib/useDocumentTitle';

interface ComingSoonProps {
  title: string;
  /** Without the tall empty area, when more content follows on the same page. */
  compact?: boolean;
}

/** Stand-in for a screen whose feature is not built yet: says so plainly and shows no data. */
export function ComingSoon({ title, compact = false }: ComingSoonProps) {
  useDocumentTitle(title);
  return (
    <section className={`mx-auto flex max-w-md flex-col items-center justify-center gap-6 px-4 text-center ${compact ? 'pt-10 pb-6' : 'min-h-[60dvh] py-12'}`}>
      <h1 className="text-2xl font-extrabold tracking-tight">{title}</h1>
      <Spinner label="Esta sección llegará pronto" />
      <Link to="/" className="rounded-full px-4 py-2 text-sm font-semibold text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/5">
        Volver al inicio
      </Link>
    </section>
  );
}
