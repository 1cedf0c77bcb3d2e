/**
 * The spec's voting and sharing texts (§5, §8). The contracts keep the same strings in
 * VOTE_MESSAGES, a module that also builds schemas at runtime; the bundle gets this copy instead.
 */
export const VOTE_MESSAGES = {
  selectOption: 'Por favor selecciona una opción',
  assignPoint: 'Por favor asigna al menos 1 punto',
  tooManyPoints: (n: number) => `No puedes asignar más de ${n} puntos`,
  voteFailed: 'Error al votar',
  pollClosed: 'La encuesta está cerrada',
  voted: '¡Voto registrado!',
  votingClosed: 'Votación cerrada',
} as const;
