// The access policy: "may this viewer see / do this to that", for one item at a time. Lists are
// filtered in SQL by ./predicates.ts (the same rules); routes, live topics and notifications ask
// here, and no other module decides visibility. A rule for a new kind of item (a group's wall,
// follows, mutes, blocks) is added here and in ./predicates.ts.
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import * as repo from './repository.ts';
import type { Viewer } from './viewer.ts';

export { holdsAdminPowers, viewerOf, type Viewer } from './viewer.ts';

/** A decision about one item: allowed, or refused as if it did not exist, or refused as forbidden. */
export type Decision = 'ok' | 'not-found' | 'forbidden';

/** Whether `viewer` may see the post: not hidden, and public, their own, in a group they may read, or they are an admin. */
export function mayReadPost(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  return repo.isPostVisible(db, postId, viewer);
}

/** Which of `viewers` may see the post (mentioned fans, say): their ids, asked in one statement. */
export function readersOfPost(db: SqlRunner, postId: string, viewers: Viewer[]): Promise<Set<string>> {
  return repo.postReaders(db, postId, viewers);
}

/** Whether `viewer` may read a group's wall: a public group, a member, or an admin. */
export async function mayReadGroup(db: SqlRunner, groupId: string, viewer: Viewer | null): Promise<Decision> {
  const access = await repo.groupAccess(db, groupId, viewer?.id ?? null);
  if (!access.exists) return 'not-found';
  return access.isPublic || access.isMember || viewer?.isAdmin ? 'ok' : 'forbidden';
}

/** Whether `writer` may post in a group: its members, or an admin. */
export async function mayPostInGroup(db: SqlRunner, groupId: string, writer: Viewer): Promise<Decision> {
  const access = await repo.groupAccess(db, groupId, writer.id);
  if (!access.exists) return 'not-found';
  return access.isMember || writer.isAdmin ? 'ok' : 'forbidden';
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
