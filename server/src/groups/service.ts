import type {
  CreateGroupInput,
  GroupAccessEvent,
  GroupDetail,
  GroupDirectory,
  GroupDirectoryQuery,
  GroupLiveEvent,
  GroupMember,
  GroupMemberPage,
  GroupPersonPage,
  GroupRelationMessage,
  PendingRequests,
  PinState,
  UpdateGroupInput,
} from '@tribuna/contracts/api/groups';
import { GROUP_LIMITS, GROUP_MESSAGES, GROUP_ROLES, type GroupRelation, type GroupRole } from '@tribuna/contracts/groupRules';
import { userTopic } from '@tribuna/contracts/liveTopics';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Db, Tx } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import * as access from '../access/policy.ts';
import type { GroupPowers, Viewer } from '../access/policy.ts';
import type { AfterCommit } from '../events/bus.ts';
import { runAfterCommit } from '../events/bus.ts';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/errors.ts';
import { storedImageUrl } from '../identity/profiles/edit.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { presentCard, presentMember, presentPerson } from './presenter.ts';
import * as repo from './repository.ts';

// Fan clubs (issue 28): the directory, a group's header, its members, join requests, roles, bans
// and pinned posts. What a viewer may do in a group is the access policy's (groupPowers); after
// each change, the live side hears of it through the cluster events `group.live` and `group.access`.

/** A group as it was when deleted, told to the other domains inside the deletion's transaction (the back-office's audit log). */
export interface GroupDeletion {
  group: repo.LockedGroup;
  actorId: string;
  /** Deleted by a site admin's powers (the back-office, or a site admin who is not the group's admin): audited. */
  bySiteAdmin: boolean;
}

declare module '../events/bus.ts' {
  interface TransactionalEvents {
    /** A group is being deleted, inside its transaction (groups/service.ts). */
    'group.deleted': GroupDeletion;
  }
}

export interface GroupsContext {
  /** For transactions. */
  db: Db;
  /** This site's origin (PUBLIC_URL): its own /media/ URLs are accepted as avatar and cover. */
  publicUrl: string;
  /** A group or staff message to its topic's viewers on every instance, after commit. Never throws. */
  publishLive(event: GroupLiveEvent): Promise<void>;
  /** Who may read a group changed: every instance drops the subscriptions that lost access, then tells the fans. Never throws. */
  publishAccess(event: GroupAccessEvent): Promise<void>;
  /** The other domains' statements for a deletion, inside its transaction (the audit log). */
  joinDeletion(tx: SqlRunner, deletion: GroupDeletion): Promise<AfterCommit[]>;
  log: { warn(obj: object, msg: string): void };
}

/** A signed-in user acting (requireUser or requireWriter passed), with their admin powers. */
export type Actor = Viewer;

const chars = (value: string) => Array.from(value).length;
const isRole = (relation: GroupRelation): relation is GroupRole => (GROUP_ROLES as readonly string[]).includes(relation);

// --- Reads --------------------------------------------------------------------------------------

/** GET /api/groups: 'Tus grupos' on the first page, then the others, most members first. */
export async function listGroups(db: Db, query: GroupDirectoryQuery, viewer: Viewer | null): Promise<GroupDirectory> {
  const after = query.cursor ? decodeCursor('d', query.cursor) : null;
  if (query.cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const q = query.q?.trim();
  const pattern = q ? repo.namePattern(q) : null;
  const size = GROUP_LIMITS.directoryPageSize;
  const position = after ? { memberCount: Number(after.sort), id: after.id } : null;
  const [mine, rows] = await Promise.all([
    // A fan's own groups are few: all of them (up to a sane bound) on the first page.
    viewer && !after ? repo.viewerGroups(db, viewer.id, pattern, VIEWER_GROUPS_MAX) : Promise.resolve([]),
    repo.otherGroups(db, viewer?.id ?? null, pattern, position, size + 1),
  ]);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    mine: mine.map(presentCard),
    groups: page.map(presentCard),
    nextCursor: rows.length > size && last ? encodeCursor('d', String(last.member_count), last.id) : null,
  };
}

/** 'Tus grupos' shows at most this many. */
export const VIEWER_GROUPS_MAX = 100;

