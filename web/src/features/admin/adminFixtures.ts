// Test data of the back-office screens (shapes from contracts/src/api/admin/*).
import type { RealityView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import type { ActivityItem, Dashboard, RecentPoll } from '@tribuna/contracts/api/admin/polls';
import { jsonResponse } from '../../test/fixtures';

let sequence = 0;
export const adminUuid = () => `00000000-0000-4000-9000-${String(++sequence).padStart(12, '0')}`;

const STAMP = '2025-01-05T12:00:00.000Z';

export function buildReality(overrides: Partial<RealityView> = {}): RealityView {
  return { id: adminUuid(), name: 'La Casa', active: true, seasonCount: 0, deletedAt: null, createdAt: STAMP, updatedAt: STAMP, ...overrides };
}

export function buildSeason(reality: RealityView, overrides: Partial<SeasonView> = {}): SeasonView {
  return {
    id: adminUuid(),
    realityId: reality.id,
    realityName: reality.name,
    number: 1,
    year: 2025,
    startDate: null,
    endDate: null,
    active: false,
    deletedAt: null,
    realityDeleted: false,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...overrides,
  };
}

export function buildRecentPoll(overrides: Partial<RecentPoll> = {}): RecentPoll {
  return { id: adminUuid(), title: 'Encuesta', status: 'active', voteCount: 0, createdAt: STAMP, ...overrides };
}

export function buildActivity(overrides: Partial<ActivityItem> = {}): ActivityItem {
  return { id: adminUuid(), type: 'vote', description: 'Nuevo voto', createdAt: new Date().toISOString(), ...overrides };
}

export function buildDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    stats: { activePolls: 2, totalVotes: 12345, totalUsers: 321, pageViews24h: 45 },
    recentPolls: [],
    recentActivity: [],
    ...overrides,
  };
}

/** An error answer as the server sends it (a Spanish message in the body). */
export const apiError = (status: number, message: string) => jsonResponse(status, { statusCode: status, error: 'Error', message });
/** A failure without a message body (a proxy's bare 502): the screens show the §8 fallback. */
export const bareFailure = () => new Response('Bad Gateway', { status: 502, statusText: 'Bad Gateway' });
