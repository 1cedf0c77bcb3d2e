// The users screen's client-side rules (spec admin-backoffice.md §5 User edit, Points adjustment);
// the server checks every one of them again.
import { ADMIN_LIMITS, USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminUserRow, UpdateAdminUserInput } from '@tribuna/contracts/api/admin/users';
import type { BadgeTone } from '../../../components/admin/StatusBadge';

export type UserStatus = 'active' | 'suspended' | 'deleted';

/** A deleted account shows 'Cuenta eliminada' whatever its suspension flag says. */
export function userStatus(user: Pick<AdminUserRow, 'isSuspended' | 'isDeleted'>): UserStatus {
  if (user.isDeleted) return 'deleted';
  return user.isSuspended ? 'suspended' : 'active';
}

export const USER_STATUS_LABELS: Record<UserStatus, string> = { active: 'Activo', suspended: 'Suspendido', deleted: 'Cuenta eliminada' };
export const USER_STATUS_TONES: Record<UserStatus, BadgeTone> = { active: 'green', suspended: 'rose', deleted: 'slate' };
/**
 * Whether the row offers Reactivar: a suspended account that was not deleted. The server refuses to
 * reactivate a deleted account (409, an erased account must not write again); it is the only
 * action it refuses for one (editing, points and statistics work on the anonymised row).
 */
export const canUnsuspend = (user: Pick<AdminUserRow, 'isSuspended' | 'isDeleted'>) => user.isSuspended && !user.isDeleted;

export const ROLE_TONES: Record<AdminUserRow['role'], BadgeTone> = { admin: 'fuchsia', moderator: 'sky', user: 'slate' };

/** How a user is named in rows and dialogs: the display name, else @username, else 'Sin nombre'. */
export function userName(user: Pick<AdminUserRow, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || (user.username ? `@${user.username}` : 'Sin nombre');
}

const REASON_LABELS: Record<string, string> = { vote: 'Votos', share: 'Compartir', admin_adjustment: 'Ajuste manual' };
/** The Estadísticas modal's label of a points reason; unknown reasons are shown as they are. */
export const reasonLabel = (reason: string) => REASON_LABELS[reason] ?? reason;

export const POINTS_OUT_OF_RANGE = `La cantidad debe estar entre -${ADMIN_LIMITS.maxPointsAdjustment.toLocaleString('es')} y ${ADMIN_LIMITS.maxPointsAdjustment.toLocaleString('es')}`;

/** The points field: a non-zero whole number (negative subtracts) within the adjustment limit. */
export function parsePoints(text: string): { points: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^[-+]?\d+$/.test(trimmed)) return { error: USER_ADMIN_MESSAGES.pointsRequired };
  const points = Number(trimmed);
  if (points === 0) return { error: USER_ADMIN_MESSAGES.pointsRequired };
  if (Math.abs(points) > ADMIN_LIMITS.maxPointsAdjustment) return { error: POINTS_OUT_OF_RANGE };
  return { points };
}

export interface EditUserForm {
  displayName: string;
  username: string;
  bio: string;
  avatarUrl: string;
  role: AdminUserRow['role'];
}

export function editFormOf(user: AdminUserRow): EditUserForm {
  return { displayName: user.displayName ?? '', username: user.username ?? '', bio: user.bio ?? '', avatarUrl: user.avatarUrl ?? '', role: user.role };
}

/** Usernames are lowercase, without the '@' the field shows before them. */
export const normalizeUsername = (value: string) => value.replace(/^@+/, '').toLowerCase();

/**
 * The PATCH body: only the fields that changed (an unchanged profile sends nothing), blank optional
 * fields as null.
 */
export function editBody(user: AdminUserRow, form: EditUserForm): UpdateAdminUserInput {
  const body: UpdateAdminUserInput = {};
  const displayName = form.displayName.trim();
  if (displayName !== (user.displayName ?? '')) body.displayName = displayName;
  const username = normalizeUsername(form.username.trim()) || null;
  if (username !== user.username) body.username = username;
  const bio = form.bio.trim() || null;
  if (bio !== user.bio) body.bio = bio;
  const avatarUrl = form.avatarUrl.trim() || null;
  if (avatarUrl !== user.avatarUrl) body.avatarUrl = avatarUrl;
  if (form.role !== user.role) body.role = form.role;
  return body;
}