function detailOf(row: repo.GroupDetailRow, viewer: Viewer | null): GroupDetail {
  const role = isRole(row.relation) ? row.relation : null;
  const powers = access.groupPowers({ isPublic: row.privacy === 'public' }, role, viewer);
  return {
    ...presentCard(row),
    createdAt: row.created_at,
    canRead: powers.canRead,
    canPost: powers.canPost,
    canModerate: powers.canModerate,
    canAdminister: powers.canAdminister,
    pendingRequests: powers.canModerate ? row.pending_requests : null,
  };
}

/** GET /api/groups/:groupId: anybody sees the card; the flags say what the viewer may do. */
export async function getGroup(db: Db, groupId: string, viewer: Viewer | null): Promise<GroupDetail> {
  const row = await repo.findGroup(db, groupId, viewer?.id ?? null);
  if (!row) throw notFound(GROUP_MESSAGES.notFound);
  return detailOf(row, viewer);
}

/** The viewer's powers in the group (the transaction's view when `tx` is given); 404 when there is no such group. */
async function powersIn(db: Db | Tx, groupId: string, viewer: Viewer): Promise<{ role: GroupRole | null; powers: GroupPowers }> {
  const standing = await access.groupStanding(drizzleRunner(db), groupId, viewer);
  if (!standing) throw notFound(GROUP_MESSAGES.notFound);
  return standing;
}

