// What the Contestants and Polls screens share beyond the back-office's components (../components):
// a field whose control is laid out by the caller, the seasons' query, label and filter.
import { useId, type ReactNode } from 'react';
import type { SeasonView } from '@tribuna/contracts/api/admin/catalog';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';

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

// --- Seasons ------------------------------------------------------------------------------------------

/** '{reality} · Temporada {n}', how a season is named in filters and selects. */
export const seasonLabel = (season: { realityName: string; number: number }) => `${season.realityName} · Temporada ${season.number}`;

/** The seasons for the filters and the forms' selects (GET adminSeasons). */
export function useAdminSeasons() {
  return useQuery(['admin-seasons'], (signal) => callApi('adminSeasons', { signal }).then((r) => r.seasons));
}

interface SeasonFilterProps {
  seasons: readonly SeasonView[];
  value: string;
  onChange: (seasonId: string) => void;
}

/** 'Todas las temporadas' or one season. */
export function SeasonFilter({ seasons, value, onChange }: SeasonFilterProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <label htmlFor={id} className="text-sm font-semibold">
        Temporada
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={`${inputClass} sm:w-72`}>
        <option value="">Todas las temporadas</option>
        {seasons.map((season) => (
          <option key={season.id} value={season.id}>
            {seasonLabel(season)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Spanish count with its noun: '1 voto', '12 votos'. */
export const plural = (count: number, one: string, many: string) => `${count.toLocaleString('es')} ${count === 1 ? one : many}`;
