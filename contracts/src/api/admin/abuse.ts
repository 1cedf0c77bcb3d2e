import { Type, type Static } from '@sinclair/typebox';
import { ABUSE_LIMITS } from '../../abuseRules.ts';
import { IsoDate, SafeText, Uuid } from '../common.ts';
import { defineRoutes } from '../../route.ts';

export const AbuseScanStatus = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);

/** An account seen on a flagged device, or a flagged user (spec §8 Abuse detection rules). */
export const AbuseAccount = Type.Object({
  userId: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  isSuspended: Type.Boolean(),
  /** Hours since the account was created (one decimal). */
  accountAgeHours: Type.Number({ minimum: 0 }),
  /** Votes over account age. */
  votesPerHour: Type.Number({ minimum: 0 }),
  voteCount: Type.Integer({ minimum: 0 }),
});
export type AbuseAccount = Static<typeof AbuseAccount>;

/** A device (fingerprint) 2 or more accounts voted from; the screen truncates the id to 16 characters. */
export const FlaggedDevice = Type.Object({
  fingerprint: Type.String(),
  accountCount: Type.Integer({ minimum: 0 }),
  voteCount: Type.Integer({ minimum: 0 }),
  accounts: Type.Array(AbuseAccount),
});
export type FlaggedDevice = Static<typeof FlaggedDevice>;

/** A user who voted from 3 or more devices; the screen truncates device ids to 8 characters. */
export const FlaggedUser = Type.Composite([AbuseAccount, Type.Object({ deviceCount: Type.Integer({ minimum: 0 }), devices: Type.Array(Type.String()) })]);
export type FlaggedUser = Static<typeof FlaggedUser>;

export const AbuseScanView = Type.Object({
  id: Uuid,
  status: AbuseScanStatus,
  /** 0-100 while running. */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  startedAt: IsoDate,
  finishedAt: Type.Union([IsoDate, Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  flaggedDevices: Type.Integer({ minimum: 0 }),
  flaggedUsers: Type.Integer({ minimum: 0 }),
  /** Votes cast from flagged devices or by flagged users. */
  suspiciousVotes: Type.Integer({ minimum: 0 }),
  /** Highest account count first (empty until done). */
  devices: Type.Array(FlaggedDevice),
  /** Highest device count first (empty until done). */
  users: Type.Array(FlaggedUser),
});
export type AbuseScanView = Static<typeof AbuseScanView>;

/** GET /api/admin/abuse/scans/latest */
export const LatestAbuseScan = Type.Object({ scan: Type.Union([AbuseScanView, Type.Null()]) });
export type LatestAbuseScan = Static<typeof LatestAbuseScan>;

/** GET /api/admin/abuse/votes: the votes behind a flag, one device's or one user's (exactly one of the two). */
export const AbuseVotesQuery = Type.Object(
  {
    fingerprint: Type.Optional(SafeText({ minLength: 1, maxLength: 128 })),
    userId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type AbuseVotesQuery = Static<typeof AbuseVotesQuery>;

export const AbuseVote = Type.Object({
  /** The vote's id (a bigint, as a string). */
  id: Type.String({ maxLength: 20 }),
  pollId: Uuid,
  pollTitle: Type.String(),
  optionLabel: Type.String(),
  userId: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  points: Type.Integer(),
  deviceFingerprint: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoDate,
  /** Set while the vote is voided: out of the results and the live totals, kept here. */
  voided: Type.Union([
    Type.Object({ at: IsoDate, byId: Type.Union([Uuid, Type.Null()]), byName: Type.Union([Type.String(), Type.Null()]), reason: Type.String() }),
    Type.Null(),
  ]),
});
export type AbuseVote = Static<typeof AbuseVote>;

export const AbuseVoteList = Type.Object({ items: Type.Array(AbuseVote), truncated: Type.Boolean() });
export type AbuseVoteList = Static<typeof AbuseVoteList>;

const VoteIds = Type.Array(Type.String({ pattern: '^[0-9]{1,19}$' }), { minItems: 1, maxItems: ABUSE_LIMITS.voidBatch, uniqueItems: true });

/** POST /api/admin/abuse/votes/void: after review, with a reason (3-500 characters). */
export const VoidVotesInput = Type.Object({ voteIds: VoteIds, reason: SafeText({ maxLength: ABUSE_LIMITS.voidReason * 2 }) }, { additionalProperties: false });
export type VoidVotesInput = Static<typeof VoidVotesInput>;

/** POST /api/admin/abuse/votes/restore */
export const RestoreVotesInput = Type.Object({ voteIds: VoteIds }, { additionalProperties: false });
export type RestoreVotesInput = Static<typeof RestoreVotesInput>;

/** How many votes changed, and how many were left as they were (already voided/restored, gone, or a restore the user's newer vote replaces). */
export const VoidResult = Type.Object({ changed: Type.Integer({ minimum: 0 }), skipped: Type.Integer({ minimum: 0 }), pollIds: Type.Array(Uuid) });
export type VoidResult = Static<typeof VoidResult>;

/** Live on the `admin` topic: a scan's progress (the screen follows it, then reads the result). */
export const AbuseScanMessage = Type.Object({
  type: Type.Literal('abuse-scan'),
  topic: Type.Literal('admin'),
  scanId: Uuid,
  status: AbuseScanStatus,
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
});
export type AbuseScanMessage = Static<typeof AbuseScanMessage>;

/**
 * /api/admin/abuse/*: the abuse report (the worker's scans), the votes behind a flag, and voiding
 * or restoring them.
 */
export const ADMIN_ABUSE_ROUTES = defineRoutes({
  latestAbuseScan: {
    method: 'GET',
    path: '/api/admin/abuse/scans/latest',
    status: 200,
    tags: ['admin'],
    summary: 'The latest abuse scan (queued, running, done or failed), with its report when done',
    response: LatestAbuseScan,
    errors: [401, 403, 429],
    rateLimit: 'admin.read',
  },
  startAbuseScan: {
    method: 'POST',
    path: '/api/admin/abuse/scans',
    status: 202,
    tags: ['admin'],
    summary: 'Start an abuse scan in the worker (or answer the one already queued or running)',
    response: AbuseScanView,
    errors: [401, 403, 429, 503],
    rateLimit: 'admin.write',
  },
  abuseVotes: {
    method: 'GET',
    path: '/api/admin/abuse/votes',
    status: 200,
    tags: ['admin'],
    summary: 'Live and voided votes of one device (fingerprint) or one user (userId), newest first',
    querystring: AbuseVotesQuery,
    response: AbuseVoteList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  voidVotes: {
    method: 'POST',
    path: '/api/admin/abuse/votes/void',
    status: 200,
    tags: ['admin'],
    summary: 'Void votes after review, with a reason: out of the results and the live totals at once',
    body: VoidVotesInput,
    response: VoidResult,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.write',
  },
  restoreVotes: {
    method: 'POST',
    path: '/api/admin/abuse/votes/restore',
    status: 200,
    tags: ['admin'],
    summary: 'Restore voided votes (skipping those the voter has replaced since)',
    body: RestoreVotesInput,
    response: VoidResult,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.write',
  },
});