/** GET /api/groups/:groupId/members: readers of the group only. */
export async function listMembers(db: Db, groupId: string, viewer: Viewer | null, cursor: string | undefined): Promise<GroupMemberPage> {
  const after = cursor ? decodeCursor('m', cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const decision = await access.mayReadGroup(drizzleRunner(db), groupId, viewer);
  if (decision === 'not-found') throw notFound(GROUP_MESSAGES.notFound);
  if (decision === 'forbidden') throw forbidden(GROUP_MESSAGES.privateGroup);
  const [rank, joinedMicros] = after ? after.sort.split('_') : [];
  const position = after && rank && joinedMicros ? { rank: Number(rank), joinedMicros, userId: after.id } : null;
  if (after && !position) throw badRequest(WALL_MESSAGES.badCursor);
  const size = GROUP_LIMITS.membersPageSize;
  const rows = await repo.membersPage(db, groupId, position, size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(presentMember),
    nextCursor: rows.length > size && last ? encodeCursor('m', `${last.rank}_${last.joined_micros}`, last.user_id) : null,
  };
}

/** GET /api/groups/:groupId/requests: the group's admins and moderators (and site admins). */
export async function listRequests(db: Db, groupId: string, viewer: Viewer, cursor: string | undefined): Promise<GroupPersonPage> {
  const after = cursor ? decodeCursor('r', cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const { powers } = await powersIn(db, groupId, viewer);
  if (!powers.canModerate) throw forbidden(GROUP_MESSAGES.notGroupModerator);
  return personPage('r', await repo.requestsPage(db, groupId, after && { atMicros: after.sort, userId: after.id }, GROUP_LIMITS.membersPageSize + 1));
}

/** GET /api/groups/:groupId/bans: the group's admins (and site admins). */
export async function listBans(db: Db, groupId: string, viewer: Viewer, cursor: string | undefined): Promise<GroupPersonPage> {
  const after = cursor ? decodeCursor('b', cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const { powers } = await powersIn(db, groupId, viewer);
  if (!powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
  return personPage('b', await repo.bansPage(db, groupId, after && { atMicros: after.sort, userId: after.id }, GROUP_LIMITS.membersPageSize + 1));
}

function personPage(kind: 'r' | 'b', rows: repo.PersonRow[]): GroupPersonPage {
  const size = GROUP_LIMITS.membersPageSize;
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { items: page.map(presentPerson), nextCursor: rows.length > size && last ? encodeCursor(kind, last.created_micros, last.user_id) : null };
}

// --- Create, edit, delete -----------------------------------------------------------------------

/** The fields sent, trimmed and checked with GROUP_MESSAGES (avatar and cover by the profile images' rules). */
function groupChanges(input: UpdateGroupInput, publicUrl: string): Partial<repo.GroupFields> {
  const changes: Partial<repo.GroupFields> = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (chars(name) < GROUP_LIMITS.nameMin || chars(name) > GROUP_LIMITS.nameMax) throw badRequest(GROUP_MESSAGES.nameLength);
    changes.name = name;
  }
  if (input.description !== undefined) {
    const description = (input.description ?? '').trim();
    if (chars(description) > GROUP_LIMITS.description) throw badRequest(GROUP_MESSAGES.descriptionTooLong);
    changes.description = description || null;
  }
  if (input.avatarUrl !== undefined) changes.avatarUrl = storedImageUrl('avatar', input.avatarUrl, publicUrl);
  if (input.coverUrl !== undefined) changes.coverUrl = storedImageUrl('banner', input.coverUrl, publicUrl);
  if (input.privacy !== undefined) changes.privacy = input.privacy;
  return changes;
}

/** POST /api/groups: at most GROUP_LIMITS.createsPerDay in a rolling day; the creator is its admin. */
export async function createGroup(ctx: GroupsContext, writer: Actor, input: CreateGroupInput): Promise<GroupDetail> {
  const changes = groupChanges(input, ctx.publicUrl);
  const fields: repo.GroupFields = {
    name: changes.name!,
    description: changes.description ?? null,
    avatarUrl: changes.avatarUrl ?? null,
    coverUrl: changes.coverUrl ?? null,
    privacy: input.privacy,
  };
  const groupId = await ctx.db.transaction(async (tx) => {
    const recent = await repo.lockAndCountRecentCreations(tx, writer.id, 24);
    if (recent >= GROUP_LIMITS.createsPerDay) throw tooManyRequests(GROUP_MESSAGES.createLimit);
    return repo.insertGroup(tx, writer.id, fields);
  });
  return getGroup(ctx.db, groupId, writer);
}

/** PATCH /api/groups/:groupId: its admins (and site admins). A group turning private takes its wall from non-members at once. */
export async function updateGroup(ctx: GroupsContext, actor: Actor, groupId: string, input: UpdateGroupInput): Promise<GroupDetail> {
  const changes = groupChanges(input, ctx.publicUrl);
  const turnedPrivate = await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { powers } = await powersIn(tx, groupId, actor);
    if (!powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
    await repo.updateGroup(tx, groupId, changes);
    return group.privacy === 'public' && changes.privacy === 'private';
  });
  if (turnedPrivate) await ctx.publishAccess({ groupId, userIds: null, relations: [] });
  return getGroup(ctx.db, groupId, actor);
}

/**
 * DELETE /api/groups/:groupId (its admins, or a site admin) and the back-office's DELETE
 * /api/admin/groups/:groupId (`backOffice`: always audited): its posts leave every wall with it
 * (ON DELETE CASCADE) and every socket watching it or its posts loses them.
 */
export async function deleteGroup(ctx: GroupsContext, actor: Actor, groupId: string, options: { backOffice?: boolean } = {}): Promise<void> {
  const { members, after } = await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { role, powers } = await powersIn(tx, groupId, actor);
    if (!powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
    const memberIds = await repo.memberIds(tx, groupId);
    const bySiteAdmin = options.backOffice === true || role !== 'admin';
    const work = await ctx.joinDeletion(drizzleRunner(tx), { group, actorId: actor.id, bySiteAdmin });
    await repo.deleteGroup(tx, groupId);
    return { members: memberIds, after: work };
  });
  await runAfterCommit(after, ctx.log, 'after-commit work of a group deletion');
  // Every socket loses the group first; then its members are told, a bounded batch per event.
  const relations = members.map((id) => relationMessage(groupId, id, 'none'));
  await ctx.publishAccess({ groupId, userIds: null, relations: relations.slice(0, RELATIONS_PER_EVENT) });
  for (let at = RELATIONS_PER_EVENT; at < relations.length; at += RELATIONS_PER_EVENT) {
    await ctx.publishAccess({ groupId, userIds: [], relations: relations.slice(at, at + RELATIONS_PER_EVENT) });
  }
}

/** Relation messages one `group.access` event carries at most (its schema's bound). */
const RELATIONS_PER_EVENT = 1000;

// --- Membership ---------------------------------------------------------------------------------

const relationMessage = (groupId: string, userId: string, relation: GroupRelation): GroupRelationMessage => ({
  type: 'group-relation',
  topic: userTopic(userId),
  groupId,
  relation,
});

/** The pending count to each of the group's admins and moderators ('Solicitudes'), after commit. */
async function tellStaff(ctx: GroupsContext, groupId: string): Promise<number> {
  const [pending, staff] = await Promise.all([repo.pendingRequests(ctx.db, groupId), repo.staffIds(ctx.db, groupId)]);
  await Promise.all(staff.map((id) => ctx.publishLive({ type: 'group-requests', topic: userTopic(id), groupId, pendingRequests: pending })));
  return pending;
}

/** POST /api/groups/:groupId/join: a public group's new member, or a private group's request. */
export async function joinGroup(ctx: GroupsContext, writer: Actor, groupId: string): Promise<GroupDetail> {
  const requested = await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    if (await repo.isBanned(tx, groupId, writer.id)) throw forbidden(GROUP_MESSAGES.banned);
    if ((await repo.roleOf(tx, groupId, writer.id)) !== null) throw conflict(GROUP_MESSAGES.alreadyMember);
    if (group.privacy === 'public') {
      await repo.addMember(tx, groupId, writer.id);
      return false;
    }
    if (!(await repo.insertRequest(tx, groupId, writer.id))) throw conflict(GROUP_MESSAGES.alreadyRequested);
    return true;
  });
  if (requested) await tellStaff(ctx, groupId);
  return getGroup(ctx.db, groupId, writer);
}

