import type { GroupCard, GroupDetail, GroupMember, GroupPerson } from '@tribuna/contracts/api/groups';
import { buildAuthor } from '../../test/wallFixtures';

let sequence = 0;
export const groupId = () => `30000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export function buildGroupCard(overrides: Partial<GroupCard> = {}): GroupCard {
  return {
    id: groupId(),
    name: 'Team Ximena',
    description: 'Fans de Ximena',
    avatarUrl: null,
    coverUrl: null,
    privacy: 'public',
    memberCount: 12,
    relation: 'none',
    ...overrides,
  };
}

/** A group's page as a signed-in fan outside it sees it (override the relation and rights). */
export function buildGroupDetail(overrides: Partial<GroupDetail> = {}): GroupDetail {
  return {
    ...buildGroupCard(),
    createdAt: '2026-02-01T12:00:00.000Z',
    canRead: true,
    canPost: false,
    canModerate: false,
    canAdminister: false,
    pendingRequests: null,
    ...overrides,
  };
}

/** The rights of a group's admin (a member who administers and moderates). */
export const asAdmin = { relation: 'admin', canRead: true, canPost: true, canModerate: true, canAdminister: true, pendingRequests: 0 } as const;

export function buildMember(overrides: Partial<GroupMember> = {}): GroupMember {
  return { user: buildAuthor(), role: 'member', joinedAt: '2026-02-10T12:00:00.000Z', ...overrides };
}

export function buildPerson(overrides: Partial<GroupPerson> = {}): GroupPerson {
  return { user: buildAuthor(), createdAt: '2026-02-20T12:00:00.000Z', ...overrides };
}
