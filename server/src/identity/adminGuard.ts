import type { FastifyRequest } from 'fastify';
import { forbidden } from '../http/errors.ts';
import { requireRole } from './plugin.ts';

export const ADMIN_MFA_REQUIRED = 'Se requiere verificación en dos pasos para administradores';

const requireAdminRole = requireRole('admin');

/**
 * The one admin check of /api/admin/*: visitors 401, other roles 403 'Unauthorized', and with
 * REQUIRE_ADMIN_MFA a session not verified with a second factor (aal2) is refused as well.
 */
export function adminGuard(requireMfa: boolean) {
  return async function requireAdmin(request: FastifyRequest): Promise<void> {
    const admin = requireAdminRole(request);
    if (requireMfa && admin.level !== 'aal2') throw forbidden(ADMIN_MFA_REQUIRED);
  };
}
