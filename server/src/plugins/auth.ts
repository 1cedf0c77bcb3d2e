import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Role } from '@tribuna/contracts/roles';
import { unauthorized } from '../http/errors.ts';

export interface AuthUser {
  id: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for visitors. */
    user: AuthUser | null;
  }
}

/**
 * Resolves the session of each request into `request.user`. Placeholder: sessions do not exist yet
 * (the accounts issue adds cookie sessions here), so every request is a visitor.
 */
export default fp(
  async (app) => {
    app.decorateRequest('user', null);
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);

/** Route guard: the signed-in user, or 401 'User not authenticated'. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized('User not authenticated');
  return request.user;
}
