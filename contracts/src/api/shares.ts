import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.ts';
import { defineRoutes } from '../route.ts';
import { PollParams } from './polls.ts';

export const SHARE_PLATFORMS = ['native', 'whatsapp', 'facebook', 'x', 'telegram', 'copy'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

/** POST /api/polls/:pollId/shares: once per poll per day ('You have already shared this poll today'). */
export const ShareInput = Type.Object({ platform: Type.Union(SHARE_PLATFORMS.map((p) => Type.Literal(p))) }, { additionalProperties: false });
export type ShareInput = Static<typeof ShareInput>;

/** Why a recorded share earns nothing: the poll no longer takes votes, or its sharing bonus is 0. */
export const SHARE_NO_BONUS_REASONS = ['poll-closed', 'no-bonus'] as const;
export type ShareNoBonusReason = (typeof SHARE_NO_BONUS_REASONS)[number];

export const ShareResponse = Type.Object({
  pollId: Uuid,
  platform: Type.String(),
  /** The bonus that will be credited (the award itself is written by the worker); 0 when none. */
  pointsEarned: Type.Integer(),
  /** Whether this share earns the sharing bonus: only a share of an active poll does. */
  bonusAwarded: Type.Boolean(),
  /** Why not, when it does not ('poll-closed': sharing a closed poll is recorded but pays nothing). */
  noBonusReason: Type.Union([...SHARE_NO_BONUS_REASONS.map((r) => Type.Literal(r)), Type.Null()]),
  sharedAt: Type.String(),
});
export type ShareResponse = Static<typeof ShareResponse>;

export const SHARE_ROUTES = defineRoutes({
  share: {
    method: 'POST',
    path: '/api/polls/:pollId/shares',
    status: 201,
    tags: ['votes'],
    summary: 'Record a share of a poll (once per poll per day) and earn its sharing bonus',
    params: PollParams,
    body: ShareInput,
    response: ShareResponse,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'shares.create',
    audience: 'writer',
  },
});
