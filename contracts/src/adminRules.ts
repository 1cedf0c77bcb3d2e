// The back-office's rules and texts (spec admin-backoffice.md §4, §5, §8, §9). Dependency-free:
// the web bundle checks the same rules in its forms that the server enforces again.

export const ADMIN_LIMITS = {
  realityName: 100,
  seasonYearMin: 2000,
  seasonYearMax: 2100,
  contestantName: 100,
  pollTitle: 200,
  pollDescription: 2000,
  optionText: 200,
  minOptions: 2,
  maxOptions: 50,
  defaultTotalPoints: 10,
  minTotalPoints: 2,
  maxTotalPoints: 1000,
  recentPolls: 5,
  recentActivity: 10,
  /** Contestant photos: the pipeline crops them square to this size. */
  contestantPhotoPx: 800,
  contestantPhotoBytes: 5 * 1024 * 1024,
  /** Users screen page size. */
  usersPageSize: 20,
  /** The largest points adjustment either way. */
  maxPointsAdjustment: 1_000_000,
  pointsDescription: 200,
  /** Audit log page size. */
  auditPageSize: 50,
} as const;

export const CONTESTANT_STATUS_LABELS = { active: 'Activo', eliminated: 'Eliminado', finalist: 'Finalista', winner: 'Ganador' } as const;
export type ContestantStatus = keyof typeof CONTESTANT_STATUS_LABELS;
export const CONTESTANT_STATUSES = Object.keys(CONTESTANT_STATUS_LABELS) as ContestantStatus[];
/** Statuses that carry an elimination date, and those that carry a final position (§4). */
export const STATUSES_WITH_ELIMINATION_DATE: readonly ContestantStatus[] = ['eliminated', 'finalist', 'winner'];
export const STATUSES_WITH_FINAL_POSITION: readonly ContestantStatus[] = ['finalist', 'winner'];
/** Contestants a poll may offer as options. */
export const VOTABLE_CONTESTANT_STATUSES: readonly ContestantStatus[] = ['active', 'eliminated'];

export const ADMIN_POLL_STATUS_LABELS = { active: 'Activa', draft: 'Borrador', closed: 'Finalizada' } as const;
/** The dashboard's label for a status it does not know. */
export const UNKNOWN_STATUS_LABEL = 'Sin estado';

export const ADMIN_MESSAGES = {
  // Forms (§5)
  realityNameRequired: 'El nombre es obligatorio',
  realityRequired: 'Debe seleccionar un reality',
  yearRange: 'El año debe estar entre 2000 y 2100',
  seasonDates: 'La fecha de fin debe ser posterior a la fecha de inicio',
  seasonNotFound: 'Temporada no encontrada',
  seasonNumberTaken: 'Ya existe una temporada con ese número en este reality',
  // Restoring what was deleted ('Mostrar eliminados'): beyond the spec, same tone.
  realityNotDeleted: 'El reality no está eliminado',
  seasonNotDeleted: 'La temporada no está eliminada',
  seasonRealityDeleted: 'No se puede restaurar la temporada porque su reality está eliminado. Restaura primero el reality.',
  contestantNotDeleted: 'El concursante no está eliminado',
  contestantSeasonDeleted: 'No se puede restaurar el concursante porque su temporada está eliminada. Restaura primero la temporada.',
  realityNotFound: 'Reality no encontrado',
  contestantSeasonRequired: 'Debe seleccionar una temporada',
  contestantNameRequired: 'El nombre es obligatorio',
  contestantNotFound: 'Concursante no encontrado',
  photoUrlInvalid: 'La URL de la foto debe ser una URL https válida',
  finalPositionInvalid: 'La posición final debe ser un número entero mayor o igual a 1',
  pollTitleRequired: 'El título es obligatorio',
  pollSeasonRequired: 'Debe seleccionar una temporada',
  minContestants: 'Debes seleccionar al menos 2 concursantes',
  minOptions: 'Debes agregar al menos 2 opciones',
  endDateRequired: 'Debes especificar la fecha de cierre',
  totalPointsMin: 'El total de puntos debe ser al menos 2',
  reopenNeedsOptions: 'La encuesta debe tener al menos 2 opciones',
  pollNotFound: 'Encuesta no encontrada',
  pollLocked: 'No se puede cambiar la temporada, el modo de voto ni el tipo de opciones de una encuesta existente',
  optionNotInPoll: 'La opción no pertenece a esta encuesta',
  contestantNotInSeason: 'El concursante no pertenece a la temporada de la encuesta o no está disponible',
  invalidTransition: 'La encuesta no puede pasar a ese estado',
  featureDraft: 'Una encuesta en borrador no se puede fijar en Landing: actívala primero',
  noContestantsAvailable: 'No hay concursantes disponibles en esta temporada',
  // Confirmations
  confirmDeleteContestant: '¿Estás seguro de eliminar este concursante?',
  confirmDeletePoll: '¿Estás seguro de eliminar esta encuesta? Se eliminarán todos sus votos, opciones y configuración.',
  activateSeasonWarning: 'Al activar esta temporada se desactivarán las demás temporadas de este reality.',
  // Empty states (§8)
  noRealities: 'No hay realities registrados...',
  noRealitiesAvailable: 'No hay realities disponibles',
  noSeasons: 'No hay temporadas registradas...',
  noContestants: 'No hay concursantes registrados. Agrega uno para comenzar.',
  noPolls: 'No hay encuestas registradas. Crea una para comenzar.',
  // Fallbacks (§8)
  loadSeasonsFailed: 'Error al cargar las temporadas',
  saveSeasonFailed: 'Error al guardar la temporada',
  loadRealitiesFailed: 'Error al cargar los realities',
  toggleFailed: 'Error al cambiar el estado',
  saveRealityFailed: 'Error al guardar el reality',
  loadContestantsFailed: 'Error al cargar los concursantes',
  deleteContestantFailed: 'Error al eliminar el concursante',
  saveContestantFailed: 'Error al guardar el concursante',
  loadPollsFailed: 'Error al cargar las encuestas',
  activatePollFailed: 'Error al activar la encuesta',
  closePollFailed: 'Error al cerrar la encuesta',
  featurePollFailed: 'Error al fijar la encuesta',
  savePollFailed: 'Error al guardar la encuesta',
  deletePollFailed: 'Error al eliminar la encuesta',
  restoreRealityFailed: 'Error al restaurar el reality',
  restoreSeasonFailed: 'Error al restaurar la temporada',
  restoreContestantFailed: 'Error al restaurar el concursante',
  loadDashboardFailed: 'Error al cargar datos del dashboard',
  // Voters' history (public profile tab)
  removedOption: 'Opción eliminada',
} as const;

