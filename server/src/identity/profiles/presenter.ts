import type { Profile } from '@tribuna/contracts/api/me';
import type { ProfileComment, ProfileGroup, PublicProfile, VoteHistoryItem } from '@tribuna/contracts/api/profiles';
import type { ProfileCommentRow, ProfileGroupRow, PublicProfileRow, VoteHistoryRow } from './tabsRepository.ts';
import { ANONYMISED_DISPLAY_NAME } from './repository.ts';
import type { ProfileRow } from './repository.ts';

/** A profile as the API shows it (the Profile schema): public fields only, never the e-mail. */
export function presentProfile(row: ProfileRow, now: Date = new Date()): Profile {
  return {
    id: row.id,
    displayName: row.displayName,
    username: row.username,
    bio: row.bio,
    avatarUrl: row.avatarUrl,
    bannerUrl: row.bannerUrl,
    role: row.role,
    isSuspended: row.isSuspended,
    totalPoints: row.totalPoints,
    showInVoterLists: row.showInVoterLists,
    createdAt: row.createdAt.toISOString(),
    silencedUntil: row.silencedUntil && row.silencedUntil > now ? row.silencedUntil.toISOString() : null,
  };
}

export function presentPublicProfile(row: PublicProfileRow): PublicProfile {
  const deleted = row.is_deleted;
  return {
    id: row.id,
    displayName: deleted ? ANONYMISED_DISPLAY_NAME : row.display_name,
    username: deleted ? null : row.username,
    bio: deleted ? null : row.bio,
    avatarUrl: deleted ? null : row.avatar_url,
    bannerUrl: deleted ? null : row.banner_url,
    isDeleted: deleted,
    createdAt: row.created_at,
    followersCount: row.followers_count,
    followingCount: row.following_count,
    viewerFollows: row.viewer_follows,
    // Mute and block (issue 29): the viewer's own, for 'Silenciar' / 'Bloquear' and their undoing.
    viewerMuted: row.viewer_muted,
    viewerBlocked: row.viewer_blocked,
  };
}

export function presentVote(row: VoteHistoryRow): VoteHistoryItem {
  const removed = row.option_removed;
  const pollStatus =
    row.poll_status === 'closed' || (row.poll_status === 'active' && row.poll_ended) ? 'closed' : row.poll_status === 'active' ? 'active' : 'draft';
  return {
    id: row.id,
    pollId: row.poll_id,
    pollTitle: row.poll_title,
    pollStatus,
    optionText: removed ? null : (row.option_text ?? row.contestant_name),
    contestantName: removed ? null : row.contestant_name,
    contestantPhotoUrl: removed ? null : row.contestant_photo_url,
    optionRemoved: removed,
    points: row.points,
    createdAt: row.created_at,
  };
}

export function presentProfileComment(row: ProfileCommentRow): ProfileComment {
  return {
    id: row.id,
    content: row.content,
    parentCommentId: row.parent_comment_id,
    editedAt: row.edited_at,
    createdAt: row.created_at,
    post: {
      id: row.post_id,
      excerpt: row.post_content,
      author: {
        id: row.author_id,
        displayName: row.author_display_name,
        username: row.author_username,
        avatarUrl: row.author_avatar_url,
      },
    },
  };
}

export function presentProfileGroup(row: ProfileGroupRow): ProfileGroup {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatar_url,
    coverUrl: row.cover_url,
    privacy: row.privacy,
    role: row.role,
    joinedAt: row.joined_at,
  };
}
