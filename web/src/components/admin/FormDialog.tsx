import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Modal } from '../Modal';
import { ErrorBanner } from './ErrorBanner';
import { primaryButton, secondaryButton } from './buttons';

interface FormDialogProps {
  title: string;
  /** Label of the submit button ("Guardar", "Crear"). */
  submitLabel?: string;
  busy?: boolean;
  /** The failed save, shown above the buttons as the backend's message or `errorFallback`. */
  error?: unknown;
  errorFallback?: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
  size?: 'md' | 'lg';
}

/**
 * A create/edit form in a Modal (focus trapped, Escape closes, focus returns to the opener). The
 * form validates on submit (noValidate: the screens show the spec's own messages, not the browser's).
 */
export function FormDialog({
  title,
  submitLabel = 'Guardar',
  busy = false,
  error = null,
  errorFallback = '',
  onSubmit,
  onClose,
  children,
  size,
}: FormDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  // The first field takes the focus (Modal has moved it into the dialog already, and gives it
  // back to the opener on close).
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])')?.focus();
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) onSubmit();
  }
  return (
    <Modal title={title} onClose={onClose} size={size}>
      <form ref={formRef} noValidate onSubmit={submit} className="space-y-4" aria-busy={busy}>
        {children}
        <ErrorBanner error={error} fallback={errorFallback} />
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} className={secondaryButton}>
            Cancelar
          </button>
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? 'Guardando…' : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
