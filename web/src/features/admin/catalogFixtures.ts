// Builders for the back-office's Contestants and Polls tests (contract-shaped API answers).
import type { ContestantView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import type { AdminPollOption, AdminPollView } from '@tribuna/contracts/api/admin/polls';

let sequence = 0;
export const adminUuid = () => `10000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;
const at = '2025-03-01T12:00:00.000Z';

export function buildSeason(overrides: Partial<SeasonView> = {}): SeasonView {
  return {
    id: adminUuid(),
    realityId: adminUuid(),
    realityName: 'La Casa',
    number: 3,
    year: 2025,
    startDate: null,
    endDate: null,
    active: true,
    deletedAt: null,
    realityDeleted: false,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function buildContestant(season: SeasonView, overrides: Partial<ContestantView> = {}): ContestantView {
  return {
    id: adminUuid(),
    seasonId: season.id,
    seasonNumber: season.number,
    realityName: season.realityName,
    fullName: 'Carla Ruiz',
    photoUrl: null,
    status: 'active',
    eliminationDate: null,
    finalPosition: null,
    deletedAt: null,
    seasonDeleted: false,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function buildOption(overrides: Partial<AdminPollOption> = {}): AdminPollOption {
  return { id: adminUuid(), contestantId: null, text: 'Opción', label: overrides.text ?? 'Opción', photoUrl: null, order: 0, voteCount: 0, ...overrides };
}

export function buildAdminPoll(season: SeasonView, overrides: Partial<AdminPollView> = {}): AdminPollView {
  return {
    id: adminUuid(),
    title: '¿Quién debe ganar esta semana?',
    description: null,
    seasonId: season.id,
    seasonNumber: season.number,
    realityName: season.realityName,
    status: 'active',
    effectiveStatus: overrides.status ?? 'active',
    isFeatured: false,
    endDate: null,
    voteMode: 'single',
    optionType: 'custom',
    maxPointsPerUser: 1,
    dailyReset: false,
    voteCount: 0,
    options: [buildOption({ text: 'Sí', label: 'Sí', order: 0 }), buildOption({ text: 'No', label: 'No', order: 1 })],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
