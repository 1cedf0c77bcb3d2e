import type { AbuseScanView, AbuseVote, FlaggedDevice, FlaggedUser } from '@tribuna/contracts/api/admin/abuse';
import type { AbuseVoteRow, ScanRow } from './repository.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

/** A scan as the screen shows it: devices and users (the worker's report) once it is done. */
export function presentScan(row: ScanRow): AbuseScanView {
  const report = (row.report ?? null) as { devices?: FlaggedDevice[]; users?: FlaggedUser[] } | null;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    startedAt: iso(row.startedAt),
    finishedAt: row.finishedAt ? iso(row.finishedAt) : null,
    error: row.error,
    flaggedDevices: row.flaggedDevices,
    flaggedUsers: row.flaggedUsers,
    suspiciousVotes: row.suspiciousVotes,
    devices: report?.devices ?? [],
    users: report?.users ?? [],
  };
}

export function presentAbuseVote(row: AbuseVoteRow): AbuseVote {
  return {
    id: row.id,
    pollId: row.poll_id,
    pollTitle: row.poll_title ?? '',
    optionLabel: row.option_label ?? '',
    userId: row.user_id,
    displayName: row.display_name,
    points: row.points,
    deviceFingerprint: row.device_fingerprint,
    createdAt: iso(row.created_at),
    voided: row.voided_at === null ? null : { at: iso(row.voided_at), byId: row.voided_by, byName: row.voided_by_name, reason: row.void_reason ?? '' },
  };
}
