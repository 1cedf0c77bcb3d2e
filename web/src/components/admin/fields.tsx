import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

const controlClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:border-fuchsia-500 focus:ring-2 focus:ring-fuchsia-500/30 aria-invalid:border-rose-500 disabled:opacity-60 sm:text-sm dark:border-white/15 dark:bg-ink-800 dark:text-slate-100';

interface FieldShellProps {
  id: string;
  label: string;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
}

function FieldShell({ id, label, error, hint, required, children }: FieldShellProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-700 dark:text-slate-200">
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-rose-600 dark:text-rose-400">
            *
          </span>
        )}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, error?: string | null, hint?: ReactNode) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string; error?: string | null; hint?: ReactNode };

/** A labelled input; its error is tied to it (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, required, className = '', ...input }: TextFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} required={required}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${controlClass} ${className}`}
        {...input}
      />
    </FieldShell>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { label: string; error?: string | null; hint?: ReactNode };

export function SelectField({ label, error, hint, required, className = '', children, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} required={required}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${controlClass} ${className}`}
        {...select}
      >
        {children}
      </select>
    </FieldShell>
  );
}

interface CheckboxProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Shown under the box (e.g. what ticking it also does). */
  note?: ReactNode;
  disabled?: boolean;
}

export function Checkbox({ label, checked, onChange, note, disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="inline-flex min-h-9 cursor-pointer items-center gap-2.5 text-sm font-semibold text-slate-700 dark:text-slate-200">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={note ? `${id}-note` : undefined}
          className="size-5 rounded border-slate-300 accent-fuchsia-600"
        />
        {label}
      </label>
      {note && (
        <div id={`${id}-note`} className="text-sm">
          {note}
        </div>
      )}
    </div>
  );
}
