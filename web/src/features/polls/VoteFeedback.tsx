import { Alert } from '../../components/Alert';
import type { CastState } from './useCastVote';
import { VOTE_MESSAGES } from './voteMessages';

/** The form's outcome: the error (red box, announced at once) or '¡Voto registrado!'. */
export function VoteFeedback({ state, errorId }: { state: CastState; errorId: string }) {
  if (state.status === 'error') return <Alert id={errorId}>{state.message}</Alert>;
  if (state.status === 'success') return <Alert tone="success">{VOTE_MESSAGES.voted}</Alert>;
  return null;
}

export function VoteButton({ submitting }: { submitting: boolean }) {
  return (
    <button
      type="submit"
      disabled={submitting}
      className="brand-gradient w-full rounded-2xl px-6 py-4 text-lg font-black text-white shadow-lg shadow-fuchsia-600/25 transition hover:brightness-110 disabled:opacity-60 sm:w-auto sm:min-w-48"
    >
      {submitting ? 'Enviando…' : 'Votar'}
    </button>
  );
}
