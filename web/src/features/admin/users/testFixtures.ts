// Test data of the users screen (shapes from contracts/src/api/admin/users.ts).
import type { AdminUserList, AdminUserRow } from '@tribuna/contracts/api/admin/users';
import type { ProfileGroup } from '@tribuna/contracts/api/profiles';
import { adminUuid } from '../adminFixtures';

export function buildAdminUser(overrides: Partial<AdminUserRow> = {}): AdminUserRow {
  return {
    id: adminUuid(),
    displayName: 'Ana López',
    username: 'ana',
    email: 'ana@correo.mx',
    avatarUrl: null,
    bio: null,
    role: 'user',
    isSuspended: false,
    isDeleted: false,
    totalPoints: 120,
    voteCount: 7,
    postCount: 2,
    commentCount: 1,
    createdAt: '2025-01-05T12:00:00.000Z',
    ...overrides,
  };
}

export const userList = (items: AdminUserRow[], extra: Partial<AdminUserList> = {}): AdminUserList => ({
  items,
  total: items.length,
  totalCapped: false,
  page: 1,
  pageSize: 20,
  ...extra,
});

/** One of a user's groups (GET /api/admin/users/:userId/groups). */
export function buildUserGroup(overrides: Partial<ProfileGroup> = {}): ProfileGroup {
  return {
    id: adminUuid(),
    name: 'Fans de Carla',
    description: null,
    avatarUrl: null,
    coverUrl: null,
    privacy: 'public',
    role: 'member',
    joinedAt: '2025-02-20T12:00:00.000Z',
    ...overrides,
  };
}
