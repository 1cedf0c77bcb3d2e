import { pollTopic, type LiveOptionTotals, type ResultsSnapshot } from '@tribuna/contracts/live';

/** The totals hash as HGETALL returns it (see scripts.ts for its fields). */
export type TotalsHash = Record<string, string>;

/** Complete totals: present and not in the middle of a rebuild. */
export function isComplete(hash: TotalsHash): boolean {
  return hash.seq !== undefined && hash.rb === undefined;
}

const int = (value: string | undefined) => (value === undefined ? 0 : Number(value));

/**
 * Absolute totals of a poll from its hash: the options in option order (`o`), then any option
 * voted for since the order was written (added later by an admin).
 */
export function snapshotFromHash(pollId: string, hash: TotalsHash, totalVoters: number): ResultsSnapshot {
  const options: LiveOptionTotals[] = [];
  const listed = new Set<string>();
  const order = hash.o ? hash.o.split(',') : [];
  for (const optionId of order) {
    listed.add(optionId);
    options.push({ optionId, totalVotes: int(hash[`v:${optionId}`]), totalPoints: int(hash[`p:${optionId}`]) });
  }
  for (const field in hash) {
    if (!field.startsWith('v:')) continue;
    const optionId = field.slice(2);
    if (listed.has(optionId)) continue;
    options.push({ optionId, totalVotes: int(hash[field]), totalPoints: int(hash[`p:${optionId}`]) });
  }
  return {
    type: 'results',
    topic: pollTopic(pollId),
    pollId,
    seq: int(hash.seq),
    totalVotes: int(hash.tv),
    totalPoints: int(hash.tp),
    totalVoters,
    options,
    committedAt: int(hash.at),
  };
}
