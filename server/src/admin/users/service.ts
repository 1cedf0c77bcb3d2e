import type {
  AdjustPointsInput,
  AdjustPointsResult,
  AdminUserList,
  AdminUserRow,
  AdminUsersQuery,
  AdminUserStats,
  UpdateAdminUserInput,
} from '@tribuna/contracts/api/admin/users';
import { ADMIN_LIMITS, USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import type { Db, DbOrTx, Tx } from '@tribuna/drizzle/client';
import { constraintOf, sqlState } from '@tribuna/drizzle/sqlState';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { ProfileGroupList } from '@tribuna/contracts/api/profiles';
import { profileChanges } from '../../identity/profiles/edit.ts';
import { getGroups } from '../../identity/profiles/tabs.ts';
import type { SessionCache } from '../../identity/sessions/cache.ts';
import * as profiles from '../../identity/profiles/service.ts';
import * as sessions from '../../identity/sessions/service.ts';
import type { AuthUser } from '../../identity/sessions/service.ts';
import { recordAudit } from '../audit.ts';
import { presentAdminUser } from './presenter.ts';
import * as users from './repository.ts';

// The admin users screen (spec admin §2 Users, §5 User edit and Points adjustment): search,
// edit, points, statistics, suspension. Every write records its audit row in its transaction.

export const CANNOT_SUSPEND_SELF = USER_ADMIN_MESSAGES.cannotSuspendSelf;
export const USER_NOT_FOUND = USER_ADMIN_MESSAGES.userNotFound;
/** A total that would leave the points column's range (±2,147,483,647). */
/** A deleted account stays suspended: reactivating it would let an erased account write again. */
export const CANNOT_UNSUSPEND_DELETED = 'No se puede reactivar una cuenta eliminada';
export const POINTS_OUT_OF_RANGE = 'El total de puntos del usuario quedaría fuera del rango permitido';

export interface UsersContext {
  db: Db;
  /** This site's origin (PUBLIC_URL): its own /media/ URLs are accepted as avatars. */
  publicUrl: string;
  /** The app's session cache: a user whose role or sessions change leaves it before the write. */
  sessionCache: SessionCache;
}

export async function listUsers(db: DbOrTx, query: AdminUsersQuery): Promise<AdminUserList> {
  const filter: users.UserFilter = { q: query.q?.trim() || undefined, role: query.role, status: query.status ?? 'all' };
  const page = query.page ?? 1;
  const pageSize = ADMIN_LIMITS.usersPageSize;
  const { rows, total, capped } = await users.searchUsers(db, filter, pageSize, (page - 1) * pageSize);
  return { items: rows.map(presentAdminUser), total, totalCapped: capped, page, pageSize };
}

async function adminUser(db: DbOrTx, userId: string): Promise<AdminUserRow> {
  const row = await users.findAdminUser(db, userId);
  if (!row) throw notFound(USER_NOT_FOUND);
  return presentAdminUser(row);
}

/** Only the fields whose value changed, before and after. */
function changedFields(before: users.EditableUser, edit: users.UserEdit): { before: users.UserEdit; after: users.UserEdit } {
  const changed: { before: Record<string, unknown>; after: Record<string, unknown> } = { before: {}, after: {} };
  for (const [key, value] of Object.entries(edit) as [keyof users.UserEdit, unknown][]) {
    if (before[key] === value) continue;
    changed.before[key] = before[key];
    changed.after[key] = value;
  }
  return changed as { before: users.UserEdit; after: users.UserEdit };
}

/**
 * PATCH /api/admin/users/:userId: the public edit's rules and messages for the profile fields
 * (profiles/edit.ts), plus the role; an admin cannot take their own admin role away. A role change
 * takes the user's sessions out of this instance's cache before the write (every instance forgets
 * them when it commits: the NOTIFY trigger of migration 0002).
 */
export async function updateUser(ctx: UsersContext, admin: AuthUser, userId: string, input: UpdateAdminUserInput, now = new Date()): Promise<AdminUserRow> {
  const { role, ...profileInput } = input;
  if (role !== undefined && userId === admin.id && role !== 'admin') throw badRequest(USER_ADMIN_MESSAGES.cannotDemoteSelf);
  const edit: users.UserEdit = { ...profileChanges(profileInput, ctx.publicUrl), ...(role === undefined ? {} : { role }) };
  try {
    return await ctx.db.transaction(async (tx) => {
      const current = await users.lockUser(tx, userId);
      if (!current) throw notFound(USER_NOT_FOUND);
      const changes = changedFields(current, edit);
      if (Object.keys(changes.after).length > 0) {
        if (changes.after.role !== undefined) ctx.sessionCache.invalidateUser(userId);
        await users.updateUser(tx, userId, changes.after, now);
        await recordAudit(tx, admin.id, { action: 'user.update', entityType: 'user', entityId: userId, ...changes });
      }
      return adminUser(tx, userId);
    });
  } catch (err) {
    if (sqlState(err) === '23505' && constraintOf(err) === profiles.USERNAME_UNIQUE_INDEX) throw conflict(PROFILE_MESSAGES.usernameTaken);
    throw err;
  }
}

/**
 * POST /api/admin/users/:userId/points: the total and its history row in one transaction (the
 * profile's row lock orders concurrent adjustments, so none is lost).
 */
export async function adjustPoints(db: Db, admin: AuthUser, userId: string, input: AdjustPointsInput, now = new Date()): Promise<AdjustPointsResult> {
  if (!Number.isInteger(input.points) || input.points === 0) throw badRequest(USER_ADMIN_MESSAGES.pointsRequired);
  const description = input.description?.trim() || USER_ADMIN_MESSAGES.defaultPointsDescription;
  try {
    return await db.transaction(async (tx: Tx) => {
      const totalPoints = await users.addPoints(tx, userId, input.points, now);
      if (totalPoints === null) throw notFound(USER_NOT_FOUND);
      const entry = await users.insertAdjustment(tx, userId, input.points, description, now);
      await recordAudit(tx, admin.id, {
        action: 'user.points',
        entityType: 'user',
        entityId: userId,
        before: { totalPoints: totalPoints - input.points },
        after: { totalPoints, points: input.points, description },
      });
      return {
        totalPoints,
        entry: { id: entry.id, points: Number(entry.points), reason: 'admin_adjustment' as const, description: entry.description, createdAt: entry.created_at },
      };
    });
  } catch (err) {
    // integer out of range: the total would overflow the column.
    if (sqlState(err) === '22003') throw badRequest(POINTS_OUT_OF_RANGE);
    throw err;
  }
}

/**
 * GET /api/admin/users/:userId/groups: every group of the user with their role, private ones too:
 * the groups tab as its owner sees it (newest membership first).
 */
export async function userGroups(db: DbOrTx, userId: string): Promise<ProfileGroupList> {
  return getGroups(db, userId, { id: userId });
}

export async function userStats(db: DbOrTx, userId: string): Promise<AdminUserStats> {
  const [stats, byReason] = await Promise.all([users.userStats(db, userId), users.pointsByReason(db, userId)]);
  if (!stats) throw notFound(USER_NOT_FOUND);
  return {
    votes: Number(stats.votes),
    posts: Number(stats.posts),
    comments: Number(stats.comments),
    totalPoints: Number(stats.total_points),
    pointsByReason: byReason,
  };
}

/**
 * Suspends a user and revokes all of their sessions in one transaction: the suspended user is
 * signed out everywhere at once (every instance hears the commit through PostgreSQL NOTIFY);
 * signing in again works, but writing is refused.
 */
export async function suspendUser(ctx: UsersContext, admin: AuthUser, userId: string, now = new Date()): Promise<AdminUserRow> {
  if (userId === admin.id) throw badRequest(CANNOT_SUSPEND_SELF);
  return ctx.db.transaction(async (tx) => {
    const current = await users.lockUser(tx, userId);
    if (!current) throw notFound(USER_NOT_FOUND);
    await suspendAccount(tx, ctx.sessionCache, userId, now);
    await recordAudit(tx, admin.id, {
      action: 'user.suspend',
      entityType: 'user',
      entityId: userId,
      before: { isSuspended: current.isSuspended },
      after: { isSuspended: true },
    });
    return adminUser(tx, userId);
  });
}

/**
 * The suspension itself, inside the caller's transaction `tx` (which records its own audit entry):
 * the account is suspended and every one of its sessions revoked (the user is signed out everywhere
 * once it commits). The back-office's suspension and the moderation queue's 'Suspender' (issue 29).
 */
export async function suspendAccount(tx: Tx, sessionCache: SessionCache, userId: string, now = new Date()): Promise<void> {
  await profiles.setSuspended(tx, userId, true, now);
  await sessions.endAllSessions(tx, sessionCache, userId, now);
}

export async function unsuspendUser(db: Db, admin: AuthUser, userId: string, now = new Date()): Promise<AdminUserRow> {
  return db.transaction(async (tx) => {
    const current = await users.lockUser(tx, userId);
    if (!current) throw notFound(USER_NOT_FOUND);
    if (current.isDeleted) throw conflict(CANNOT_UNSUSPEND_DELETED);
    await profiles.setSuspended(tx, userId, false, now);
    await recordAudit(tx, admin.id, {
      action: 'user.unsuspend',
      entityType: 'user',
      entityId: userId,
      before: { isSuspended: current.isSuspended },
      after: { isSuspended: false },
    });
    return adminUser(tx, userId);
  });
}
