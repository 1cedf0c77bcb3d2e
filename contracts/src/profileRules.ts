// Profiles: limits, messages and the URL rules for avatars and banners. Dependency-free: the web
// form checks the same rules the server enforces again (spec §2 Profile, §5 Profile, §8, §9).

export const PROFILE_LIMITS = {
  displayName: 50,
  usernameMin: 3,
  usernameMax: 20,
  bio: 500,
  /** Avatar and banner uploads. */
  imageBytes: 5 * 1024 * 1024,
  /** Posts and comments tabs. */
  pageSize: 20,
  /** Voting history: the latest votes. */
  votingHistory: 50,
  /** Longest URL accepted for an avatar or banner. */
  url: 2048,
} as const;

/** Usernames: 3-20 of a-z 0-9 _ (lower case; compared ignoring case). */
export const USERNAME_PATTERN = /^[a-z0-9_]{3,20}$/;

/** The types an avatar or banner may be (sniffed from the bytes on the server). */
export const PROFILE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The shapes uploads are cropped to (the spec's recommended sizes). */
export const PROFILE_IMAGE_SHAPES = {
  avatar: { width: 400, height: 400 },
  banner: { width: 1500, height: 500 },
} as const;
export type ProfileImageKind = keyof typeof PROFILE_IMAGE_SHAPES;

/** The multipart field of POST /api/me/avatar and /api/me/banner. */
export const PROFILE_IMAGE_FIELD = 'image';

/** The Google user-content host (sign-in pictures) besides this site's own /media/. */
export const GOOGLE_USER_CONTENT_SUFFIX = '.googleusercontent.com';

export const PROFILE_MESSAGES = {
  // Screen (Spanish)
  notFound: 'Perfil no encontrado',
  backHome: 'Volver al inicio',
  fallbackName: 'Usuario',
  deletedName: 'Usuario eliminado',
  votingPrivate: 'El historial de votaciones es privado',
  votesEmpty: 'Aún no has votado en ninguna encuesta',
  removedOption: 'Opción eliminada',
  postsEmptyOwn: 'Aún no has creado ningún post',
  postsEmptyOther: 'Este usuario no tiene posts públicos',
  commentsEmptyOwn: 'Aún no has comentado en ningún post',
  commentsEmptyOther: 'Este usuario no tiene comentarios',
  groupsEmptyOwn: 'Aún no perteneces a ningún grupo',
  groupsEmptyOther: 'Este usuario no pertenece a grupos públicos',
  votesLoadFailed: 'Error al cargar el historial de votaciones',
  postsLoadFailed: 'Error al cargar los posts',
  commentsLoadFailed: 'Error al cargar los comentarios',
  groupsLoadFailed: 'Error al cargar los grupos',
  // Edit dialog (Spanish)
  nameEmpty: 'El nombre no puede estar vacío',
  nameTooLong: 'El nombre no puede exceder 50 caracteres',
  usernameChars: 'El nombre de usuario solo puede contener letras, números y guiones bajos',
  usernameTooShort: 'El nombre de usuario debe tener al menos 3 caracteres',
  usernameTooLong: 'El nombre de usuario no puede exceder 20 caracteres',
  bioTooLong: 'La biografía no puede exceder 500 caracteres',
  imageTooLarge: 'La imagen no debe superar los 5MB',
  imageType: 'Solo se permiten imágenes JPG, PNG o WebP',
  updateFailed: 'Error al actualizar el perfil',
  avatarHttps: 'La URL del avatar debe usar HTTPS',
  avatarHost: 'La URL del avatar no es de un dominio permitido',
  avatarInvalid: 'URL de avatar inválida',
  bannerHttps: 'La URL del banner debe usar HTTPS',
  bannerHost: 'La URL del banner no es de un dominio permitido',
  bannerInvalid: 'URL de banner inválida',
  // Delete dialog (Spanish)
  deleteConfirm: 'Debes escribir "ELIMINAR" para confirmar',
  deleteFailed: 'Error al eliminar la cuenta',
  // API (English, as the spec's services answer)
  profileNotFound: 'Profile not found',
  votingHistoryPrivate: 'Voting history is private',
  usernameInvalid: 'Username must be 3-20 characters and contain only letters, numbers, and underscores',
  usernameTaken: 'Username already taken',
  imageTypeApi: 'Invalid file type. Only JPG, PNG, and WebP images are allowed',
  imageTooLargeApi: 'File size exceeds 5MB limit',
  hardDelete: 'Hard delete must be requested through support',
} as const;

export const DELETE_CONFIRMATION_WORD = 'ELIMINAR';

const URL_MESSAGES = {
  avatar: { https: PROFILE_MESSAGES.avatarHttps, host: PROFILE_MESSAGES.avatarHost, invalid: PROFILE_MESSAGES.avatarInvalid },
  banner: { https: PROFILE_MESSAGES.bannerHttps, host: PROFILE_MESSAGES.bannerHost, invalid: PROFILE_MESSAGES.bannerInvalid },
} as const;

/**
 * Why an avatar or banner URL is refused, or null when it is accepted. Accepted: this site's own
 * uploads (`/media/…`, relative or on `siteOrigin`, whatever its scheme: http in development) and
 * https URLs on the Google user-content host. Refused: anything unparsable ('URL de … inválida'),
 * javascript:, data:, vbscript:, file: and plain http elsewhere ('… debe usar HTTPS'), other hosts.
 */
export function imageUrlProblem(kind: ProfileImageKind, value: string, siteOrigin: string): string | null {
  const messages = URL_MESSAGES[kind];
  const raw = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses or strips
  if (!raw || raw.length > PROFILE_LIMITS.url || /[\u0000-\u0020\u007f-\u009f\\]/.test(raw)) return messages.invalid;
  let url: URL;
  let site: URL;
  try {
    site = new URL(siteOrigin);
    url = new URL(raw, site);
  } catch {
    return messages.invalid;
  }
  const ownMedia = url.origin === site.origin && url.pathname.startsWith('/media/') && !url.username && !url.password;
  if (ownMedia && (raw.startsWith('/media/') || raw.startsWith(site.origin + '/'))) return null;
  if (url.protocol !== 'https:') return messages.https;
  if (url.username || url.password || url.port) return messages.host;
  if (url.hostname.endsWith(GOOGLE_USER_CONTENT_SUFFIX)) return null;
  return messages.host;
}
