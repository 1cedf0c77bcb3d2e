import { useId, useState, type FormEvent } from 'react';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { Poll } from '@tribuna/contracts/api/polls';
import { CheckIcon } from '../../components/icons';
import { OptionAvatar } from './OptionAvatar';
import type { OptionRow } from './pollView';
import { useCastVote } from './useCastVote';
import { VoteButton, VoteFeedback } from './VoteFeedback';
import { validateSingleChoice } from './voteValidation';

interface SingleChoiceFormProps {
  poll: Poll;
  rows: OptionRow[];
  signedIn: boolean;
  myVotes: MyVotesResponse | null;
  onVoted: (response: MyVotesResponse) => void;
}

/**
 * Single-choice vote: one option from a radio group of big cards. Once the user has voted the
 * choice is shown locked, with 'Cambiar voto' to pick again (the new vote replaces the old one).
 */
export function SingleChoiceForm({ poll, rows, signedIn, myVotes, onVoted }: SingleChoiceFormProps) {
  const { state, submit, fail, clear, goToLogin } = useCastVote(poll.id, onVoted);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const legendId = useId();
  const errorId = useId();

  const currentOptionId = myVotes?.votes[0]?.optionId ?? null;
  const locked = currentOptionId !== null && !editing;
  const checkedId = locked ? currentOptionId : selected;
  const submitting = state.status === 'submitting';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!signedIn) {
      goToLogin();
      return;
    }
    const message = validateSingleChoice(selected);
    if (message || !selected) {
      fail(message ?? '');
      return;
    }
    if (await submit({ optionId: selected })) {
      setEditing(false);
      setSelected(null);
    }
  }

  function startChange() {
    clear();
    setSelected(currentOptionId);
    setEditing(true);
  }

  function cancelChange() {
    clear();
    setEditing(false);
    setSelected(null);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset disabled={locked || submitting} aria-describedby={state.status === 'error' ? errorId : undefined} className="space-y-3">
        <legend id={legendId} className="mb-3 text-lg font-extrabold">
          {locked ? 'Tu voto' : 'Elige a tu favorito'}
        </legend>
        <div className="grid gap-2.5 sm:grid-cols-2">
          {rows.map(({ option, label }) => {
            const checked = checkedId === option.id;
            const isCurrent = currentOptionId === option.id;
            return (
              <label
                key={option.id}
                className={`relative flex min-h-18 cursor-pointer items-center gap-3 rounded-2xl p-3 ring-2 transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-fuchsia-500 ${
                  checked
                    ? 'bg-fuchsia-50 ring-fuchsia-500 dark:bg-fuchsia-500/15 dark:ring-fuchsia-400'
                    : 'bg-white ring-slate-200 hover:ring-fuchsia-300 dark:bg-white/[0.03] dark:ring-white/10 dark:hover:ring-fuchsia-400/50'
                } ${locked && !checked ? 'opacity-60' : ''} ${locked ? 'cursor-default' : ''}`}
              >
                <input
                  type="radio"
                  name={`voto-${poll.id}`}
                  value={option.id}
                  checked={checked}
                  onChange={() => {
                    setSelected(option.id);
                    clear();
                  }}
                  // Covers the whole card, transparent: a tap anywhere on it is a tap on the radio itself.
                  className="absolute inset-0 z-10 size-full cursor-pointer appearance-none rounded-2xl opacity-0 disabled:cursor-default"
                />
                <OptionAvatar option={option} label={label} />
                <span className="min-w-0 flex-1 text-base leading-tight font-bold">{label}</span>
                {isCurrent && (
                  <span className="shrink-0 rounded-full bg-fuchsia-600 px-2.5 py-1 text-xs font-bold text-white dark:bg-fuchsia-500">Tu voto</span>
                )}
                <span
                  aria-hidden="true"
                  className={`inline-flex size-7 shrink-0 items-center justify-center rounded-full border-2 ${
                    checked
                      ? 'border-fuchsia-600 bg-fuchsia-600 text-white dark:border-fuchsia-400 dark:bg-fuchsia-500'
                      : 'border-slate-300 dark:border-white/25'
                  }`}
                >
                  {checked && <CheckIcon className="size-4" />}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <VoteFeedback state={state} errorId={errorId} />

      <div className="flex flex-col gap-2 sm:flex-row">
        {locked ? (
          <button
            type="button"
            onClick={startChange}
            className="w-full rounded-2xl border-2 border-fuchsia-500 px-6 py-3.5 text-lg font-bold text-fuchsia-700 transition hover:bg-fuchsia-600/5 sm:w-auto dark:text-fuchsia-300"
          >
            Cambiar voto
          </button>
        ) : (
          <>
            <VoteButton submitting={submitting} />
            {editing && (
              <button
                type="button"
                onClick={cancelChange}
                className="w-full rounded-2xl px-6 py-3.5 font-semibold text-slate-600 transition hover:bg-slate-100 sm:w-auto dark:text-slate-300 dark:hover:bg-white/10"
              >
                Cancelar
              </button>
            )}
          </>
        )}
      </div>
    </form>
  );
}
