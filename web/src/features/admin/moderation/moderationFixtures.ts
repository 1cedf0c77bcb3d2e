// Test data of the moderation queue (shapes from contracts/src/api/moderation.ts).
import type { ModeratedAuthor, ModerationActionResult, ModerationItem, ModerationQueue } from '@tribuna/contracts/api/moderation';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { buildAuthor, buildComment, buildPost } from '../../../test/wallFixtures';

export const REPORTED_AT = '2026-03-02T11:00:00.000Z';

export function buildModeratedAuthor(overrides: Partial<ModeratedAuthor> = {}): ModeratedAuthor {
  return {
    ...buildAuthor({ displayName: 'Luis Pérez', username: 'luis' }),
    createdAt: '2025-01-05T12:00:00.000Z',
    isSuspended: false,
    silencedUntil: null,
    reportsReceived: 1,
    history: [],
    ...overrides,
  };
}

/** A reported post by `author` (open, one spam report, every action but restore and unsilence). */
export function buildPostItem(overrides: Partial<ModerationItem> = {}): ModerationItem {
  const author = overrides.author ?? buildModeratedAuthor();
  const post =
    overrides.post ?? buildPost({ author: { id: author.id, displayName: author.displayName, username: author.username, avatarUrl: author.avatarUrl } });
  return {
    targetType: 'post',
    targetId: post.id,
    reportCount: 1,
    reasons: { spam: 1 },
    comments: [],
    firstReportedAt: REPORTED_AT,
    lastReportedAt: REPORTED_AT,
    state: 'visible',
    autoHidden: false,
    post,
    comment: null,
    profile: null,
    author,
    actions: ['dismiss', 'hide', 'delete', 'silence', 'suspend'],
    ...overrides,
  };
}

export function buildCommentItem(overrides: Partial<ModerationItem> = {}): ModerationItem {
  const author = overrides.author ?? buildModeratedAuthor({ displayName: 'Marta Ruiz', username: 'marta' });
  const comment = buildComment(buildPost().id, {
    author: { id: author.id, displayName: author.displayName, username: author.username, avatarUrl: author.avatarUrl },
    content: 'Eres lo peor',
  });
  return buildPostItem({ targetType: 'comment', targetId: comment.id, post: null, comment, author, ...overrides });
}

export function buildProfileItem(overrides: Partial<ModerationItem> = {}): ModerationItem {
  const author = overrides.author ?? buildModeratedAuthor({ displayName: 'Ximena Oficial', username: 'ximena_real' });
  return buildPostItem({
    targetType: 'profile',
    targetId: author.id,
    post: null,
    comment: null,
    profile: {
      id: author.id,
      displayName: author.displayName,
      username: author.username,
      avatarUrl: author.avatarUrl,
      bio: 'La verdadera Ximena',
      isDeleted: false,
    },
    author,
    reasons: { impersonation: 2 },
    reportCount: 2,
    actions: ['dismiss', 'silence', 'suspend'],
    ...overrides,
  });
}

export const queuePage = (items: ModerationItem[], nextCursor: string | null = null): ModerationQueue => ({ items, nextCursor });

export const actionResult = (item: ModerationItem | null, closedReports: number, message: string = MODERATION_MESSAGES.actionDone): ModerationActionResult => ({
  item,
  closedReports,
  message,
});
