import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import { ApiError, errorMessage } from '../../lib/api';
import { newIdempotencyKey } from '../../lib/idempotencyKey';
import { offerPushAfterVote } from '../../lib/pushPrompt';
import { useSessionStore } from '../../lib/session/sessionStore';
import { castVote } from './api';
import { getDeviceFingerprint } from './deviceFingerprint';
import { VOTE_MESSAGES } from './voteMessages';

export type VoteChoice = { optionId: string } | { allocations: Array<{ optionId: string; points: number }> };

export type CastState = { status: 'idle' } | { status: 'submitting' } | { status: 'success' } | { status: 'error'; message: string };

/** Wait before the one automatic retry of a vote whose answer never came (network failure). */
export const VOTE_RETRY_DELAY_MS = 500;

const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Sends votes for a poll. Visitors go to /login instead (so does a user whose session ran out);
 * a refused vote leaves the server's message (Spanish), else 'Error al votar'. Each submit carries
 * its own Idempotency-Key; when the network fails it is retried once with the same key, so a vote
 * that was counted before its answer got lost is not counted twice.
 */
export function useCastVote(pollId: string, onVoted: (response: MyVotesResponse) => void) {
  const navigate = useNavigate();
  const [state, setState] = useState<CastState>({ status: 'idle' });

  const goToLogin = useCallback(() => navigate('/login', { state: { from: `/?encuesta=${encodeURIComponent(pollId)}` } }), [navigate, pollId]);

  const submit = useCallback(
    async (choice: VoteChoice): Promise<boolean> => {
      setState({ status: 'submitting' });
      const idempotencyKey = newIdempotencyKey();
      try {
        const input = { ...choice, deviceFingerprint: await getDeviceFingerprint() };
        const response = await castVote(pollId, input, idempotencyKey).catch(async (error: unknown) => {
          if (!isNetworkFailure(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, VOTE_RETRY_DELAY_MS));
          return castVote(pollId, input, idempotencyKey);
        });
        onVoted(response);
        setState({ status: 'success' });
        // '¿Te avisamos cuando abra la próxima votación?', once per device (features/push decides whether it can ask).
        offerPushAfterVote();
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          useSessionStore.getState().setUser(null);
          goToLogin();
          return false;
        }
        console.error(VOTE_MESSAGES.voteFailed, error);
        setState({ status: 'error', message: errorMessage(error, VOTE_MESSAGES.voteFailed) });
        return false;
      }
    },
    [pollId, onVoted, goToLogin],
  );

  /** A message found before sending (validation). */
  const fail = useCallback((message: string) => setState({ status: 'error', message }), []);
  const clear = useCallback(() => setState((current) => (current.status === 'submitting' ? current : { status: 'idle' })), []);

  return { state, submit, fail, clear, goToLogin };
}
