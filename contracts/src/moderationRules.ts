// Safety (issue 29): reports, the moderation queue and its actions, timed silences, and a fan's own
// mute and block. Dependency-free: the web bundle shows the same texts the server answers.

/** What a fan may report. A profile report is about the person (impersonation, harassment). */
export const REPORT_TARGETS = ['post', 'comment', 'profile'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_REASONS = ['spam', 'harassment', 'sexual', 'violence', 'impersonation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The reasons as the report dialog and the queue show them. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Acoso o insultos',
  sexual: 'Contenido sexual',
  violence: 'Violencia',
  impersonation: 'Suplantación de identidad',
  other: 'Otro',
};

/** A report is open until a moderator acts on its item: then every open report of the item closes. */
export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * What a moderator does with a reported item:
 * - `dismiss` ('Descartar'): no action; the reports close as not infringing;
 * - `hide` ('Ocultar'): the post or comment disappears for everyone but its author, who sees
 *   'Oculto por moderación'; `restore` ('Restaurar') undoes it;
 * - `delete` ('Eliminar'): the post or comment is deleted as its author would;
 * - `silence` ('Silenciar al autor'): the author cannot post, comment or react for `silenceFor`;
 *   `unsilence` lifts it early;
 * - `suspend` ('Suspender', site admins only): the spec's suspension of the author's account.
 * Posts and comments take every action; a profile takes dismiss, silence, unsilence and suspend.
 */
export const MODERATION_ACTIONS = ['dismiss', 'hide', 'restore', 'delete', 'silence', 'unsilence', 'suspend'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const MODERATION_ACTION_LABELS: Record<ModerationAction, string> = {
  dismiss: 'Descartar',
  hide: 'Ocultar',
  restore: 'Restaurar',
  delete: 'Eliminar',
  silence: 'Silenciar al autor',
  unsilence: 'Quitar silencio',
  suspend: 'Suspender',
};

/** Actions that close the item's open reports as 'actioned' (the reporters hear 'tomamos medidas'). */
export const ACTIONS_THAT_ACT: readonly ModerationAction[] = ['hide', 'delete', 'silence', 'suspend'];

export const SILENCE_DURATIONS = ['1h', '24h', '7d'] as const;
export type SilenceDuration = (typeof SILENCE_DURATIONS)[number];
export const SILENCE_DURATION_MS: Record<SilenceDuration, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
export const SILENCE_DURATION_LABELS: Record<SilenceDuration, string> = { '1h': '1 hora', '24h': '24 horas', '7d': '7 días' };

export const MODERATION_LIMITS = {
  /** The reporter's optional comment. */
  reportComment: 500,
  /** The moderator's reason, kept in the audit log. */
  actionReason: 500,
  /** Distinct reporters (with accounts older than `trustedAccountAgeMs`) that hide an item pending review; the server's setting defaults to this. */
  autoHideReporters: 5,
  /** An account younger than this is new: its reports do not count towards auto-hide, and it posts and comments under tighter limits. */
  trustedAccountAgeMs: 86_400_000,
  /** Items per page of the moderation queue. */
  queuePageSize: 20,
  /** The latest reporters' comments shown per item in the queue. */
  commentsShown: 5,
  /** Muted or blocked people per page of the settings' lists. */
  safetyPageSize: 30,
} as const;

/** Mexico City time, as the silence's end is told to the silenced. */
const UNTIL_FORMAT = new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', dateStyle: 'long', timeStyle: 'short' });

/** '28 de noviembre de 2026, 15:30' for an ISO instant. */
export function formatSilencedUntil(iso: string): string {
  return UNTIL_FORMAT.format(new Date(iso));
}

export const MODERATION_MESSAGES = {
  // The reporter's side.
  reported: 'Gracias, revisaremos tu reporte',
  alreadyReported: 'Ya reportaste esto; lo estamos revisando',
  reportSelf: 'No puedes reportar tu propio contenido',
  targetNotFound: 'No encontramos lo que quieres reportar',
  reportFailed: 'No se pudo enviar el reporte. Inténtalo de nuevo.',
  reportTitle: 'Reportar',
  reportReasonLabel: '¿Por qué lo reportas?',
  reportCommentLabel: 'Comentario (opcional)',
  reportCommentTooLong: 'El comentario no puede tener más de 500 caracteres',
  // What readers and the author see.
  hiddenByModeration: 'Oculto por moderación',
  /** The silenced author, on every attempt to post, comment or react (403), and in the banner. */
  silenced: (untilIso: string) => `Tu cuenta está silenciada hasta el ${formatSilencedUntil(untilIso)}: no puedes publicar, comentar ni reaccionar.`,
  // The queue.
  queueTitle: 'Moderación',
  queueEmpty: 'No hay reportes pendientes',
  itemGone: 'El contenido ya no existe',
  actionDone: 'Acción aplicada',
  actionNotAllowed: 'Esta acción no aplica a este contenido',
  suspendAdminsOnly: 'Solo los administradores pueden suspender cuentas',
  nothingToModerate: 'No hay reportes de este contenido',
  cannotModerateStaff: 'No puedes moderar a otro miembro del equipo',
  silenceForRequired: 'Elige por cuánto tiempo silenciar',
  // Outcomes told to the reporters (notifications).
  outcomeActioned: 'Revisamos tu reporte: tomamos medidas',
  outcomeDismissed: 'Revisamos tu reporte: no infringe las normas',
  // A fan's own tools.
  muteSelf: 'No puedes silenciarte a ti mismo',
  blockSelf: 'No puedes bloquearte a ti mismo',
  blockedUser: 'No puedes interactuar con esta persona',
  muted: 'Silenciaste a esta persona: no verás sus publicaciones ni comentarios',
  blocked: 'Bloqueaste a esta persona',
  mutedListEmpty: 'No has silenciado a nadie',
  blockedListEmpty: 'No has bloqueado a nadie',
  userNotFound: 'Usuario no encontrado',
} as const;

/** The fan's side on the web: the report dialog, the menus' safety items, the settings' lists. */
export const SAFETY_UI = {
  /** The menus' item and the dialog's title. */
  report: 'Reportar',
  reportSubmit: 'Enviar reporte',
  reportReasonRequired: 'Elige un motivo',
  reportSignIn: 'Inicia sesión para reportar',
  reportSignInLink: 'Iniciar sesión',
  /** What is being reported, under the dialog's title. */
  reportSubject: {
    post: (name: string) => `Publicación de ${name}`,
    comment: (name: string) => `Comentario de ${name}`,
    profile: (name: string) => `Perfil de ${name}`,
  } satisfies Record<ReportTarget, (name: string) => string>,
  profileMenu: 'Opciones del perfil',
  mute: 'Silenciar',
  unmute: 'Dejar de silenciar',
  block: 'Bloquear',
  unblock: 'Desbloquear',
  blockTitle: (name: string) => `¿Bloquear a ${name}?`,
  blockBothWays: 'Ninguno de los dos podrá ver las publicaciones ni los comentarios del otro, ni comentarlas, reaccionar, mencionarse o seguirse.',
  blockEndsFollows: 'Si se siguen, dejarán de seguirse, y al desbloquear no vuelven a seguirse solos.',
  blockReversible: 'Puedes desbloquear cuando quieras desde su perfil o desde tu configuración.',
  unmuted: 'Ya no silencias a esta persona',
  unblocked: 'Desbloqueaste a esta persona',
  changeFailed: 'No se pudo guardar el cambio. Inténtalo de nuevo.',
  /** The own profile's settings heading above both lists. */
  settingsTitle: 'Silenciados y bloqueados',
  mutedListTitle: 'Personas silenciadas',
  blockedListTitle: 'Personas bloqueadas',
  listLoadFailed: 'No se pudo cargar la lista',
  remove: 'Quitar',
  /** 'Quitar' as screen readers hear it (the visible word first). */
  removeMuted: (name: string) => `Quitar a ${name} de las personas silenciadas`,
  removeBlocked: (name: string) => `Quitar a ${name} de las personas bloqueadas`,
} as const;

// --- The queue's screen (/admin/moderacion) -------------------------------------------------------

export const REPORT_TARGET_LABELS: Record<ReportTarget, string> = { post: 'Publicación', comment: 'Comentario', profile: 'Perfil' };

/** The queue's status filter: items with open reports, or whose reports were closed so. */
export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = { open: 'Pendientes', dismissed: 'Descartados', actioned: 'Con medidas' };

/** A reported item's state as the queue shows it (`autoHidden`: hidden with no moderator's action yet). */
export const MODERATION_STATE_LABELS = {
  visible: 'Visible',
  hidden: 'Oculto',
  autoHidden: 'Oculto automáticamente en espera de revisión',
  deleted: 'Eliminado',
} as const;

/** An earlier action in the author's history, as done ('Ocultado el 5 ene 2025'). */
export const MODERATION_ACTION_DONE_LABELS: Record<ModerationAction, string> = {
  dismiss: 'Reportes descartados',
  hide: 'Ocultado',
  restore: 'Restaurado',
  delete: 'Eliminado',
  silence: 'Silenciado',
  unsilence: 'Silencio retirado',
  suspend: 'Suspendido',
};

export const MODERATION_QUEUE_TEXTS = {
  description: 'Lo que reportaron los fans, agrupado por contenido: revísalo y decide qué hacer.',
  statusFilter: 'Estado',
  reasonFilter: 'Motivo',
  allReasons: 'Todos',
  loading: 'Cargando reportes…',
  loadFailed: 'Error al cargar los reportes',
  emptyFiltered: 'No hay reportes con estos filtros',
  reports: (n: number) => (n === 1 ? '1 reporte' : `${n.toLocaleString('es')} reportes`),
  /** The navigation badge's text alternative. */
  pending: (n: number) => (n === 1 ? '1 pendiente' : `${n.toLocaleString('es')} pendientes`),
  lastReport: 'Último reporte:',
  reportersComments: 'Comentarios de quienes reportaron',
  reasons: 'Motivos',
  author: 'Autor',
  accountCreated: (date: string) => `Cuenta creada el ${date}`,
  suspended: 'Suspendido',
  silencedUntil: (untilIso: string) => `Silenciado hasta el ${formatSilencedUntil(untilIso)}`,
  reportsReceived: (n: number) => (n === 1 ? '1 reporte recibido' : `${n.toLocaleString('es')} reportes recibidos`),
  history: 'Medidas anteriores',
  noHistory: 'Sin medidas anteriores',
  viewPost: 'Ver publicación',
  viewProfile: 'Ver perfil',
  inGroup: (group: string) => `En ${group}`,
  followersOnly: 'Solo para seguidores',
  images: (n: number) => (n === 1 ? '1 imagen' : `${n} imágenes`),
  viewImage: (index: number, of: number) => `Ver imagen ${index} de ${of}`,
  clip: 'Clip',
  viewClip: 'Ver clip',
  deletedProfile: 'Cuenta eliminada',
  actions: 'Acciones',
  reasonLabel: 'Motivo (opcional)',
  reasonHint: 'Queda registrado en la auditoría.',
  reasonTooLong: 'El motivo no puede tener más de 500 caracteres',
  silenceForLabel: 'Silenciar durante',
  actionFailed: 'No se pudo aplicar la acción. Inténtalo de nuevo.',
  /** What each action does, in its confirmation dialog. */
  confirm: {
    dismiss: 'Los reportes se cerrarán sin medidas y quienes reportaron sabrán que no infringe las normas.',
    hide: 'Dejará de verse para todos menos para su autor, que lo verá como «Oculto por moderación». Puedes restaurarlo después.',
    restore: 'Volverá a verse como antes para quienes pueden leerlo.',
    delete: 'Se eliminará como si lo borrara su autor. No se puede deshacer.',
    silence: 'El autor no podrá publicar, comentar ni reaccionar hasta que termine el silencio.',
    unsilence: 'El autor podrá volver a publicar, comentar y reaccionar.',
    suspend: 'La cuenta del autor quedará suspendida: se cerrarán sus sesiones y no podrá votar ni publicar.',
  } satisfies Record<ModerationAction, string>,
  /** The confirm button while the action runs. */
  busy: {
    dismiss: 'Descartando…',
    hide: 'Ocultando…',
    restore: 'Restaurando…',
    delete: 'Eliminando…',
    silence: 'Silenciando…',
    unsilence: 'Quitando silencio…',
    suspend: 'Suspendiendo…',
  } satisfies Record<ModerationAction, string>,
} as const;
