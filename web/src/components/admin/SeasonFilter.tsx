import { useId } from 'react';
import type { SeasonView } from '@tribuna/contracts/api/admin/catalog';
import { callApi } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { inputClass } from './Field';

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
