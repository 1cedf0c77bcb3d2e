import type { AuthSession } from '@tribuna/contracts/api/auth';
import type { Poll, PollResults } from '@tribuna/contracts/api/polls';
import type { Profile } from '@tribuna/contracts/api/me';

let sequence = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

export function buildProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: uuid(),
    displayName: 'Ana López',
    username: 'ana',
    bio: null,
    avatarUrl: null,
    bannerUrl: null,
    role: 'user',
    isSuspended: false,
    totalPoints: 0,
    showInVoterLists: true,
    createdAt: '2025-01-05T12:00:00.000Z',
    silencedUntil: null,
    ...overrides,
  };
}

export function buildPoll(overrides: Partial<Poll> = {}): Poll {
  const pollId = overrides.id ?? uuid();
  return {
    id: pollId,
    title: '¿Quién debe ganar esta semana?',
    description: 'Elige a tu favorito.',
    status: 'active',
    isFeatured: true,
    startDate: null,
    endDate: null,
    createdAt: '2025-01-05T12:00:00.000Z',
    showResults: true,
    season: { id: uuid(), number: 3, year: 2025, reality: { id: uuid(), name: 'La Casa' } },
    pointsConfig: { pointsPerVote: 1, maxPointsPerUser: 1, dailyReset: false, bonusForSharing: 5 },
    options: [
      { id: uuid(), text: null, order: 0, contestant: { id: uuid(), fullName: 'Carla Ruiz', photoUrl: null } },
      { id: uuid(), text: 'Nadie', order: 1, contestant: null },
    ],
    ...overrides,
  };
}

/**
 * Results for `poll`: `perOption[i]` gives option i's votes, points, named voters and voter count
 * (default: the named ones). `votersListed`: as a signed-in reader gets them (default true).
 */
export function buildResults(
  poll: Poll,
  perOption: Array<{ votes: number; points: number; voters?: PollResults['options'][number]['voters']; totalVoters?: number }>,
  votersListed = true,
): PollResults {
  const options = poll.options.map((option, index) => {
    const row = perOption[index] ?? { votes: 0, points: 0 };
    const voters = votersListed ? (row.voters ?? []) : [];
    return { optionId: option.id, totalVotes: row.votes, totalPoints: row.points, totalVoters: row.totalVoters ?? row.voters?.length ?? 0, voters };
  });
  return {
    pollId: poll.id,
    totalVotes: options.reduce((sum, o) => sum + o.totalVotes, 0),
    totalPoints: options.reduce((sum, o) => sum + o.totalPoints, 0),
    totalVoters: options.reduce((sum, o) => sum + o.totalVoters, 0),
    options,
    votersListed,
  };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const signedInSession = (user: Profile): AuthSession => ({ status: 'signed_in', user, factorId: null });
export const mfaRequiredSession = (factorId: string): AuthSession => ({ status: 'mfa_required', user: null, factorId });
export const signedOutSession: AuthSession = { status: 'signed_out', user: null, factorId: null };
