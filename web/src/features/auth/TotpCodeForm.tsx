import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { errorMessage } from '../../lib/api';

const CODE_LENGTH = 6;
const CODE_PATTERN = /^[0-9]{6}$/;

interface TotpCodeFormProps {
  /** The input's label, e.g. 'Código de verificación'. */
  label: string;
  hint?: string;
  submitLabel: string;
  /** Shown on the submit button while `onSubmit` runs. */
  busyLabel: string;
  /** Receives a well-formed 6-digit code; a rejection shows its server message and keeps the form. */
  onSubmit: (code: string) => Promise<void>;
  /** Shown when a failure carries no server message. */
  errorFallback: string;
  onCancel?: () => void;
  cancelLabel?: string;
  autoFocus?: boolean;
  /** Red submit button, for destructive confirmations. */
  danger?: boolean;
}

/**
 * A 6-digit authenticator code: numeric keyboard on phones, one-time-code autofill, digits only.
 * After a wrong code the input is cleared and focused again for the next try.
 */
export function TotpCodeForm({
  label,
  hint,
  submitLabel,
  busyLabel,
  onSubmit,
  errorFallback,
  onCancel,
  cancelLabel = 'Cancelar',
  autoFocus = false,
  danger = false,
}: TotpCodeFormProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!CODE_PATTERN.test(code)) {
      setError('Ingresa los 6 dígitos del código');
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(code);
    } catch (failure) {
      setError(errorMessage(failure, errorFallback));
      setCode('');
      inputRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div className="space-y-2">
        <label htmlFor={inputId} className="block text-sm font-semibold">
          {label}
        </label>
        {hint && (
          <p id={hintId} className="text-sm text-slate-500 dark:text-slate-400">
            {hint}
          </p>
        )}
        <input
          ref={inputRef}
          id={inputId}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={CODE_LENGTH}
          required
          autoFocus={autoFocus}
          placeholder="000000"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="w-full rounded-2xl border border-slate-300 bg-white px-4 py-3 text-center font-mono text-2xl tracking-[0.5em] text-slate-900 placeholder:text-slate-300 focus:border-fuchsia-500 focus:outline-none aria-invalid:border-rose-500 dark:border-white/15 dark:bg-ink-950 dark:text-white dark:placeholder:text-slate-600"
        />
      </div>
      {error && (
        <Alert id={errorId} tone="error">
          {error}
        </Alert>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <button
            type="button"
            onClick={onCancel}
            disabled={busy}
            className="rounded-full px-5 py-2.5 text-sm font-semibold text-slate-600 transition hover:bg-slate-200/70 disabled:opacity-50 dark:text-slate-300 dark:hover:bg-white/10"
          >
            {cancelLabel}
          </button>
        )}
        <button
          type="submit"
          disabled={busy}
          className={`rounded-full px-5 py-2.5 text-sm font-bold text-white shadow-lg transition disabled:cursor-wait disabled:opacity-70 ${
            danger ? 'bg-rose-600 shadow-rose-600/20 hover:bg-rose-700' : 'brand-gradient shadow-fuchsia-600/25 hover:opacity-90'
          }`}
        >
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
