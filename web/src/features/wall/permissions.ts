import type { Profile } from '@tribuna/contracts/api/me';

export interface ItemPermissions {
  canEdit: boolean;
  canDelete: boolean;
  /** Deleting someone else's item as an admin (its own label). */
  asAdmin: boolean;
}

/**
 * Owners edit and delete their own posts and comments; an admin may also delete anyone's, and so may
 * a group's moderators in their group (`moderates`, groupModeration.ts).
 */
export function permissionsFor(viewer: Pick<Profile, 'id' | 'role'> | null, authorId: string, moderates = false): ItemPermissions {
  if (!viewer) return { canEdit: false, canDelete: false, asAdmin: false };
  const own = viewer.id === authorId;
  const admin = viewer.role === 'admin';
  return { canEdit: own, canDelete: own || admin || moderates, asAdmin: !own && admin };
}
