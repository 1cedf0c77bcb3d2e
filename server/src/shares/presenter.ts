import type { ShareResponse } from '@tribuna/contracts/api/shares';
import type { ShareRow } from './repository.ts';

/** A recorded share; `pollActive`: whether the poll took votes when it was shared (only then is there a bonus). */
export function presentShare(row: ShareRow, pollActive: boolean): ShareResponse {
  const bonusAwarded = row.pointsEarned > 0;
  return {
    pollId: row.pollId,
    platform: row.platform,
    pointsEarned: row.pointsEarned,
    bonusAwarded,
    noBonusReason: bonusAwarded ? null : pollActive ? 'no-bonus' : 'poll-closed',
    sharedAt: row.sharedAt.toISOString(),
  };
}
