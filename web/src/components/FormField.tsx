import type { ReactNode } from 'react';

/** A text input or textarea of a dialog's form (invalid: a rose ring). */
export const inputClass =
  'w-full rounded-2xl bg-slate-100 px-4 py-2.5 text-base placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 aria-invalid:ring-2 aria-invalid:ring-rose-500 disabled:opacity-60 dark:bg-white/5 dark:placeholder:text-slate-400';

export interface FormFieldProps {
  id: string;
  label: string;
  /** "12/50", shown at the right of the label. */
  counter?: { length: number; max: number };
  hint?: string;
  error?: string | null;
  children: (describedBy: string | undefined) => ReactNode;
}

/**
 * A labelled form field: the label, a live 'n/max' counter at its right, a hint and the error under
 * it; `children` gets the ids the control's aria-describedby should name.
 */
export function FormField({ id, label, counter, hint, error, children }: FormFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const describedBy = [counter ? counterId : null, hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const over = counter ? counter.length > counter.max : false;
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold">
          {label}
        </label>
        {counter && (
          <span id={counterId} className={`text-xs tabular-nums ${over ? 'font-bold text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400'}`}>
            {counter.length}/{counter.max}
          </span>
        )}
      </div>
      {children(describedBy)}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}
