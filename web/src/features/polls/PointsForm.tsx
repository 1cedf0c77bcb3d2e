import { useId, useState, type FormEvent } from 'react';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { Poll } from '@tribuna/contracts/api/polls';
import { formatDateTime } from '../../lib/dates';
import { OptionAvatar } from './OptionAvatar';
import { pointsLabel, type OptionRow } from './pollView';
import { useCastVote } from './useCastVote';
import { VoteButton, VoteFeedback } from './VoteFeedback';
import { parsePoints, sumAllocations, toAllocationList, validateAllocations, type Allocations } from './voteValidation';

interface PointsFormProps {
  poll: Poll;
  rows: OptionRow[];
  signedIn: boolean;
  myVotes: MyVotesResponse | null;
  onVoted: (response: MyVotesResponse) => void;
}

/** "Te quedan 7 puntos" / "Te queda 1 punto"; over the limit: "Te pasaste por 2 puntos". */
function remainingText(remaining: number): string {
  if (remaining < 0) return `Te pasaste por ${pointsLabel(-remaining)}`;
  return `${remaining === 1 ? 'Te queda' : 'Te quedan'} ${pointsLabel(remaining)}`;
}

const stepButton =
  'inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-slate-100 text-2xl font-black text-slate-800 transition hover:bg-fuchsia-100 disabled:opacity-40 disabled:hover:bg-slate-100 dark:bg-white/10 dark:text-white dark:hover:bg-fuchsia-500/25 dark:disabled:hover:bg-white/10';

/**
 * Points mode: a stepper (−, number, +) per option to spread the available points, a live counter
 * of what is left, and Votar. Points given earlier are shown per option; new ones add to them.
 */
export function PointsForm({ poll, rows, signedIn, myVotes, onVoted }: PointsFormProps) {
  const { state, submit, fail, clear, goToLogin } = useCastVote(poll.id, onVoted);
  const [allocations, setAllocations] = useState<Allocations>({});
  const errorId = useId();
  const counterId = useId();

  const available = myVotes?.availablePoints.available ?? poll.pointsConfig.maxPointsPerUser;
  const assigned = sumAllocations(allocations);
  const remaining = available - assigned;
  const submitting = state.status === 'submitting';
  const given = new Map<string, number>();
  for (const vote of myVotes?.votes ?? []) given.set(vote.optionId, (given.get(vote.optionId) ?? 0) + vote.points);

  function setPoints(optionId: string, points: number) {
    clear();
    setAllocations((current) => ({ ...current, [optionId]: Math.max(0, points) }));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!signedIn) {
      goToLogin();
      return;
    }
    const message = validateAllocations(allocations, available);
    if (message) {
      fail(message);
      return;
    }
    if (await submit({ allocations: toAllocationList(allocations) })) setAllocations({});
  }

  if (signedIn && myVotes && available <= 0) {
    const { dailyReset, resetsAt, maxPoints } = myVotes.availablePoints;
    return (
      <div className="space-y-3">
        <VoteFeedback state={state} errorId={errorId} />
        <div className="rounded-2xl bg-slate-100 px-4 py-4 text-center dark:bg-white/5">
          <p className="font-bold">Ya repartiste todos tus puntos en esta encuesta.</p>
          {dailyReset && resetsAt && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Tendrás {pointsLabel(maxPoints)} de nuevo el {formatDateTime(resetsAt)}.
            </p>
          )}
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset disabled={submitting} aria-describedby={state.status === 'error' ? errorId : counterId} className="space-y-3">
        <legend className="mb-1 text-lg font-extrabold">Reparte tus puntos</legend>
        <p
          id={counterId}
          aria-live="polite"
          className={`sticky top-2 z-10 rounded-2xl px-4 py-3 text-center text-xl font-black tabular-nums shadow-sm ${
            remaining < 0
              ? 'bg-rose-100 text-rose-800 dark:bg-rose-500/20 dark:text-rose-100'
              : 'bg-fuchsia-50 text-fuchsia-800 dark:bg-fuchsia-500/15 dark:text-fuchsia-100'
          }`}
        >
          {remainingText(remaining)}
        </p>
        <ul className="grid gap-2.5 sm:grid-cols-2">
          {rows.map(({ option, label }) => {
            const points = allocations[option.id] ?? 0;
            const before = given.get(option.id) ?? 0;
            return (
              <li
                key={option.id}
                className={`flex flex-wrap items-center gap-3 rounded-2xl p-3 ring-2 ${
                  points > 0
                    ? 'bg-fuchsia-50 ring-fuchsia-500 dark:bg-fuchsia-500/15 dark:ring-fuchsia-400'
                    : 'bg-white ring-slate-200 dark:bg-white/[0.03] dark:ring-white/10'
                }`}
              >
                <OptionAvatar option={option} label={label} size="md" />
                {/* On a narrow phone the stepper wraps below the name rather than squeezing it. */}
                <div className="min-w-32 flex-1">
                  <p className="leading-tight font-bold">{label}</p>
                  {before > 0 && <p className="text-xs font-semibold text-fuchsia-700 dark:text-fuchsia-300">Ya le diste {pointsLabel(before)}</p>}
                </div>
                <div className="ml-auto flex items-center gap-1.5">
                  <button
                    type="button"
                    className={stepButton}
                    aria-label={`Quitar un punto a ${label}`}
                    disabled={points <= 0}
                    onClick={() => setPoints(option.id, points - 1)}
                  >
                    −
                  </button>
                  <input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    aria-label={`Puntos para ${label}`}
                    placeholder="0"
                    value={points === 0 ? '' : points}
                    onChange={(event) => setPoints(option.id, parsePoints(event.target.value))}
                    className="h-12 w-16 rounded-xl border-2 border-slate-200 bg-white text-center text-xl font-black tabular-nums focus:border-fuchsia-500 dark:border-white/15 dark:bg-ink-950"
                  />
                  <button
                    type="button"
                    className={stepButton}
                    aria-label={`Sumar un punto a ${label}`}
                    disabled={remaining <= 0}
                    onClick={() => setPoints(option.id, points + 1)}
                  >
                    +
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>

      <VoteFeedback state={state} errorId={errorId} />
      <VoteButton submitting={submitting} />
    </form>
  );
}
