import { useState } from 'react';
import { UsersIcon } from '../../components/icons';
import { OptionAvatar } from './OptionAvatar';
import { formatCount, formatPercent, pointsLabel, votesLabel, type OptionRow } from './pollView';
import { useChangeFlash } from './useChangeFlash';
import { VotersDialog } from './VotersDialog';

const flashClass = (flash: boolean) =>
  `inline-block transition duration-300 motion-safe:ease-out ${flash ? 'text-fuchsia-600 motion-safe:scale-110 dark:text-fuchsia-300' : ''}`;

interface OptionResultCardProps {
  row: OptionRow;
  /** What the signed-in user gave this option: 'Tu voto' (single choice) or their points; null when nothing. */
  mine: { kind: 'vote' } | { kind: 'points'; points: number } | null;
  /** Whether the reader may see who voted (signed in); otherwise the voters dialog shows counts only. */
  votersListed: boolean;
}

/** One option's live result: photo, name, big percentage, bar, votes and points, and its voters. */
export function OptionResultCard({ row, mine, votersListed }: OptionResultCardProps) {
  const [votersOpen, setVotersOpen] = useState(false);
  const { option, label, result, share } = row;
  const percent = formatPercent(share);
  const percentFlash = useChangeFlash(percent);
  const totalsFlash = useChangeFlash(result ? `${result.totalVotes}/${result.totalPoints}` : null);

  return (
    <li
      className={`rounded-2xl p-4 ring-1 transition ${
        mine
          ? 'bg-fuchsia-50 ring-2 ring-fuchsia-500 dark:bg-fuchsia-500/10 dark:ring-fuchsia-400'
          : 'bg-slate-50 ring-slate-200/70 dark:bg-white/[0.03] dark:ring-white/10'
      }`}
    >
      <div className="flex items-center gap-3">
        <OptionAvatar option={option} label={label} />
        <div className="min-w-0 flex-1">
          <h3 className="text-base leading-tight font-bold">{label}</h3>
          {mine && (
            <p className="mt-0.5 text-xs font-bold text-fuchsia-700 dark:text-fuchsia-300">{mine.kind === 'vote' ? 'Tu voto' : `Tus puntos: ${mine.points}`}</p>
          )}
        </div>
        {result && <span className={`text-3xl font-black tabular-nums ${flashClass(percentFlash)}`}>{percent}</span>}
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
            className="mt-3 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10"
          >
            <div
              className="brand-gradient h-full rounded-full transition-[width] duration-700 ease-out motion-reduce:transition-none"
              style={{ width: `${share * 100}%` }}
            />
          </div>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <p className={`font-medium text-slate-700 dark:text-slate-300 ${flashClass(totalsFlash)}`}>
              {votesLabel(result.totalVotes)} · {pointsLabel(result.totalPoints)}
            </p>
            <button
              type="button"
              onClick={() => setVotersOpen(true)}
              className="inline-flex min-h-10 items-center gap-1.5 rounded-full px-3 py-1.5 font-semibold text-fuchsia-700 transition hover:bg-fuchsia-600/10 dark:text-fuchsia-300 dark:hover:bg-fuchsia-400/10"
            >
              <UsersIcon className="size-4" />
              Ver votantes <span className="sr-only">de {label}</span> ({formatCount(result.totalVoters)})
            </button>
          </div>
          {votersOpen && (
            <VotersDialog
              optionLabel={label}
              voters={result.voters}
              totalVoters={result.totalVoters}
              listed={votersListed}
              onClose={() => setVotersOpen(false)}
            />
          )}
        </>
      )}
    </li>
  );
}
