import { VOTE_MESSAGES } from './voteMessages';

/** Points per option in points mode; options left out count as zero. */
export type Allocations = Readonly<Record<string, number>>;

export const sumAllocations = (allocations: Allocations) => Object.values(allocations).reduce((sum, points) => sum + points, 0);

/** The message to show before sending a single-choice vote, or null when it may go. */
export function validateSingleChoice(optionId: string | null): string | null {
  return optionId ? null : VOTE_MESSAGES.selectOption;
}

/** The message to show before sending a points vote, or null when it may go. */
export function validateAllocations(allocations: Allocations, available: number): string | null {
  const assigned = sumAllocations(allocations);
  if (assigned < 1) return VOTE_MESSAGES.assignPoint;
  if (assigned > available) return VOTE_MESSAGES.tooManyPoints(available);
  return null;
}

/** What the server takes: only the options that got points. */
export function toAllocationList(allocations: Allocations): Array<{ optionId: string; points: number }> {
  return Object.entries(allocations)
    .filter(([, points]) => points > 0)
    .map(([optionId, points]) => ({ optionId, points }));
}

/** A typed points value: whole, not negative, at most `max` (the contract's ceiling per option). */
export function parsePoints(text: string, max = 1000): number {
  const value = Number.parseInt(text, 10);
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.min(value, max);
}
