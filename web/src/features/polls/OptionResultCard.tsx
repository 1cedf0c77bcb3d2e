import { useState } from 'react';
import { initialOf } from '../../components/Avatar';
import { UsersIcon } from '../../components/icons';
import { formatPercent, pointsLabel, votesLabel, type OptionRow } from './pollView';
import { VotersDialog } from './VotersDialog';

/** One option: contestant photo or initial, name, and its read-only result with the voters button. */
export function OptionResultCard({ row }: { row: OptionRow }) {
  const [votersOpen, setVotersOpen] = useState(false);
  const { option, label, result, share } = row;
  const photo = option.contestant?.photoUrl ?? null;
  const percent = formatPercent(share);

  return (
    <li className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200/70 dark:bg-white/[0.03] dark:ring-white/10">
      <div className="flex items-center gap-3">
        {photo ? (
          <img src={photo} alt="" loading="lazy" className="size-14 shrink-0 rounded-2xl bg-slate-200 object-cover dark:bg-ink-800" />
        ) : (
          <span aria-hidden="true" className="brand-gradient inline-flex size-14 shrink-0 items-center justify-center rounded-2xl text-2xl font-black text-white">
            {initialOf(label)}
          </span>
        )}
        <h3 className="min-w-0 flex-1 text-base leading-tight font-bold">{label}</h3>
        {result && <span className="text-2xl font-black tabular-nums">{percent}</span>}
      </div>

      {result && (
        <>
          <div
            role="progressbar"
            aria-label={`Porcentaje de ${label}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share * 1000) / 10}
            aria-valuetext={percent}
            className="mt-3 h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10"
          >
            <div className="brand-gradient h-full rounded-full transition-[width] duration-500" style={{ width: `${share * 100}%` }} />
          </div>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <p className="text-slate-600 dark:text-slate-400">
              {votesLabel(result.totalVotes)} · {pointsLabel(result.totalPoints)}
            </p>
            <button
              type="button"
              onClick={() => setVotersOpen(true)}
              className="inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 font-semibold text-fuchsia-700 transition hover:bg-fuchsia-600/10 dark:text-fuchsia-300 dark:hover:bg-fuchsia-400/10"
            >
              <UsersIcon className="size-4" />
              Ver votantes <span className="sr-only">de {label}</span> ({result.voters.length})
            </button>
          </div>
          {votersOpen && <VotersDialog optionLabel={label} voters={result.voters} onClose={() => setVotersOpen(false)} />}
        </>
      )}
    </li>
  );
}
