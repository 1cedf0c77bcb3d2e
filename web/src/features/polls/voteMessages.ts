import { VOTE_MESSAGES as SPEC_MESSAGES } from '@tribuna/contracts/voteMessages';

/** The spec's voting texts (§5, §8), shared with the server, plus the form's own Spanish labels. */
export const VOTE_MESSAGES = {
  ...SPEC_MESSAGES,
  voted: '¡Voto registrado!',
  votingClosed: 'Votación cerrada',
} as const;
