/**
 * A moderator's action closed reports, told to the other domains INSIDE the action's transaction
 * (the `moderation.resolved` transactional event; the notifications join it: each reporter's
 * 'Revisamos tu reporte: …' is written with the action, or not at all).
 */
export interface ReportsResolved {
  /** Who acted (kept as the notifications' actor for the record; never shown to the reporters). */
  moderatorId: string;
  /** 'actioned' for hide, delete, silence and suspend; 'dismissed' for dismiss. */
  outcome: 'actioned' | 'dismissed';
  /** The reports closed: one notification each (its dedupe key), to its reporter. */
  reports: { id: string; reporterId: string }[];
}

declare module '../events/bus.ts' {
  interface TransactionalEvents {
    /** Open reports closed by a moderation action, inside its transaction (moderation/service.ts). */
    'moderation.resolved': ReportsResolved;
  }
}