/**
 * POST /api/groups/:groupId/leave: leaves the group, or withdraws a pending request. The last
 * admin names a member (`successorId`) who becomes admin in the same transaction.
 */
export async function leaveGroup(ctx: GroupsContext, user: Actor, groupId: string, successorId: string | undefined): Promise<GroupDetail> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const role = await repo.roleOf(tx, groupId, user.id);
    if (role === null) {
      if (await repo.deleteRequest(tx, groupId, user.id)) return 'withdrew';
      throw conflict(GROUP_MESSAGES.notMember);
    }
    let successor: string | null = null;
    if (role === 'admin' && (await repo.adminCount(tx, groupId)) === 1) {
      if (!successorId) throw conflict(GROUP_MESSAGES.lastAdmin);
      if (successorId === user.id || (await repo.roleOf(tx, groupId, successorId)) === null) throw badRequest(GROUP_MESSAGES.successorNotMember);
      await repo.setRole(tx, groupId, successorId, 'admin');
      successor = successorId;
    }
    await repo.removeMember(tx, groupId, user.id);
    return { successor };
  });
  if (outcome === 'withdrew') {
    await tellStaff(ctx, groupId);
    await ctx.publishAccess({ groupId, userIds: [], relations: [relationMessage(groupId, user.id, 'none')] });
  } else {
    const relations = [relationMessage(groupId, user.id, 'none')];
    if (outcome.successor) relations.push(relationMessage(groupId, outcome.successor, 'admin'));
    await ctx.publishAccess({ groupId, userIds: [user.id], relations });
  }
  return getGroup(ctx.db, groupId, user);
}

/** POST /api/groups/:groupId/requests/:userId: approve (a member) or reject (the request goes). */
export async function answerRequest(ctx: GroupsContext, actor: Actor, groupId: string, userId: string, approve: boolean): Promise<PendingRequests> {
  await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { powers } = await powersIn(tx, groupId, actor);
    if (!powers.canModerate) throw forbidden(GROUP_MESSAGES.notGroupModerator);
    if (!(await repo.deleteRequest(tx, groupId, userId))) throw notFound(GROUP_MESSAGES.requestNotFound);
    if (approve) await repo.addMember(tx, groupId, userId);
  });
  const pendingRequests = await tellStaff(ctx, groupId);
  await ctx.publishAccess({ groupId, userIds: [], relations: [relationMessage(groupId, userId, approve ? 'member' : 'none')] });
  return { pendingRequests };
}

