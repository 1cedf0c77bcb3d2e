// The access policy: "may this viewer see / do this to that", for one item at a time. Lists are
// filtered in SQL by ./predicates.ts (the same rules); routes, live topics and notifications ask
// here, and no other module decides visibility. A rule for a new kind of item (a group's wall,
// follows, mutes, blocks) is added here and in ./predicates.ts.
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import * as repo from './repository.ts';
import type { Viewer } from './viewer.ts';
import type { GroupRole } from '@tribuna/contracts/groupRules';

export { holdsAdminPowers, holdsModerationPowers, viewerOf, type Viewer } from './viewer.ts';

/** A decision about one item: allowed, or refused as if it did not exist, or refused as forbidden. */
export type Decision = 'ok' | 'not-found' | 'forbidden';

/** Whether `viewer` may see the post: not hidden, and public, their own, in a group they may read, or they are an admin. */
export function mayReadPost(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  return repo.isPostVisible(db, postId, viewer);
}

/**
 * Whether `viewer` may open the post's page (the post and its comments): mayReadPost, or their own
 * post hidden by moderation, which its author still reads as 'Oculto por moderación' (issue 29).
 */
export function mayReadPostPage(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  return repo.isPostPageVisible(db, postId, viewer);
}

/**
 * Which of `viewers` may see the post (mentioned fans, say), leaving out those in a block with
 * `actorId` (who wrote the mention) either way: their ids, asked in one statement.
 */
export function readersOfPost(db: SqlRunner, postId: string, viewers: Viewer[], actorId?: string): Promise<Set<string>> {
  return repo.postReaders(db, postId, viewers, actorId);
}

export type { ProfileRelation } from './repository.ts';

/**
 * Which of `readerIds` must not read what `author` wrote in a list (a comment arriving live in a
 * thread): those who muted the author or are in a block with them, either way (issue 29). The
 * author is a user id, or the author of a comment by its id.
 */
export function readersHidingAuthor(db: SqlRunner, author: { userId: string } | { commentId: string }, readerIds: string[]): Promise<Set<string>> {
  return repo.readersHiding(db, author, readerIds);
}

/**
 * Whether `a` and `b` are in a block, either way ('Bloquear', issue 29): then neither may follow,
 * comment on, react to or mention the other, nor see the other's posts, comments or profile.
 */
export function blockedBetween(db: SqlRunner, a: string, b: string): Promise<boolean> {
  return repo.blockedBetween(db, a, b);
}

/**
 * How a viewer stands with a profile (null: no such profile): whether its owner blocked them (the
 * profile and its tabs are then not found for them), and whether they blocked or muted its owner
 * (they still see the profile, to take it back; a blocked owner's tabs are empty for them).
 */
export function profileRelation(db: SqlRunner, userId: string, viewerId: string | null): Promise<repo.ProfileRelation | null> {
  return repo.profileRelation(db, userId, viewerId);
}

/** What a viewer may do in a group (GroupDetail's can* flags): one rule for every route and topic. */
export interface GroupPowers {
  /** Read its wall, members and live topic: a public group, its members, site admins. */
  canRead: boolean;
  /** Post there: its members, site admins. */
  canPost: boolean;
  /** Answer join requests, pin posts, remove posts, comments and plain members: its admins and moderators, site admins. */
  canModerate: boolean;
  /** Edit it, change roles, ban, delete it: its admins, site admins. */
  canAdminister: boolean;
}

/** The powers of `viewer`, whose role in a group of this privacy is `role` (null: not a member). */
export function groupPowers(group: { isPublic: boolean }, role: GroupRole | null, viewer: Viewer | null): GroupPowers {
  const siteAdmin = viewer?.isAdmin === true;
  return {
    canRead: group.isPublic || role !== null || siteAdmin,
    canPost: role !== null || siteAdmin,
    canModerate: role === 'admin' || role === 'moderator' || siteAdmin,
    canAdminister: role === 'admin' || siteAdmin,
  };
}

/** The viewer's role in a group and what it lets them do; null when there is no such group. */
export async function groupStanding(db: SqlRunner, groupId: string, viewer: Viewer | null): Promise<{ role: GroupRole | null; powers: GroupPowers } | null> {
  const access = await repo.groupAccess(db, groupId, viewer?.id ?? null);
  if (!access.exists) return null;
  return { role: access.role, powers: groupPowers(access, access.role, viewer) };
}

/** Whether `viewer` may read a group's wall: a public group, a member, or an admin. */
export async function mayReadGroup(db: SqlRunner, groupId: string, viewer: Viewer | null): Promise<Decision> {
  const standing = await groupStanding(db, groupId, viewer);
  if (!standing) return 'not-found';
  return standing.powers.canRead ? 'ok' : 'forbidden';
}

/** Whether `writer` may post in a group: its members, or an admin. */
export async function mayPostInGroup(db: SqlRunner, groupId: string, writer: Viewer): Promise<Decision> {
  const standing = await groupStanding(db, groupId, writer);
  if (!standing) return 'not-found';
  return standing.powers.canPost ? 'ok' : 'forbidden';
}

/** Whether `viewer` moderates a group (requests, pins, posts, comments and plain members there): its admins and moderators, or an admin. */
export async function mayModerateGroup(db: SqlRunner, groupId: string, viewer: Viewer): Promise<Decision> {
  const standing = await groupStanding(db, groupId, viewer);
  if (!standing) return 'not-found';
  return standing.powers.canModerate ? 'ok' : 'forbidden';
}

/**
 * Whether `writer` may delete a post or comment of `ownerId` (on a post of group `groupId`, or of
 * none) that they can see: its owner, an admin, a site moderator, or the admins and moderators of that group.
 */
export async function mayDeleteFromWall(db: SqlRunner, writer: Viewer, item: { ownerId: string; groupId: string | null }): Promise<boolean> {
  if (mayModify(writer, item.ownerId, { admins: true }) || writer.isModerator === true) return true;
  return item.groupId !== null && (await mayModerateGroup(db, item.groupId, writer)) === 'ok';
}

/** Whether `user` may watch the personal topic of `ownerId` (notification badges): only its owner. */
export function mayWatchUser(user: { id: string } | null, ownerId: string): boolean {
  return user !== null && user.id.toLowerCase() === ownerId.toLowerCase();
}

/** Whether `reader` may read the vote history of `ownerId`: only its owner (spec: private). */
export function mayReadVoteHistory(reader: { id: string }, ownerId: string): boolean {
  return reader.id === ownerId;
}

/** Whether an edit or a deletion of an item is its owner's, or an admin's where admins may (deletion). */
export function mayModify(viewer: Viewer, ownerId: string, { admins }: { admins: boolean }): boolean {
  return viewer.id === ownerId || (admins && viewer.isAdmin);
}
