import type { ReactNode } from 'react';
import { Modal } from '../../../components/Modal';
import { ErrorBanner } from './ErrorBanner';
import { dangerButton, secondaryButton } from './buttons';

interface ConfirmDialogProps {
  title: string;
  /** The question or what the action does. */
  message: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  error?: unknown;
  errorFallback?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no dialog for a destructive action (instead of window.confirm): Cancelar and the action. */
export function ConfirmDialog({ title, message, confirmLabel = 'Eliminar', busy = false, error = null, errorFallback = '', onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel}>
      <div className="space-y-4">
        <div className="text-sm text-slate-600 dark:text-slate-300">{message}</div>
        <ErrorBanner error={error} fallback={errorFallback} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" onClick={onCancel} className={secondaryButton}>
            Cancelar
          </button>
          <button type="button" onClick={onConfirm} disabled={busy} className={dangerButton}>
            {busy ? 'Eliminando…' : confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
