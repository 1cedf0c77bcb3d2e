import { InvalidPayloadError } from '../errors.ts';
import type { JobHandlers } from '../registry.ts';
import { isCalendarDay } from '../reports/service.ts';
import { MAX_AWARD_VOTES_PER_JOB } from '@tribuna/contracts/jobs';
import { awardShare, awardVote, awardVotes, dailyReset, sweep } from './service.ts';

type PointsJobs = Pick<JobHandlers, 'points.award-vote' | 'points.award-votes' | 'points.award-share' | 'points.sweep' | 'points.daily-reset'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export const pointsJobs: PointsJobs = {
  'points.award-vote': async (payload, ctx) => {
    if (!isUuid(payload?.userId) || !isUuid(payload?.pollId) || !isCalendarDay(payload?.day)) {
      throw new InvalidPayloadError('points.award-vote', `needs userId, pollId (uuid) and day (YYYY-MM-DD), got ${JSON.stringify(payload)}`);
    }
    return awardVote(ctx, payload);
  },
  'points.award-votes': async (payload, ctx) => {
    const voters: unknown = payload?.voters;
    if (
      !isCalendarDay(payload?.day) ||
      !Array.isArray(voters) ||
      voters.length > MAX_AWARD_VOTES_PER_JOB ||
      !voters.every((v: { userId?: unknown; pollId?: unknown } | null) => isUuid(v?.userId) && isUuid(v?.pollId))
    ) {
      throw new InvalidPayloadError(
        'points.award-votes',
        `needs day (YYYY-MM-DD) and up to ${MAX_AWARD_VOTES_PER_JOB} voters { userId, pollId } (uuids), got ${JSON.stringify(payload).slice(0, 300)}`,
      );
    }
    return awardVotes(ctx, payload);
  },
  'points.award-share': async (payload, ctx) => {
    if (!isUuid(payload?.shareId)) {
      throw new InvalidPayloadError('points.award-share', `needs shareId (uuid), got ${JSON.stringify(payload)}`);
    }
    return awardShare(ctx, payload);
  },
  'points.sweep': async (payload, ctx) => sweep(ctx, { full: payload?.full === true }),
  'points.daily-reset': async (_payload, ctx) => dailyReset(ctx),
};
