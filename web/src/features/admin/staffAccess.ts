import type { Role } from '@tribuna/contracts/roles';

/** The moderation queue: the one back-office screen a moderator may open (issue 29). */
export const MODERATION_PATH = '/admin/moderacion';

/**
 * Whether `role` sees the whole back-office (site admins) or only the moderation queue (moderators;
 * the server refuses them every /api/admin route too). Others never get here (RequireAuth).
 */
export const seesWholeBackOffice = (role: Role | undefined): boolean => role === 'admin';
