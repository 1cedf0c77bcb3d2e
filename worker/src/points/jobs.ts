import type { JobHandlers } from '../registry.ts';
import { awardShare, awardVote, awardVotes, dailyReset, sweep } from './service.ts';

type PointsJobs = Pick<JobHandlers, 'points.award-vote' | 'points.award-votes' | 'points.award-share' | 'points.sweep' | 'points.daily-reset'>;

// Payloads reach these handlers checked against their schemas (contracts/src/jobs.ts: uuids, real
// calendar days, at most MAX_AWARD_VOTES_PER_JOB voters) by the registry, and only there.
export const pointsJobs: PointsJobs = {
  'points.award-vote': async (payload, ctx) => awardVote(ctx, payload),
  'points.award-votes': async (payload, ctx) => awardVotes(ctx, payload),
  'points.award-share': async (payload, ctx) => awardShare(ctx, payload),
  'points.sweep': async (payload, ctx) => sweep(ctx, { full: payload.full === true }),
  'points.daily-reset': async (_payload, ctx) => dailyReset(ctx),
};
