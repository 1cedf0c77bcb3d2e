// A labelled field whose control the caller lays out (its input, select or file picker), and the
// class of those controls; fields.tsx holds the ready-made TextField, SelectField and Checkbox.
import { useId, type ReactNode } from 'react';

export const inputClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-400 focus:border-fuchsia-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500/40 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 aria-invalid:border-rose-500 sm:text-sm dark:border-white/15 dark:bg-ink-800 dark:text-slate-100 dark:placeholder:text-slate-500 dark:disabled:bg-white/5 dark:disabled:text-slate-400';

/** The ids and ARIA attributes a field's control takes. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  children: (control: FieldControlProps) => ReactNode;
  className?: string;
}

/** A labelled form control with its hint and its error (announced, tied to the control). */
export function Field({ label, error, hint, required = false, children, className = '' }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`space-y-1.5 ${className}`}>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
        {required && (
          <span aria-hidden="true" className="text-rose-600 dark:text-rose-400">
            {' '}
            *
          </span>
        )}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-300">
      {children}
    </p>
  );
}
