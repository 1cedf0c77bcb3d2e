import type { FollowEntry, ProfileComment, ProfileGroup, PublicProfile, VoteHistoryItem } from '@tribuna/contracts/api/profiles';

let sequence = 0;
export const profileId = () => `40000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export function buildPublicProfile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    id: profileId(),
    displayName: 'Ana López',
    username: 'ana',
    bio: 'Fan de La Casa desde la primera temporada',
    avatarUrl: null,
    bannerUrl: null,
    isDeleted: false,
    createdAt: '2025-01-15T12:00:00.000Z',
    followersCount: 0,
    followingCount: 0,
    viewerFollows: false,
    viewerMuted: false,
    viewerBlocked: false,
    ...overrides,
  };
}

export function buildFollowEntry(overrides: Partial<FollowEntry> = {}): FollowEntry {
  return {
    user: { id: profileId(), displayName: 'Carla Ruiz', username: 'carla', avatarUrl: null },
    since: '2025-03-01T12:00:00.000Z',
    viewerFollows: false,
    ...overrides,
  };
}

export function buildVote(overrides: Partial<VoteHistoryItem> = {}): VoteHistoryItem {
  return {
    id: profileId(),
    pollId: profileId(),
    pollTitle: '¿Quién debe ganar esta semana?',
    pollStatus: 'active',
    optionText: 'Carla Ruiz',
    contestantName: 'Carla Ruiz',
    contestantPhotoUrl: '/media/carla.webp',
    optionRemoved: false,
    points: 1,
    createdAt: '2025-03-10T18:30:00.000Z',
    ...overrides,
  };
}

export function buildProfileComment(overrides: Partial<ProfileComment> = {}): ProfileComment {
  return {
    id: profileId(),
    content: 'Totalmente de acuerdo',
    parentCommentId: null,
    editedAt: null,
    createdAt: '2025-03-10T18:30:00.000Z',
    post: { id: profileId(), excerpt: 'Qué gala la de anoche', author: { id: profileId(), displayName: 'Luis Pérez', username: 'luis', avatarUrl: null } },
    ...overrides,
  };
}

export function buildGroup(overrides: Partial<ProfileGroup> = {}): ProfileGroup {
  return {
    id: profileId(),
    name: 'Fans de Carla',
    description: 'Todo sobre Carla',
    avatarUrl: null,
    coverUrl: null,
    privacy: 'public',
    role: 'member',
    joinedAt: '2025-02-20T12:00:00.000Z',
    ...overrides,
  };
}
