import type { ShareResponse } from '@tribuna/contracts/api/shares';
import type { ShareRow } from './repository.ts';

export function presentShare(row: ShareRow): ShareResponse {
  return {
    pollId: row.pollId,
    platform: row.platform,
    pointsEarned: row.pointsEarned,
    sharedAt: row.sharedAt.toISOString(),
  };
}
