import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.ts';

export const SHARE_PLATFORMS = ['native', 'whatsapp', 'facebook', 'x', 'telegram', 'copy'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

/** POST /api/polls/:pollId/shares: once per poll per day ('You have already shared this poll today'). */
export const ShareInput = Type.Object(
  { platform: Type.Union(SHARE_PLATFORMS.map((p) => Type.Literal(p))) },
  { additionalProperties: false },
);
export type ShareInput = Static<typeof ShareInput>;

export const ShareResponse = Type.Object({
  pollId: Uuid,
  platform: Type.String(),
  /** The bonus that will be credited (the award itself is written by the worker). */
  pointsEarned: Type.Integer(),
  sharedAt: Type.String(),
});
export type ShareResponse = Static<typeof ShareResponse>;
