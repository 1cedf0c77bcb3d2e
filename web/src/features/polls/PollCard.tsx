import { Link } from 'react-router-dom';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { Poll, PollResults } from '@tribuna/contracts/api/polls';
import { formatDateTime } from '../../lib/dates';
import { useSessionStore } from '../../lib/session/sessionStore';
import { LiveIndicator } from './LiveIndicator';
import { LiveResultsAnnouncer } from './LiveResultsAnnouncer';
import { useLiveResultsStore } from './liveResultsStore';
import { useLivePoll } from './useLivePoll';
import { ShareButtons } from './share/ShareButtons';
import { fetchPollResults } from './api';
import { Countdown } from './Countdown';
import { OptionResultCard } from './OptionResultCard';
import { StatusBadge } from './StatusBadge';
import { buildOptionRows, displayStatus, isPointsMode, pointsLabel, seasonLabel, voidedLabel, votersLabel, votesLabel } from './pollView';
import { useChangeFlash } from './useChangeFlash';
import { useCountdown } from './useCountdown';
import { useMyVotes } from './useMyVotes';
import { VoteForm } from './VoteForm';
import { VOTE_MESSAGES } from './voteMessages';

type Mine = { kind: 'vote' } | { kind: 'points'; points: number };

/** What the user gave each option, from their current votes. */
function myShareByOption(poll: Poll, myVotes: MyVotesResponse | null): Map<string, Mine> {
  const mine = new Map<string, Mine>();
  for (const vote of myVotes?.votes ?? []) {
    if (!isPointsMode(poll)) {
      mine.set(vote.optionId, { kind: 'vote' });
      continue;
    }
    const before = mine.get(vote.optionId);
    mine.set(vote.optionId, { kind: 'points', points: (before?.kind === 'points' ? before.points : 0) + vote.points });
  }
  return mine;
}

/**
 * The home poll: header with status and countdown, the vote form while it is active, live results
 * per option, and the share buttons.
 */
export function PollCard({ poll: loadedPoll, results: loadedResults }: { poll: Poll; results: PollResults | null }) {
  // A status change pushed on the live channel (an admin closed or reopened the poll) wins over the loaded one.
  const liveStatus = useLiveResultsStore((state) => state.statuses[loadedPoll.id]?.status);
  const poll = liveStatus && liveStatus !== loadedPoll.status ? { ...loadedPoll, status: liveStatus } : loadedPoll;
  const remainingMs = useCountdown(poll.endDate, poll.status === 'active');
  const status = displayStatus(poll, remainingMs === 0);
  const user = useSessionStore((state) => state.user);
  const signedOut = useSessionStore((state) => state.status === 'ready' && state.user === null);
  const results = useLivePoll(poll.id, loadedResults);
  const myVotes = useMyVotes(poll.id, user?.id ?? null);
  const rows = buildOptionRows(poll, results);
  const mine = myShareByOption(poll, myVotes.data);
  const totalsText = results ? `${votesLabel(results.totalVotes)} · ${pointsLabel(results.totalPoints)} · ${votersLabel(results.totalVoters)}` : '';
  const totalsFlash = useChangeFlash(totalsText);

  function onVoted(response: MyVotesResponse) {
    myVotes.setData(response);
    // Without the live channel the user would not see their own vote counted: read the results once.
    if (loadedResults && !useLiveResultsStore.getState().connected) {
      fetchPollResults(poll.id).then(
        (fresh) => useLiveResultsStore.getState().applyResults(fresh),
        (error: unknown) => console.debug('No se pudieron actualizar los resultados', error),
      );
    }
  }

  return (
    <article
      aria-labelledby="poll-title"
      className="overflow-hidden rounded-3xl bg-white shadow-xl ring-1 shadow-fuchsia-900/5 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10"
    >
      <header className="brand-gradient space-y-4 px-5 py-6 text-white sm:px-8 sm:py-8">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-semibold text-white/85">{seasonLabel(poll)}</p>
          <StatusBadge status={status} />
        </div>
        <h1 id="poll-title" className="text-2xl leading-tight font-black tracking-tight sm:text-4xl">
          {poll.title}
        </h1>
        {poll.description && <p className="text-white/90 sm:text-lg">{poll.description}</p>}
        {poll.endDate && remainingMs !== null && status === 'active' && <Countdown remainingMs={remainingMs} endDate={poll.endDate} />}
        {poll.endDate && status === 'closed' && <p className="text-sm font-medium text-white/85">Votación cerrada el {formatDateTime(poll.endDate)}</p>}
        {/* Announced once, when the countdown reaches zero while the page is open. */}
        <p aria-live="polite" className="sr-only">
          {poll.status === 'active' && status === 'closed' ? 'La votación ha cerrado' : ''}
        </p>
      </header>

      <div className="space-y-7 px-4 py-5 sm:px-8 sm:py-7">
        {status === 'active' ? (
          <div className="space-y-3">
            {isPointsMode(poll) && (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Reparte hasta {pointsLabel(poll.pointsConfig.maxPointsPerUser)} entre los participantes.
              </p>
            )}
            {signedOut && (
              <Link
                to="/login"
                className="flex items-center justify-center rounded-2xl border-2 border-dashed border-fuchsia-400/60 px-4 py-3 text-center font-bold text-fuchsia-700 transition hover:bg-fuchsia-600/5 dark:text-fuchsia-300"
              >
                Inicia sesión para votar
              </Link>
            )}
            <VoteForm poll={poll} rows={rows} signedIn={user !== null} myVotes={myVotes.data} onVoted={onVoted} />
          </div>
        ) : (
          <p className="rounded-2xl bg-slate-100 px-4 py-4 text-center text-lg font-extrabold text-slate-700 dark:bg-white/5 dark:text-slate-200">
            {VOTE_MESSAGES.votingClosed}
          </p>
        )}

        <section aria-labelledby="results-title" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex items-center gap-2.5">
              <h2 id="results-title" className="text-lg font-extrabold">
                {status === 'closed' ? 'Resultados finales' : 'Resultados'}
              </h2>
              {results && status === 'active' && <LiveIndicator pollId={poll.id} />}
            </div>
            {results && (
              <p
                className={`text-sm font-medium transition-colors ${totalsFlash ? 'text-fuchsia-700 dark:text-fuchsia-300' : 'text-slate-700 dark:text-slate-300'}`}
              >
                {totalsText}
              </p>
            )}
          </div>
          {results && <LiveResultsAnnouncer rows={rows} totalVotes={results.totalVotes} />}
          {!!results?.voidedVotes && <p className="text-xs text-slate-500 dark:text-slate-400">{voidedLabel(results.voidedVotes)}</p>}
          {!results && <p className="text-sm text-slate-600 dark:text-slate-400">Los resultados de esta encuesta no están disponibles por ahora.</p>}
          <ul className="grid gap-3 sm:grid-cols-2">
            {rows.map((row) => (
              <OptionResultCard
                key={row.option.id}
                row={row}
                mine={mine.get(row.option.id) ?? null}
                votersListed={user !== null && results?.votersListed === true}
              />
            ))}
          </ul>
        </section>

        <ShareButtons poll={poll} signedIn={user !== null} />
      </div>
    </article>
  );
}