/** PATCH /api/groups/:groupId/members/:userId: the group's admins promote and demote (not themselves; never the last admin). */
export async function changeRole(ctx: GroupsContext, actor: Actor, groupId: string, userId: string, role: GroupRole): Promise<GroupMember> {
  if (userId === actor.id) throw forbidden(GROUP_MESSAGES.cannotChangeOwnRole);
  await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { powers } = await powersIn(tx, groupId, actor);
    if (!powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
    const current = await repo.roleOf(tx, groupId, userId);
    if (current === null) throw notFound(GROUP_MESSAGES.memberNotFound);
    // A site admin may demote a group's only admin only by naming another first.
    if (current === 'admin' && role !== 'admin' && (await repo.adminCount(tx, groupId)) === 1) throw conflict(GROUP_MESSAGES.lastAdmin);
    await repo.setRole(tx, groupId, userId, role);
  });
  await ctx.publishAccess({ groupId, userIds: [], relations: [relationMessage(groupId, userId, role)] });
  const rows = await repo.membersOf(ctx.db, groupId, [userId]);
  return presentMember(rows[0]!);
}

/**
 * DELETE /api/groups/:groupId/members/:userId: admins remove anybody but themselves, moderators
 * plain members only; `ban` (admins) also keeps them out. The fan loses the group at once.
 */
export async function removeMember(ctx: GroupsContext, actor: Actor, groupId: string, userId: string, ban: boolean): Promise<void> {
  if (userId === actor.id) throw forbidden(GROUP_MESSAGES.cannotChangeOwnRole);
  await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { powers } = await powersIn(tx, groupId, actor);
    if (!powers.canModerate) throw forbidden(GROUP_MESSAGES.notGroupModerator);
    if (ban && !powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
    const target = await repo.roleOf(tx, groupId, userId);
    if (target !== null && target !== 'member' && !powers.canAdminister) throw forbidden(GROUP_MESSAGES.cannotRemoveStaff);
    // The last admin stays: the group would have nobody to run it.
    if (target === 'admin' && (await repo.adminCount(tx, groupId)) === 1) throw conflict(GROUP_MESSAGES.lastAdmin);
    if (target === null && !ban) throw notFound(GROUP_MESSAGES.memberNotFound);
    if (target !== null) await repo.removeMember(tx, groupId, userId);
    if (ban) await repo.insertBan(tx, groupId, userId, actor.id);
  });
  await ctx.publishAccess({ groupId, userIds: [userId], relations: [relationMessage(groupId, userId, ban ? 'banned' : 'none')] });
}

/** DELETE /api/groups/:groupId/bans/:userId: the group's admins; the fan may join or ask again. */
export async function unban(ctx: GroupsContext, actor: Actor, groupId: string, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw notFound(GROUP_MESSAGES.notFound);
    const { powers } = await powersIn(tx, groupId, actor);
    if (!powers.canAdminister) throw forbidden(GROUP_MESSAGES.notGroupAdmin);
    if (!(await repo.deleteBan(tx, groupId, userId))) throw notFound(GROUP_MESSAGES.memberNotFound);
  });
  await ctx.publishAccess({ groupId, userIds: [], relations: [relationMessage(groupId, userId, 'none')] });
}

// --- Pinned posts -------------------------------------------------------------------------------

/** PUT /api/posts/:postId/pin: a group's post, by its admins and moderators (and site admins); at most GROUP_LIMITS.maxPinned. */
export async function pinPost(ctx: GroupsContext, actor: Actor, postId: string, pinned: boolean): Promise<PinState> {
  return ctx.db.transaction(async (tx) => {
    // The group's row before the post's, in the order a deletion of the group takes them; it also
    // serialises the pins of one group (the limit).
    const groupId = await repo.groupOfPost(tx, postId);
    if (groupId !== null) await repo.lockGroup(tx, groupId);
    const post = await repo.lockPinTarget(tx, postId);
    // What the actor may not read does not exist for them.
    if (!post || post.isHidden || !(await access.mayReadPost(drizzleRunner(tx), postId, actor))) throw notFound(WALL_MESSAGES.postNotFound);
    if (post.groupId === null) throw badRequest(GROUP_MESSAGES.pinOnlyGroupPosts);
    const { powers } = await powersIn(tx, post.groupId, actor);
    if (!powers.canModerate) throw forbidden(GROUP_MESSAGES.notGroupModerator);
    if (pinned && !post.isPinned && (await repo.pinnedCount(tx, post.groupId)) >= GROUP_LIMITS.maxPinned) throw conflict(GROUP_MESSAGES.tooManyPinned);
    if (pinned !== post.isPinned) await repo.setPinned(tx, postId, pinned);
    return { postId, isPinned: pinned };
  });
}
