import type { OptionResult, Poll, PollOption, PollResults, Voter } from '@tribuna/contracts/api/polls';
import type { OptionRow, PollRow, VoteCountRow, VoterRow } from './repository.ts';
import { DEFAULT_POINTS_CONFIG, effectiveStatus, voterDisplayName } from './rules.ts';

export function presentOption(row: OptionRow): PollOption {
  return {
    id: row.id,
    text: row.text,
    order: row.order,
    contestant: row.contestantId === null ? null : { id: row.contestantId, fullName: row.contestantName ?? '', photoUrl: row.contestantPhotoUrl },
  };
}

export function presentPoll(row: PollRow, options: OptionRow[], now: Date): Poll {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: effectiveStatus(row, now),
    isFeatured: row.isFeatured,
    startDate: row.startDate?.toISOString() ?? null,
    endDate: row.endDate?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    showResults: row.showResults,
    season: {
      id: row.seasonId,
      number: row.seasonNumber,
      year: row.seasonYear,
      reality: { id: row.realityId, name: row.realityName },
    },
    pointsConfig: {
      pointsPerVote: row.pointsPerVote ?? DEFAULT_POINTS_CONFIG.pointsPerVote,
      maxPointsPerUser: row.maxPointsPerUser ?? DEFAULT_POINTS_CONFIG.maxPointsPerUser,
      dailyReset: row.dailyReset ?? DEFAULT_POINTS_CONFIG.dailyReset,
      bonusForSharing: row.bonusForSharing ?? DEFAULT_POINTS_CONFIG.bonusForSharing,
    },
    options: options.map(presentOption),
  };
}

export function presentVoter(row: VoterRow): Voter {
  return {
    userId: row.userId,
    displayName: voterDisplayName(row.displayName),
    avatarUrl: row.avatarUrl,
  };
}

/**
 * Results for every option of the poll (zero when nobody voted for it), in option order. `voters`
 * null: the reader may not see who voted (signed out), every list is empty and says so.
 */
export function presentResults(pollId: string, optionIds: string[], counts: VoteCountRow[], voters: VoterRow[] | null): PollResults {
  const total = counts.find((c) => c.isTotal);
  const perOption = new Map(counts.filter((c) => !c.isTotal).map((c) => [c.optionId, c]));
  const votersByOption = new Map<string, Voter[]>();
  for (const row of voters ?? []) {
    const list = votersByOption.get(row.optionId) ?? [];
    list.push(presentVoter(row));
    votersByOption.set(row.optionId, list);
  }
  const options: OptionResult[] = optionIds.map((optionId) => ({
    optionId,
    totalVotes: perOption.get(optionId)?.totalVotes ?? 0,
    totalPoints: perOption.get(optionId)?.totalPoints ?? 0,
    totalVoters: perOption.get(optionId)?.totalVoters ?? 0,
    voters: votersByOption.get(optionId) ?? [],
  }));
  return {
    pollId,
    totalVotes: total?.totalVotes ?? 0,
    totalPoints: total?.totalPoints ?? 0,
    totalVoters: total?.totalVoters ?? 0,
    options,
    votersListed: voters !== null,
  };
}
