// Fan clubs (issue 28): privacy, roles, limits and messages. Dependency-free: the web bundle checks
// the same rules in the browser that the server enforces again.
export const GROUP_PRIVACIES = ['public', 'private'] as const;
export type GroupPrivacy = (typeof GROUP_PRIVACIES)[number];
export const GROUP_ROLES = ['admin', 'moderator', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export const GROUP_ROLE_LABELS: Record<GroupRole, string> = { admin: 'Admin', moderator: 'Moderador', member: 'Miembro' };
export const GROUP_PRIVACY_LABELS: Record<GroupPrivacy, string> = { public: 'Público', private: 'Privado' };

/**
 * The viewer's relation to a group: `none` (may join or ask), `requested` (a pending request),
 * `banned` (may not join or ask), or a member with a role.
 */
export const GROUP_RELATIONS = ['none', 'requested', 'banned', ...GROUP_ROLES] as const;
export type GroupRelation = (typeof GROUP_RELATIONS)[number];

export const GROUP_LIMITS = {
  nameMin: 3,
  nameMax: 50,
  description: 500,
  /** Groups one fan may create per day (a rolling 24 hours). */
  createsPerDay: 3,
  /** Directory cards per page. */
  directoryPageSize: 20,
  /** Members (and requests) per page. */
  membersPageSize: 30,
  /** Pinned posts a group's wall shows on top. */
  maxPinned: 3,
  /** The search box: at most this many characters. */
  search: 50,
} as const;

export const GROUP_MESSAGES = {
  // Shown to people (Spanish)
  nameLength: 'El nombre debe tener entre 3 y 50 caracteres',
  descriptionTooLong: 'La descripción no puede exceder 500 caracteres',
  createLimit: 'Solo puedes crear 3 grupos por día',
  notFound: 'Grupo no encontrado',
  notMember: 'No perteneces a este grupo',
  privateGroup: 'Este grupo es privado. Solicita unirte para ver sus publicaciones.',
  banned: 'No puedes unirte a este grupo',
  alreadyMember: 'Ya eres miembro de este grupo',
  alreadyRequested: 'Ya solicitaste unirte a este grupo',
  requestNotFound: 'La solicitud ya no existe',
  lastAdmin: 'Eres el único administrador. Nombra a otro administrador antes de salir del grupo.',
  successorNotMember: 'El nuevo administrador debe ser miembro del grupo',
  memberNotFound: 'Esa persona no es miembro del grupo',
  notGroupAdmin: 'Solo los administradores del grupo pueden hacer esto',
  notGroupModerator: 'Solo los administradores y moderadores del grupo pueden hacer esto',
  cannotRemoveStaff: 'Los moderadores no pueden expulsar a administradores ni a otros moderadores',
  cannotChangeOwnRole: 'No puedes cambiar tu propio rol',
  pinOnlyGroupPosts: 'Solo se pueden fijar publicaciones de un grupo',
  tooManyPinned: 'Un grupo puede tener como máximo 3 publicaciones fijadas',
  loadFailed: 'Error al cargar los grupos',
  empty: 'Todavía no hay grupos',
  emptySearch: 'Ningún grupo coincide con tu búsqueda',
  deleted: 'Grupo eliminado',
} as const;
