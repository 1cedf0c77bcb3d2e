import type { CommentView, MediaView, PostView, ReactionCounts, ReplyView } from '@tribuna/contracts/api/wall';
import { REACTION_TYPES } from '@tribuna/contracts/wallRules';
import type { CommentRow, PostRow, ReactionCountsRow } from './repository.ts';

export function presentReactions(counts: ReactionCountsRow): ReactionCounts {
  return Object.fromEntries(REACTION_TYPES.map((type) => [type, counts[type] ?? 0])) as ReactionCounts;
}

const author = (row: PostRow | CommentRow) => ({
  id: row.author_id,
  displayName: row.author_display_name,
  username: row.author_username,
  avatarUrl: row.author_avatar_url,
});

export function presentPost(row: PostRow): PostView {
  return {
    id: row.id,
    author: author(row),
    groupId: row.group_id,
    groupName: row.group_name,
    content: row.content,
    visibility: row.visibility,
    isPinned: row.is_pinned,
    editedAt: row.edited_at,
    createdAt: row.created_at,
    lastActivityAt: row.last_activity_at,
    media: row.media.map((m): MediaView => ({ ...m })),
    reactions: presentReactions(row.reactions),
    myReaction: row.my_reaction,
    commentCount: row.comment_count,
    // Only its author (and the moderation queue) ever reads a post hidden by moderation.
    ...(row.hidden_by_moderation ? { hiddenByModeration: true } : {}),
  };
}

export function presentComment(row: CommentRow): ReplyView {
  return {
    id: row.id,
    postId: row.post_id,
    parentCommentId: row.parent_comment_id,
    author: author(row),
    content: row.content,
    media: row.media_url
      ? {
          mediaType: 'image',
          url: row.media_url,
          thumbnailUrl: row.thumbnail_url,
          width: row.media_width,
          height: row.media_height,
          placeholder: row.media_placeholder,
          alt: row.media_alt,
        }
      : null,
    editedAt: row.edited_at,
    createdAt: row.created_at,
    reactions: presentReactions(row.reactions),
    myReaction: row.my_reaction,
    ...(row.hidden_by_moderation ? { hiddenByModeration: true } : {}),
  };
}

/** Top-level comments in order, each with its replies in order. */
export function presentThread(rows: CommentRow[]): CommentView[] {
  const top = new Map<string, CommentView>();
  for (const row of rows) if (!row.parent_comment_id) top.set(row.id, { ...presentComment(row), replies: [] });
  for (const row of rows) if (row.parent_comment_id) top.get(row.parent_comment_id)?.replies.push(presentComment(row));
  return [...top.values()];
}
