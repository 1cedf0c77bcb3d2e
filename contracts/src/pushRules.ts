// Web push (issue 31): the kinds a fan can opt into, their Spanish labels and defaults, the limits,
// the texts of the settings, the prompt and the admin's broadcast, and the payload the worker
// encrypts and the service worker shows. Dependency-free: the web bundle, the server, the worker and
// the service worker's tests read the same values.
import type { NotificationType } from './notificationRules.ts';

/**
 * - `poll_opened`: an admin's 'Notificar a los fans' after 'Activar' or 'Fijar en Landing' (a broadcast);
 * - `poll_closing`: 10 minutes before an active poll's end (a broadcast, sent by the worker's schedule);
 * - `replies`: a comment on my post, a reply to my comment;
 * - `mentions`: my @username in a post or comment;
 * - `reactions`: reactions to my posts and comments (off by default; grouped);
 * - `follows`: 'X empezó a seguirte';
 * - `groups`: a new post in a group I belong to.
 */
export const PUSH_KINDS = ['poll_opened', 'poll_closing', 'replies', 'mentions', 'reactions', 'follows', 'groups'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The kinds sent to every opted-in subscription at once (a row of push_broadcasts each). */
export const BROADCAST_PUSH_KINDS = ['poll_opened', 'poll_closing'] as const satisfies readonly PushKind[];
export type BroadcastPushKind = (typeof BROADCAST_PUSH_KINDS)[number];

export const PUSH_KIND_LABELS: Record<PushKind, string> = {
  poll_opened: 'Votación abierta',
  poll_closing: 'Cierra pronto',
  replies: 'Respuestas y comentarios',
  mentions: 'Menciones',
  reactions: 'Reacciones',
  follows: 'Nuevos seguidores',
  groups: 'Mis grupos',
};

/** A short explanation under each toggle. */
export const PUSH_KIND_HINTS: Record<PushKind, string> = {
  poll_opened: 'Cuando abre una votación nueva.',
  poll_closing: '10 minutos antes de que cierre una votación.',
  replies: 'Cuando comentan tu publicación o responden tu comentario.',
  mentions: 'Cuando alguien escribe tu @usuario.',
  reactions: 'Cuando reaccionan a lo que publicas (agrupadas).',
  follows: 'Cuando alguien empieza a seguirte.',
  groups: 'Cuando hay publicaciones nuevas en tus grupos.',
};

/** What a fan who never opened the preferences gets. */
export const PUSH_KIND_DEFAULTS: Record<PushKind, boolean> = {
  poll_opened: true,
  poll_closing: true,
  replies: true,
  mentions: true,
  reactions: false,
  follows: true,
  groups: true,
};

/** Which push kind carries each notification type (the rest are never pushed: report outcomes). */
export const PUSH_KIND_OF_NOTIFICATION: Partial<Record<NotificationType, PushKind>> = {
  post_comment: 'replies',
  comment_reply: 'replies',
  post_mention: 'mentions',
  comment_mention: 'mentions',
  post_reaction: 'reactions',
  comment_reaction: 'reactions',
  follow: 'follows',
};

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

/**
 * How each kind is sent (RFC 8030): `ttlSeconds` the push service keeps it for an offline device,
 * `urgency`, and `topic` (≤ 32 URL-safe characters): a newer message with the same topic replaces
 * one the push service still holds, so a newer 'Cierra pronto' replaces an older one, and a fan's
 * latest activity summary the previous one.
 */
export const PUSH_DELIVERY: Record<PushKind, { ttlSeconds: number; urgency: PushUrgency; topic: string }> = {
  poll_opened: { ttlSeconds: 60 * 60, urgency: 'high', topic: 'votacion-abierta' },
  poll_closing: { ttlSeconds: 10 * 60, urgency: 'high', topic: 'cierra-pronto' },
  replies: { ttlSeconds: 24 * 60 * 60, urgency: 'normal', topic: 'actividad' },
  mentions: { ttlSeconds: 24 * 60 * 60, urgency: 'normal', topic: 'actividad' },
  reactions: { ttlSeconds: 24 * 60 * 60, urgency: 'low', topic: 'actividad' },
  follows: { ttlSeconds: 24 * 60 * 60, urgency: 'low', topic: 'actividad' },
  groups: { ttlSeconds: 24 * 60 * 60, urgency: 'normal', topic: 'grupos' },
};

export const PUSH_LIMITS = {
  /** Devices (subscriptions) one fan may hold; subscribing an 11th is refused. */
  subscriptionsPerUser: 10,
  /** Characters of a subscription's endpoint URL. */
  endpointLength: 1024,
  /** A fan's own (non-broadcast) pushes: at most one per window, summarising what happened in it. */
  userWindowSeconds: 20,
  /** 'Cierra pronto' goes this many minutes before an active poll's end. */
  closingLeadMinutes: 10,
  /** Subscriptions a broadcast claims at a time, and requests in flight at once per worker. */
  broadcastBatch: 500,
  sendConcurrency: 16,
  /** Attempts per message on 429 / 5xx / network errors (backoff 5 s doubling, or Retry-After). */
  maxAttempts: 5,
  /** A message claimed this long ago by a worker that never confirmed it is taken again. */
  claimTimeoutSeconds: 120,
  /** Characters of a push's title and body. */
  titleLength: 80,
  bodyLength: 160,
} as const;

/**
 * Push services' hosts a production server accepts endpoints on (https only): Google's (Chrome,
 * Edge on Android, Opera…), Mozilla's, Apple's (Safari, iOS home-screen apps) and Microsoft's (Edge
 * on Windows). A host matches exactly, or as a subdomain of an entry starting with a dot. Anything
 * else, or an address in a private, loopback or link-local range after DNS resolution, is refused.
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '.push.apple.com',
  '.notify.windows.com',
] as const;

/**
 * What the worker encrypts for a subscription (RFC 8291 aes128gcm) and the service worker shows
 * (web/public/push-sw.js): `id` is also the notification's tag, so a copy received twice (a message
 * resent after a worker died before confirming it) replaces the first on the device instead of
 * showing twice.
 */
export interface PushPayload {
  id: string;
  kind: PushKind;
  title: string;
  body: string;
  /** A path of the site ('/?encuesta=…', '/publicaciones/…'): opened or focused on click. */
  url: string;
  icon?: string;
  /** When it was written (ISO); the service worker's timestamp. */
  at: string;
}

export const PUSH_TEXTS = {
  settingsTitle: 'Notificaciones push',
  settingsIntro: 'Recibe avisos en este dispositivo aunque Tribuna esté cerrada.',
  enable: 'Activar en este dispositivo',
  enabling: 'Activando…',
  disable: 'Desactivar en este dispositivo',
  enabled: 'Las notificaciones están activas en este dispositivo.',
  devicesTitle: 'Tus dispositivos',
  devicesEmpty: 'Todavía no activaste las notificaciones en ningún dispositivo.',
  thisDevice: 'Este dispositivo',
  remove: 'Quitar',
  removed: 'Dispositivo quitado',
  preferencesTitle: 'Avísame de',
  saved: 'Preferencias guardadas',
  denied:
    'Bloqueaste las notificaciones de Tribuna en este navegador. Para activarlas, permítelas en la configuración del sitio de tu navegador y vuelve a intentarlo.',
  unsupported: 'Este navegador no admite notificaciones push.',
  ios: 'En iPhone y iPad las notificaciones solo funcionan con Tribuna agregada a tu pantalla de inicio (iOS 16.4 o posterior): toca Compartir y luego «Agregar a inicio».',
  failed: 'No pudimos activar las notificaciones. Inténtalo de nuevo.',
  loadFailed: 'Error al cargar tus notificaciones push',
  promptTitle: '¿Te avisamos cuando abra la próxima votación?',
  promptBody: 'Te mandaremos una notificación a este dispositivo. Puedes cambiarlo cuando quieras en tu perfil.',
  promptAccept: 'Sí, avísame',
  promptDismiss: 'Ahora no',
  promptDone: '¡Listo! Te avisaremos.',
} as const;

export const PUSH_ADMIN_TEXTS = {
  notify: 'Notificar a los fans',
  confirmTitle: '¿Notificar a los fans?',
  confirmBody: 'Enviaremos una notificación push a todos los fans que activaron «Votación abierta». No se puede deshacer.',
  confirm: 'Enviar notificación',
  cancel: 'Cancelar',
  queued: 'Notificación en camino',
  broadcastsTitle: 'Notificaciones push',
  broadcastsEmpty: 'Todavía no se envió ninguna notificación push.',
} as const;

/** API errors (Spanish: the settings and the back-office show them as they are). */
export const PUSH_ERRORS = {
  endpointRefused: 'Este servicio de notificaciones no está permitido',
  tooManyDevices: 'Alcanzaste el máximo de 10 dispositivos con notificaciones',
  deviceNotFound: 'Dispositivo no encontrado',
  pollNotNotifiable: 'Solo se puede notificar una votación activa',
  alreadyNotified: 'Ya se notificó esta votación',
  pollNotFound: 'Poll not found',
} as const;

/** The broadcast's push texts. */
export function broadcastPushText(kind: BroadcastPushKind, pollTitle: string): { title: string; body: string } {
  return kind === 'poll_opened'
    ? { title: '¡Ya pueden votar!', body: `Votación abierta: ${pollTitle}` }
    : { title: 'Cierra pronto', body: `Quedan ${PUSH_LIMITS.closingLeadMinutes} minutos para votar: ${pollTitle}` };
}

/** Cuts a text to `max` characters with an ellipsis (titles and bodies of pushes). */
export function clipPushText(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
