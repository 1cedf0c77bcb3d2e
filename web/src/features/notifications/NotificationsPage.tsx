import { NOTIFICATION_MESSAGES } from '@tribuna/contracts/notificationRules';
import { Alert } from '../../components/Alert';
import { BellIcon } from '../../components/icons';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useMinuteClock } from '../../lib/useMinuteClock';
import { NotificationItem } from './NotificationItem';
import { useNotificationList } from './useNotificationList';

function SkeletonRow() {
  return (
    <div aria-hidden="true" className="flex items-start gap-3 px-3 py-3 sm:px-4">
      <div className="size-10 shrink-0 rounded-full bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
      <div className="flex-1 space-y-2 pt-1">
        <div className="h-3 w-4/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        <div className="h-3 w-3/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        <div className="h-2.5 w-1/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
      </div>
    </div>
  );
}

function EmptyState() {
  return (
    <div className="mt-2 flex flex-col items-center gap-4 rounded-3xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-white/15">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-white/5 dark:text-slate-400">
        <BellIcon className="size-7" />
      </span>
      <h2 className="text-lg font-bold">{NOTIFICATION_MESSAGES.empty}</h2>
      <p className="max-w-sm text-sm text-slate-600 dark:text-slate-400">{NOTIFICATION_MESSAGES.emptyHint}</p>
    </div>
  );
}

const retryClass = 'mt-2 rounded-full bg-rose-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-rose-700';

/**
 * /notificaciones: the signed-in user's notifications, newest first, in pages ('Cargar más'); each
 * leads to its post. Seeing them marks them read (the badge follows); while open, a live change
 * reloads the first page.
 */
export function NotificationsPage() {
  useDocumentTitle('Notificaciones');
  const { state, loadMore, retry } = useNotificationList();
  const now = useMinuteClock();

  return (
    <section aria-labelledby="notificaciones-titulo" className="mx-auto max-w-2xl px-4 py-6 sm:py-8">
      <h1 id="notificaciones-titulo" className="mb-4 text-2xl font-extrabold tracking-tight">
        Notificaciones
      </h1>

      {state.status === 'loading' && (
        <div aria-busy="true" className="rounded-3xl bg-white py-1 ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
          <p role="status" className="sr-only">
            Cargando notificaciones…
          </p>
          <SkeletonRow />
          <SkeletonRow />
          <SkeletonRow />
        </div>
      )}

      {state.status === 'error' && (
        <Alert>
          <p>{NOTIFICATION_MESSAGES.loadFailed}</p>
          <button type="button" onClick={retry} className={retryClass}>
            Reintentar
          </button>
        </Alert>
      )}

      {state.status === 'ready' && state.items.length === 0 && <EmptyState />}

      {state.status === 'ready' && state.items.length > 0 && (
        <>
          <ul
            aria-labelledby="notificaciones-titulo"
            className="space-y-1 rounded-3xl bg-white p-1.5 ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10"
          >
            {state.items.map((entry) => (
              <NotificationItem key={entry.id} entry={entry} now={now} />
            ))}
          </ul>

          {state.moreError && (
            <Alert className="mt-4">
              <p>{NOTIFICATION_MESSAGES.loadFailed}</p>
              <button type="button" onClick={loadMore} className={retryClass}>
                Reintentar
              </button>
            </Alert>
          )}

          {state.nextCursor !== null && !state.moreError && (
            <div className="mt-4 flex justify-center">
              <button
                type="button"
                onClick={loadMore}
                disabled={state.loadingMore}
                aria-busy={state.loadingMore}
                className="rounded-full px-5 py-2.5 text-sm font-bold text-fuchsia-700 ring-1 ring-fuchsia-300 hover:bg-fuchsia-50 disabled:opacity-60 dark:text-fuchsia-300 dark:ring-fuchsia-500/40 dark:hover:bg-white/5"
              >
                {state.loadingMore ? 'Cargando…' : 'Cargar más'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
