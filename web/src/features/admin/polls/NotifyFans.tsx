import type { AdminPollView } from '@tribuna/contracts/api/admin/polls';
import { PUSH_ADMIN_TEXTS } from '@tribuna/contracts/pushRules';
import { callApi } from '../../../lib/api';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { primaryButton, secondaryButton } from '../../../components/admin/buttons';

/** What was just done to the poll that makes it worth telling the fans. */
export type NotifyReason = 'activate' | 'feature';

const DONE: Record<NotifyReason, (title: string) => string> = {
  activate: (title) => `«${title}» ya está activa.`,
  feature: (title) => `«${title}» está fijada en Landing.`,
};

/**
 * After 'Activar' or 'Fijar en Landing' of an active poll: says it was done and offers 'Notificar a
 * los fans' (a push to every fan who opted into 'Votación abierta'), or to leave it ('Ahora no').
 */
export function NotifyOffer({ poll, reason, onNotify, onDismiss }: { poll: AdminPollView; reason: NotifyReason; onNotify: () => void; onDismiss: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 sm:flex-row sm:items-center sm:justify-between dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-100"
    >
      <p className="font-medium break-words">{DONE[reason](poll.title)}</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={onDismiss} className={secondaryButton}>
          Ahora no
        </button>
        <button type="button" onClick={onNotify} aria-label={`${PUSH_ADMIN_TEXTS.notify}: ${poll.title}`} className={primaryButton}>
          {PUSH_ADMIN_TEXTS.notify}
        </button>
      </div>
    </div>
  );
}

/** '¿Notificar a los fans?': POST /api/admin/polls/:pollId/notify; the server's refusals (already notified, not active) shown as they come. */
export function NotifyFansDialog({ poll, onDone, onCancel }: { poll: AdminPollView; onDone: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title={PUSH_ADMIN_TEXTS.confirmTitle}
      message={
        <>
          <p className="font-semibold text-slate-900 dark:text-white">{poll.title}</p>
          <p className="mt-1">{PUSH_ADMIN_TEXTS.confirmBody}</p>
        </>
      }
      confirmLabel={PUSH_ADMIN_TEXTS.confirm}
      busyLabel="Enviando…"
      action={() => callApi('notifyPoll', { params: { pollId: poll.id } })}
      errorFallback="No se pudo enviar la notificación"
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}
