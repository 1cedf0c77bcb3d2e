import { UsersIcon } from '../../components/icons';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

export function GroupsPage() {
  useDocumentTitle('Grupos');
  return (
    <section className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 px-4 py-12 text-center">
      <span className="brand-gradient inline-flex size-16 items-center justify-center rounded-2xl text-white shadow-lg">
        <UsersIcon className="size-8" />
      </span>
      <h1 className="text-2xl font-extrabold tracking-tight">Grupos</h1>
      {/* fuchsia-700 on the light page: fuchsia-600 on slate-50 missed the 4.5:1 contrast of normal text (axe). */}
      <p className="text-lg font-semibold text-fuchsia-700 dark:text-fuchsia-400">Próximamente</p>
    </section>
  );
}
