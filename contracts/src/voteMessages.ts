// Dependency-free, so the web bundle imports the same strings the server answers with.

/** The messages the spec shows for voting and sharing. */
export const VOTE_MESSAGES = {
  selectOption: 'Por favor selecciona una opción',
  assignPoint: 'Por favor asigna al menos 1 punto',
  tooManyPoints: (n: number) => `No puedes asignar más de ${n} puntos`,
  voteFailed: 'Error al votar',
  pollClosed: 'La encuesta está cerrada',
  foreignOption: 'La opción no pertenece a esta encuesta',
  pollNotFound: 'Poll not found',
  alreadyShared: 'You have already shared this poll today',
  /** 503 with Retry-After: the vote writer's queue is full or a vote waited too long in it; nothing was written. */
  busy: 'El servicio está ocupado, intenta de nuevo',
  /** 422: an Idempotency-Key already used by this user for a vote on another poll. */
  idempotencyKeyReused: 'Esta clave de idempotencia ya se usó para votar en otra encuesta',
} as const;
