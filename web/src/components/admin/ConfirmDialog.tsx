import { useState, type ReactNode } from 'react';
import { Modal } from '../Modal';
import { ErrorBanner } from './ErrorBanner';
import { dangerButton, secondaryButton } from './buttons';

interface ConfirmDialogProps {
  title: string;
  /** The question or what the action does. */
  message: ReactNode;
  confirmLabel?: string;
  /** The confirm button's text while the action runs (default 'Eliminando…'). */
  busyLabel?: string;
  /** What confirming does (e.g. the DELETE call; its answer is ignored); the dialog is busy while it runs. */
  action: () => Promise<unknown>;
  /** The §8 fallback shown when the action fails without a message of its own. */
  errorFallback: string;
  /** Called once the action succeeded (e.g. drop the row and close). */
  onDone: () => void;
  onCancel: () => void;
}

/**
 * A yes/no dialog for a destructive action (instead of window.confirm): Cancelar and the action,
 * which it runs itself: "Eliminando…" while it runs, the error in its banner if it fails.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel = 'Eliminar',
  busyLabel = 'Eliminando…',
  action,
  errorFallback,
  onDone,
  onCancel,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function confirm() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      console.debug(errorFallback, failure);
      setError(failure);
      setBusy(false);
      return;
    }
    onDone();
  }

  return (
    <Modal title={title} onClose={onCancel}>
      <div className="space-y-4">
        <div className="text-sm text-slate-600 dark:text-slate-300">{message}</div>
        <ErrorBanner error={error} fallback={errorFallback} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" onClick={onCancel} className={secondaryButton}>
            Cancelar
          </button>
          <button type="button" onClick={() => void confirm()} disabled={busy} className={dangerButton}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
