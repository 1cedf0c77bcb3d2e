import type { ModeratedAuthor, ModerationItem, ReportedProfile } from '@tribuna/contracts/api/moderation';
import type { CommentView, PostView } from '@tribuna/contracts/api/wall';
import type { ModerationAction } from '@tribuna/contracts/moderationRules';
import type { AuthorRow, QueueRow } from './repository.ts';

/** A reported item's author (or a reported profile's owner) as the queue judges them. */
export function presentAuthor(row: AuthorRow): ModeratedAuthor {
  return {
    id: row.id,
    displayName: row.display_name,
    username: row.username,
    avatarUrl: row.avatar_url,
    createdAt: row.created_at,
    isSuspended: row.is_suspended,
    silencedUntil: row.silenced_until,
    reportsReceived: row.reports_received,
    history: row.history.map((entry) => ({ action: entry.action, targetType: entry.targetType, at: entry.at, reason: entry.reason })),
  };
}

/** A reported profile as the queue shows it. */
export function presentReportedProfile(row: AuthorRow): ReportedProfile {
  return { id: row.id, displayName: row.display_name, username: row.username, avatarUrl: row.avatar_url, bio: row.bio, isDeleted: row.is_deleted };
}

export interface ItemParts {
  author: AuthorRow;
  /** The post or comment as its readers see it; absent once deleted. */
  post?: PostView;
  comment?: CommentView;
  actions: ModerationAction[];
}

/** One item of the queue: its reports grouped (never who made them), the item as readers see it, its author. */
export function presentItem(row: QueueRow, parts: ItemParts): ModerationItem {
  const gone = row.state === 'deleted';
  return {
    targetType: row.target_type,
    targetId: row.target_id,
    reportCount: row.report_count,
    reasons: row.reasons,
    comments: row.comments,
    firstReportedAt: row.first_reported_at,
    lastReportedAt: row.last_reported_at,
    state: row.state,
    autoHidden: row.auto_hidden,
    post: row.target_type === 'post' && !gone ? (parts.post ?? null) : null,
    comment: row.target_type === 'comment' && !gone ? (parts.comment ?? null) : null,
    profile: row.target_type === 'profile' ? presentReportedProfile(parts.author) : null,
    author: presentAuthor(parts.author),
    actions: parts.actions,
  };
}
