import { UnrecoverableError } from 'bullmq';
import { ABUSE_LIMITS } from '@tribuna/contracts/abuseRules';
import type { AbuseAccount, FlaggedDevice, FlaggedUser } from '@tribuna/contracts/api/admin/abuse';
import type { AbuseScanProgress } from '@tribuna/contracts/live';
import type { Db } from '@tribuna/drizzle/client';
import * as repo from './repository.ts';

/** Devices listed per flagged user in a report (deviceCount says how many there are). */
export const DEVICES_PER_USER_LISTED = 50;

const SECONDS_PER_HOUR = 3600;

/** The scan the job names is gone (never retried: it would be gone on every attempt). */
export class AbuseScanNotFoundError extends UnrecoverableError {
  constructor(scanId: string) {
    super(`abuse scan ${scanId} does not exist`);
    this.name = 'AbuseScanNotFoundError';
  }
}

export type AbuseScanEvent = AbuseScanProgress;

export interface RunAbuseScanOptions {
  /** The queued row to run (created by the admin's request); without it a new row is created (the schedule). */
  scanId?: string;
  /** Publishes the scan's progress (the worker: the cluster event `abuse.scan-progress`). Failures are ignored. */
  publish?: (event: AbuseScanEvent) => Promise<unknown>;
}

export interface AbuseScanSummary {
  scanId: string;
  status: 'done' | 'skipped';
  flaggedDevices: number;
  flaggedUsers: number;
  suspiciousVotes: number;
}

export interface AbuseReport {
  devices: FlaggedDevice[];
  users: FlaggedUser[];
}

/**
 * An account's figures (spec §8): age in hours since profiles.created_at, one decimal; votes per
 * hour = all of the account's votes over its age, the age counted as at least one hour (a
 * minutes-old account with 5 votes shows 5/h, not 300/h), two decimals.
 */
export function presentAccount(figures: repo.AccountFigures): AbuseAccount {
  const ageHours = figures.ageSeconds / SECONDS_PER_HOUR;
  return {
    userId: figures.userId,
    displayName: figures.displayName,
    username: figures.username,
    isSuspended: figures.isSuspended,
    accountAgeHours: Math.round(ageHours * 10) / 10,
    votesPerHour: Math.round((figures.voteCount / Math.max(ageHours, 1)) * 100) / 100,
    voteCount: figures.voteCount,
  };
}

/** Accounts with the most votes first (then the newest account). */
const byVotes = (a: AbuseAccount, b: AbuseAccount) => b.voteCount - a.voteCount || a.accountAgeHours - b.accountAgeHours || a.userId.localeCompare(b.userId);

/**
 * One abuse scan, start to end: takes (or creates) its abuse_scans row, flags devices voted from
 * by ABUSE_LIMITS.accountsPerDevice or more accounts and users voting from
 * ABUSE_LIMITS.devicesPerUser or more devices, counts the votes behind the flags, and stores the
 * report (ABUSE_LIMITS.reportRows of each, highest count first), publishing its progress. On an
 * error the row is marked failed with the message and the error is thrown again (BullMQ records
 * it and retries; a retry takes the same row again). Also what the benchmark runs.
 */
export async function runAbuseScan(db: Db, options: RunAbuseScanOptions = {}): Promise<AbuseScanSummary> {
  let scanId: string;
  if (options.scanId) {
    const claimed = await repo.claimScan(db, options.scanId);
    if (claimed === null) throw new AbuseScanNotFoundError(options.scanId);
    if (claimed === 'done') return { scanId: options.scanId, status: 'skipped', flaggedDevices: 0, flaggedUsers: 0, suspiciousVotes: 0 };
    scanId = claimed.id;
  } else {
    scanId = (await repo.createRunningScan(db)).id;
  }

  const publish = async (status: AbuseScanEvent['status'], progress: number) => {
    try {
      await options.publish?.({ scanId, status, progress });
    } catch {
      // Progress is a courtesy: the row holds the truth, the screen reads it when the scan ends.
    }
  };
  const step = async (progress: number) => {
    await repo.setProgress(db, scanId, progress);
    await publish('running', progress);
  };

  try {
    await publish('running', 0);
    const result = await db.transaction(
      async (tx) => {
        await repo.collectPairs(tx);
        await step(40);
        const flaggedDevices = await repo.flagDevices(tx, ABUSE_LIMITS.accountsPerDevice);
        await step(50);
        const flaggedUsers = await repo.flagUsers(tx, ABUSE_LIMITS.devicesPerUser);
        await step(60);
        const suspiciousVotes = await repo.countSuspiciousVotes(tx);
        await step(70);
        const devices = await repo.topDevices(tx, ABUSE_LIMITS.reportRows);
        const users = await repo.topUsers(tx, ABUSE_LIMITS.reportRows, DEVICES_PER_USER_LISTED);
        await step(85);
        const ids = new Set<string>([...devices.flatMap((d) => d.userIds), ...users.map((u) => u.userId)]);
        const accounts = new Map((await repo.accountFigures(tx, [...ids])).map((f) => [f.userId, presentAccount(f)]));
        const report: AbuseReport = {
          devices: devices.map((d) => ({
            fingerprint: d.fingerprint,
            accountCount: d.accountCount,
            voteCount: d.voteCount,
            accounts: d.userIds
              .map((id) => accounts.get(id))
              .filter((a): a is AbuseAccount => a !== undefined)
              .sort(byVotes),
          })),
          users: users.flatMap((u) => {
            const account = accounts.get(u.userId);
            return account ? [{ ...account, deviceCount: u.deviceCount, devices: u.devices }] : [];
          }),
        };
        return { flaggedDevices, flaggedUsers, suspiciousVotes, report };
      },
      { isolationLevel: 'repeatable read' },
    );
    await repo.finishScan(db, scanId, result);
    await publish('done', 100);
    return { scanId, status: 'done', flaggedDevices: result.flaggedDevices, flaggedUsers: result.flaggedUsers, suspiciousVotes: result.suspiciousVotes };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await repo.failScan(db, scanId, message).catch(() => undefined);
    await publish('failed', 0);
    throw err;
  }
}
