// Notifications: their kinds and the Spanish sentence each entry reads as. Dependency-free: the
// web bundle builds the same text the server's tests check.
import { REACTION_TYPES, type ReactionType } from './wallRules.ts';

/**
 * - `post_reaction` / `comment_reaction`: someone reacted to your post / comment (grouped per item);
 * - `post_comment`: someone commented on your post;
 * - `comment_reply`: someone replied to your comment;
 * - `post_mention` / `comment_mention`: someone wrote your @username in a post / comment you may see;
 * - `follow`: someone started following you ('X empezó a seguirte'; no post);
 * - `report_actioned` / `report_dismissed`: your report was reviewed ('Revisamos tu reporte: tomamos
 *   medidas' / '…: no infringe las normas'; no post, and the moderator is never named: the actor
 *   column holds them for the record only).
 */
export const NOTIFICATION_TYPES = [
  'post_reaction',
  'comment_reaction',
  'post_comment',
  'comment_reply',
  'post_mention',
  'comment_mention',
  'follow',
  'report_actioned',
  'report_dismissed',
] as const;
/** Kinds without a post (the list does not join one). */
export const POSTLESS_NOTIFICATION_TYPES: readonly NotificationType[] = ['follow', 'report_actioned', 'report_dismissed'];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_LIMITS = {
  pageSize: 20,
  /** Characters of the post or comment quoted under an entry. */
  excerpt: 140,
  /** Mentions honoured per post or comment (the rest are plain text). */
  mentionsPerItem: 10,
} as const;

export const NOTIFICATION_MESSAGES = {
  empty: 'No tienes notificaciones',
  emptyHint: 'Te avisaremos cuando alguien reaccione, comente o te mencione en una publicación.',
  loadFailed: 'Error al cargar las notificaciones',
  deletedActor: 'Usuario eliminado',
} as const;

/** @username in a text: what counts as a mention (the username rules: 3-20 of a-z 0-9 _, case ignored). */
export const MENTION_PATTERN = /(^|[^A-Za-z0-9_@])@([A-Za-z0-9_]{3,20})(?![A-Za-z0-9_])/g;

/** The distinct usernames mentioned in a text, lower case, in order of appearance, at most `limit`. */
export function mentionedUsernames(text: string, limit: number = NOTIFICATION_LIMITS.mentionsPerItem): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MENTION_PATTERN)) {
    const name = match[2]!.toLowerCase();
    if (!found.includes(name)) found.push(name);
    if (found.length >= limit) break;
  }
  return found;
}

const REACTION_VERBS: Record<ReactionType, [singular: string, plural: string]> = {
  like: ['le gusta', 'les gusta'],
  love: ['le encanta', 'les encanta'],
  haha: ['le divierte', 'les divierte'],
  wow: ['le asombra', 'les asombra'],
  sad: ['le entristece', 'les entristece'],
  angry: ['le enoja', 'les enoja'],
};

export interface NotificationTextInput {
  type: NotificationType;
  /** The latest actor's name as shown (display name, else username, else 'Usuario'). */
  actorName: string;
  /** Other people in the same grouped entry (reactions only). */
  othersCount: number;
  /** The reaction types in a grouped reaction entry. */
  reactionTypes: readonly ReactionType[];
}

/**
 * The entry's sentence: 'A Ana le encanta tu publicación', 'A Ana y 3 personas más les encanta tu
 * comentario', 'Ana y 2 personas más reaccionaron a tu publicación' (different reactions),
 * 'Ana comentó tu publicación', 'Ana respondió a tu comentario', 'Ana te mencionó en una publicación',
 * 'Ana empezó a seguirte'.
 */
export function notificationText(entry: NotificationTextInput): string {
  const { actorName, othersCount } = entry;
  switch (entry.type) {
    case 'post_reaction':
    case 'comment_reaction': {
      const item = entry.type === 'post_reaction' ? 'tu publicación' : 'tu comentario';
      const others = othersCount > 0 ? ` y ${othersCount} ${othersCount === 1 ? 'persona' : 'personas'} más` : '';
      const types = [...new Set(entry.reactionTypes)].filter((t) => (REACTION_TYPES as readonly string[]).includes(t));
      if (types.length === 1) {
        const [singular, plural] = REACTION_VERBS[types[0]!];
        return `A ${actorName}${others} ${othersCount > 0 ? plural : singular} ${item}`;
      }
      return `${actorName}${others} ${othersCount > 0 ? 'reaccionaron' : 'reaccionó'} a ${item}`;
    }
    case 'post_comment':
      return `${actorName} comentó tu publicación`;
    case 'comment_reply':
      return `${actorName} respondió a tu comentario`;
    case 'post_mention':
      return `${actorName} te mencionó en una publicación`;
    case 'comment_mention':
      return `${actorName} te mencionó en un comentario`;
    case 'follow':
      return `${actorName} empezó a seguirte`;
    // Never the moderator's name (moderationRules.ts MODERATION_MESSAGES.outcome*, kept equal).
    case 'report_actioned':
      return 'Revisamos tu reporte: tomamos medidas';
    case 'report_dismissed':
      return 'Revisamos tu reporte: no infringe las normas';
  }
}
