import { Link } from 'react-router-dom';
import type { Poll, PollResults } from '@tribuna/contracts';
import { formatDateTime } from '../../lib/dates';
import { useSessionStore } from '../auth/sessionStore';
import { Countdown } from './Countdown';
import { OptionResultCard } from './OptionResultCard';
import { StatusBadge } from './StatusBadge';
import { buildOptionRows, displayStatus, isPointsMode, pointsLabel, seasonLabel, votersLabel, votesLabel } from './pollView';
import { useCountdown } from './useCountdown';

/** The home poll: header with status and countdown, then each option with its results. */
export function PollCard({ poll, results }: { poll: Poll; results: PollResults | null }) {
  const remainingMs = useCountdown(poll.endDate, poll.status === 'active');
  const status = displayStatus(poll, remainingMs === 0);
  const signedOut = useSessionStore((state) => state.status === 'ready' && state.user === null);
  const rows = buildOptionRows(poll, results);

  return (
    <article aria-labelledby="poll-title" className="overflow-hidden rounded-3xl bg-white shadow-xl ring-1 shadow-fuchsia-900/5 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
      <header className="brand-gradient space-y-4 px-5 py-6 text-white sm:px-8 sm:py-8">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-semibold text-white/85">{seasonLabel(poll)}</p>
          <StatusBadge status={status} />
        </div>
        <h1 id="poll-title" className="text-2xl leading-tight font-black tracking-tight sm:text-4xl">
          {poll.title}
        </h1>
        {poll.description && <p className="text-white/90 sm:text-lg">{poll.description}</p>}
        {poll.endDate && remainingMs !== null && status === 'active' && (
          <Countdown remainingMs={remainingMs} endDate={poll.endDate} />
        )}
        {poll.endDate && status === 'closed' && (
          <p className="text-sm font-medium text-white/85">Votación cerrada el {formatDateTime(poll.endDate)}</p>
        )}
        {/* Announced once, when the countdown reaches zero while the page is open. */}
        <p aria-live="polite" className="sr-only">
          {poll.status === 'active' && status === 'closed' ? 'La votación ha cerrado' : ''}
        </p>
      </header>

      <div className="space-y-5 px-4 py-5 sm:px-8 sm:py-7">
        {isPointsMode(poll) && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Reparte hasta {pointsLabel(poll.pointsConfig.maxPointsPerUser)} entre los participantes.
          </p>
        )}
        {signedOut && status === 'active' && (
          <Link
            to="/login"
            className="flex items-center justify-center rounded-2xl border-2 border-dashed border-fuchsia-400/60 px-4 py-3 text-center font-bold text-fuchsia-700 transition hover:bg-fuchsia-600/5 dark:text-fuchsia-300"
          >
            Inicia sesión para votar
          </Link>
        )}

        <section aria-labelledby="results-title" className="space-y-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="results-title" className="text-lg font-extrabold">
              Resultados
            </h2>
            {results && (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {votesLabel(results.totalVotes)} · {pointsLabel(results.totalPoints)} · {votersLabel(results.totalVoters)}
              </p>
            )}
          </div>
          {!results && (
            <p className="text-sm text-slate-600 dark:text-slate-400">Los resultados de esta encuesta no están disponibles por ahora.</p>
          )}
          <ul className="grid gap-3 sm:grid-cols-2">
            {rows.map((row) => (
              <OptionResultCard key={row.option.id} row={row} />
            ))}
          </ul>
        </section>
      </div>
    </article>
  );
}
