import { sql } from 'drizzle-orm';
import type { Tx } from '@tribuna/drizzle/client';
import { MEDIA_URL_PREFIX } from '../../media/service.ts';

// The SQL of an account deletion beyond the profile itself (profiles/account.ts deleteOwnAccount),
// all run in its one transaction. What stays: posts, comments, reactions, votes and shares (without
// anything that identifies a device), group memberships, notifications the user caused (ids only).
// Follows go both ways: nobody follows 'Usuario eliminado', and it follows nobody; so do mutes and blocks.

/** The user's session rows, after endAllSessions revoked them (the revocation notifies every instance). */
export async function deleteSessions(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM sessions WHERE user_id = ${userId}`);
}

/** The points history (total_points is zeroed with the profile). */
export async function deletePointsHistory(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM user_points_history WHERE user_id = ${userId}`);
}

/** The user's own notifications (as recipient). */
export async function deleteNotificationsTo(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM notifications WHERE user_id = ${userId}`);
}

/** The user's follows, both ways (the counters of the others follow by trigger). */
export async function deleteFollows(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM follows WHERE follower_id = ${userId} OR followee_id = ${userId}`);
}

/** The user's mutes and blocks, both ways (issue 29): nobody mutes or blocks 'Usuario eliminado', and it hides nobody. */
export async function deleteMutesAndBlocks(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM user_mutes WHERE user_id = ${userId} OR muted_id = ${userId}`);
  await tx.execute(sql`DELETE FROM user_blocks WHERE blocker_id = ${userId} OR blocked_id = ${userId}`);
}

/** Votes stay in the results; the device fingerprint and browser of each go. Idempotency keys go. */
export async function scrubVotes(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    UPDATE votes SET user_agent = NULL, device_fingerprint = NULL
    WHERE user_id = ${userId} AND (user_agent IS NOT NULL OR device_fingerprint IS NOT NULL)`);
  await tx.execute(sql`DELETE FROM vote_requests WHERE user_id = ${userId}`);
}

/** Page views stay in the counts, without the browser. */
export async function scrubPageViews(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`UPDATE page_views SET user_agent = NULL WHERE user_id = ${userId} AND user_agent IS NOT NULL`);
}

/**
 * Deletes the media rows of images the user uploaded that nothing names any more (their avatar and
 * banner once the profile is cleared, uploads never saved), and returns their keys: the files go
 * after commit (MediaService.discard). Images of posts and comments, and anything a profile, group
 * or contestant names, stay.
 */
export async function deleteUnusedUploads(tx: Tx, userId: string): Promise<{ key: string; thumbKey: string }[]> {
  const url = (column: string) => sql.raw(`'${MEDIA_URL_PREFIX}' || m.${column}`);
  const named = (column: string) => sql`(
    EXISTS (SELECT 1 FROM post_media pm WHERE pm.url = ${url(column)} OR pm.thumbnail_url = ${url(column)})
    OR EXISTS (SELECT 1 FROM comments c WHERE c.media_url = ${url(column)} OR c.thumbnail_url = ${url(column)})
    OR EXISTS (SELECT 1 FROM profiles p WHERE p.avatar_url = ${url(column)} OR p.banner_url = ${url(column)})
    OR EXISTS (SELECT 1 FROM groups g WHERE g.avatar_url = ${url(column)} OR g.cover_url = ${url(column)})
    OR EXISTS (SELECT 1 FROM contestants ct WHERE ct.photo_url = ${url(column)}))`;
  const rows = await tx.execute<{ key: string; thumb_key: string }>(sql`
    DELETE FROM media m
    WHERE m.uploaded_by = ${userId}
      AND NOT EXISTS (SELECT 1 FROM post_media pm WHERE pm.media_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.media_id = m.id)
      AND NOT ${named('key')} AND NOT ${named('thumb_key')}
    RETURNING m.key, m.thumb_key`);
  return rows.map((row) => ({ key: row.key, thumbKey: row.thumb_key }));
}
