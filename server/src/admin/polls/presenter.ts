import type { AdminPollOption, AdminPollView } from '@tribuna/contracts/api/admin/polls';
import { isPointsMode } from '@tribuna/contracts/pollRules';
import { DEFAULT_POINTS_CONFIG, effectiveStatus } from '../../polls/rules.ts';
import type { AdminOptionRow, AdminPollRow } from './repository.ts';

/** Contestant options or custom texts: fixed at creation, read from the options (removed ones too). */
export function optionTypeOf(options: Pick<AdminOptionRow, 'text'>[]): AdminPollView['optionType'] {
  return options.some((o) => o.text !== null) ? 'custom' : 'contestants';
}

export function presentAdminOption(row: AdminOptionRow): AdminPollOption {
  return {
    id: row.id,
    contestantId: row.contestantId,
    text: row.text,
    label: row.text ?? row.contestantName ?? '',
    photoUrl: row.contestantId === null ? null : row.contestantPhotoUrl,
    order: row.order,
    voteCount: row.voteCount,
  };
}

/**
 * A poll as the back-office shows it: the options on the ballot (an option removed with its votes
 * is no longer listed, nor counted in `voteCount`; its votes stay in the database).
 */
export function presentAdminPoll(row: AdminPollRow, options: AdminOptionRow[], now: Date): AdminPollView {
  const ballot = options.filter((o) => o.removedAt === null);
  const maxPointsPerUser = row.maxPointsPerUser ?? DEFAULT_POINTS_CONFIG.maxPointsPerUser;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    seasonId: row.seasonId,
    seasonNumber: row.seasonNumber,
    realityName: row.realityName,
    status: row.status,
    effectiveStatus: effectiveStatus(row, now),
    isFeatured: row.isFeatured,
    endDate: row.endDate?.toISOString() ?? null,
    voteMode: isPointsMode({ maxPointsPerUser }) ? 'points' : 'single',
    optionType: optionTypeOf(options),
    maxPointsPerUser,
    dailyReset: row.dailyReset ?? DEFAULT_POINTS_CONFIG.dailyReset,
    voteCount: ballot.reduce((sum, o) => sum + o.voteCount, 0),
    options: ballot.map(presentAdminOption),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
