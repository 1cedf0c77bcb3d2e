import type { AdminUserRow } from '@tribuna/contracts/api/admin/users';
import type { AdminUserDbRow } from './repository.ts';

export function presentAdminUser(row: AdminUserDbRow): AdminUserRow {
  return {
    id: row.id,
    displayName: row.display_name,
    username: row.username,
    email: row.email,
    avatarUrl: row.avatar_url,
    bio: row.bio,
    role: row.role,
    isSuspended: row.is_suspended,
    isDeleted: row.is_deleted,
    totalPoints: Number(row.total_points),
    voteCount: Number(row.vote_count),
    postCount: Number(row.post_count),
    commentCount: Number(row.comment_count),
    createdAt: row.created_at,
  };
}
