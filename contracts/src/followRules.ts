// Follows (issue 28). Dependency-free: the web bundle shows the same texts the server answers.
export const FOLLOW_LIMITS = {
  /** Followers / following per page. */
  pageSize: 30,
} as const;

export const FOLLOW_MESSAGES = {
  self: 'No puedes seguirte a ti mismo',
  userNotFound: 'Usuario no encontrado',
  loadFailed: 'Error al cargar la lista',
} as const;
