import { BellIcon } from '../../components/icons';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** Notifications are not stored yet: an honest empty state, and no request is made. */
export function NotificationsPage() {
  useDocumentTitle('Notificaciones');
  return (
    <section className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-extrabold tracking-tight">Notificaciones</h1>
      <div className="mt-8 flex flex-col items-center gap-4 rounded-3xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-white/15">
        <span className="inline-flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-white/5 dark:text-slate-400">
          <BellIcon className="size-7" />
        </span>
        <h2 className="text-lg font-bold">No tienes notificaciones</h2>
        <p className="max-w-sm text-sm text-slate-600 dark:text-slate-400">
          Aquí te avisaremos cuando alguien reaccione a tus publicaciones, comente lo que compartes o te mencione.
        </p>
      </div>
    </section>
  );
}