/** The 8 sidebar entries (§2), in order. */
/** Texts of the users screen (spec §5 User edit, Points adjustment; §8). */
export const USER_ADMIN_MESSAGES = {
  cannotDemoteSelf: 'No puedes quitarte tu propio rol de administrador',
  cannotSuspendSelf: 'No puedes suspender tu propia cuenta',
  pointsRequired: 'Debes especificar una cantidad de puntos',
  defaultPointsDescription: 'Ajuste manual por administrador',
  userNotFound: 'Usuario no encontrado',
  noEmail: 'Sin email',
  noUsers: 'No se encontraron usuarios con los filtros aplicados.',
  loadUsersFailed: 'Error al cargar usuarios',
  updateUserFailed: 'Error al actualizar usuario',
  adjustPointsFailed: 'Error al ajustar puntos',
  suspendFailed: 'Error al suspender usuario',
  unsuspendFailed: 'Error al reactivar usuario',
  statsFailed: 'Error al cargar estadísticas',
  confirmSuspend: '¿Suspender a este usuario? Se cerrarán todas sus sesiones y no podrá votar ni publicar.',
  confirmUnsuspend: '¿Reactivar a este usuario?',
} as const;

export const ROLE_LABELS = { admin: 'Admin', moderator: 'Moderador', user: 'Usuario' } as const;

/**
 * Beyond the spec's 8 entries: the moderation queue (issue 29; the only entry a moderator sees), the
 * audit log and the worker's queues (after them in the sidebar).
 */
export const ADMIN_EXTRA_NAV = [
  { path: '/admin/moderacion', label: 'Moderación' },
  { path: '/admin/auditoria', label: 'Auditoría' },
  { path: '/admin/colas', label: 'Colas' },
] as const;

export const AUDIT_MESSAGES = {
  empty: 'No hay acciones registradas con estos filtros.',
  loadFailed: 'Error al cargar la auditoría',
} as const;

export const QUEUE_MESSAGES = {
  loadFailed: 'Error al cargar las colas',
  retryFailed: 'Error al reintentar el trabajo',
  noFailures: 'Sin fallos recientes',
} as const;

export const ADMIN_NAV = [
  { path: '/admin', label: 'Dashboard' },
  { path: '/admin/realitys', label: 'Realities' },
  { path: '/admin/temporadas', label: 'Temporadas' },
  { path: '/admin/concursantes', label: 'Concursantes' },
  { path: '/admin/encuestas', label: 'Encuestas' },
  { path: '/admin/informes', label: 'Informes' },
  { path: '/admin/usuarios', label: 'Usuarios' },
  { path: '/admin/abuse-report', label: 'Detección de abuso' },
] as const;
