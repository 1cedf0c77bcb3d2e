import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.ts';
import { defineRoutes } from '../route.ts';
import { PollParams } from './polls.ts';

/** Computed in the browser and kept stable (localStorage); stored with each vote. */
export const DeviceFingerprint = Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * POST /api/polls/:pollId/votes.
 * Single-choice polls (maxPointsPerUser = 1) take `optionId`; points polls take `allocations`.
 */
export const CastVoteInput = Type.Union([
  Type.Object({ optionId: Uuid, deviceFingerprint: DeviceFingerprint }, { additionalProperties: false }),
  Type.Object(
    {
      allocations: Type.Array(Type.Object({ optionId: Uuid, points: Type.Integer({ minimum: 0, maximum: 1000 }) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 50,
      }),
      deviceFingerprint: DeviceFingerprint,
    },
    { additionalProperties: false },
  ),
]);
export type CastVoteInput = Static<typeof CastVoteInput>;

/**
 * The Idempotency-Key header a vote may carry (one per user action, e.g. a UUID): a retry with the
 * same key gets the first request's answer and votes nothing twice. Keys are kept 24 hours.
 */
export const IdempotencyKey = Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
export const CastVoteHeaders = Type.Object({ 'idempotency-key': Type.Optional(IdempotencyKey) });
export type CastVoteHeaders = Static<typeof CastVoteHeaders>;

/** What the user may still spend on a poll (daily polls count since 00:00 SHOW_TIMEZONE). */
export const AvailablePoints = Type.Object({
  pollId: Uuid,
  maxPoints: Type.Integer(),
  spent: Type.Integer(),
  available: Type.Integer(),
  dailyReset: Type.Boolean(),
  /** When the spent points reset (next 00:00 in SHOW_TIMEZONE), null without daily reset. */
  resetsAt: Type.Union([Type.String(), Type.Null()]),
});
export type AvailablePoints = Static<typeof AvailablePoints>;

export const MyVote = Type.Object({ optionId: Uuid, points: Type.Integer(), createdAt: Type.String() });

/** 201 answer of a vote, and GET /api/polls/:pollId/my-votes (the user's current votes on a poll). */
export const MyVotesResponse = Type.Object({
  votes: Type.Array(MyVote),
  availablePoints: AvailablePoints,
});
export type MyVotesResponse = Static<typeof MyVotesResponse>;

export { VOTE_MESSAGES } from '../voteMessages.ts';

export const VOTE_ROUTES = defineRoutes({
  castVote: {
    method: 'POST',
    path: '/api/polls/:pollId/votes',
    status: 201,
    tags: ['votes'],
    summary: 'Vote: one option (single choice, replaces the earlier vote) or points across options',
    params: PollParams,
    headers: CastVoteHeaders,
    body: CastVoteInput,
    response: MyVotesResponse,
    errors: [400, 401, 403, 404, 409, 422, 429, 503],
    rateLimit: 'votes.cast',
    audience: 'writer',
  },
  myVotes: {
    method: 'GET',
    path: '/api/polls/:pollId/my-votes',
    status: 200,
    tags: ['votes'],
    summary: "The signed-in user's votes on a poll and the points still available",
    params: PollParams,
    response: MyVotesResponse,
    errors: [400, 401, 404, 429],
    rateLimit: 'votes.mine',
    audience: 'user',
  },
  availablePoints: {
    method: 'GET',
    path: '/api/polls/:pollId/available-points',
    status: 200,
    tags: ['votes'],
    summary: 'Points the signed-in user may still assign on a poll, and when they reset',
    params: PollParams,
    response: AvailablePoints,
    errors: [400, 401, 404, 429],
    rateLimit: 'votes.mine',
    audience: 'user',
  },
});
