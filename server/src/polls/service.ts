import { VOTE_MESSAGES } from '@tribuna/contracts/voteMessages';
import { VOTERS_PER_OPTION } from '@tribuna/contracts/pollRules';
import type { HomePollResponse, Poll, PollListResponse, PollResults } from '@tribuna/contracts/api/polls';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { forbidden, notFound } from '../http/errors.ts';
import { presentPoll, presentResults } from './presenter.ts';
import * as repo from './repository.ts';
import { mayListVoters, type ResultsReader } from './rules.ts';

/** The voters list of each option is capped; totals always count everyone. */
/** The public list is not paginated yet; this bounds the response. */
export const POLL_LIST_LIMIT = 100;

export const RESULTS_HIDDEN = 'Los resultados de esta encuesta no son públicos';

function groupByPoll<T extends { pollId: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.pollId) ?? [];
    list.push(row);
    map.set(row.pollId, list);
  }
  return map;
}

/**
 * Options, vote totals, voters (for a reader who may see them) and the voided votes' count are
 * independent reads: run them side by side.
 */
async function loadOptionsAndResults(db: DbOrTx, pollId: string, reader: ResultsReader) {
  const [options, counts, voters, voidedVotes] = await Promise.all([
    repo.listOptions(db, [pollId]),
    repo.countVotes(db, pollId),
    mayListVoters(reader) ? repo.listVoters(db, pollId, VOTERS_PER_OPTION) : null,
    repo.countVoidedVotes(db, pollId),
  ]);
  const results = {
    ...presentResults(
      pollId,
      options.map((o) => o.id),
      counts,
      voters,
    ),
    voidedVotes,
  };
  return { options, results };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A poll id as it may appear in a shared link; null for anything that is not one. */
export function sharedPollId(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && UUID.test(first) ? first.toLowerCase() : null;
}

/**
 * The poll for the home page: the shared one (`encuesta`) when it is public, else the featured
 * poll whatever its status (a closed one with its final results), else the newest open one, with
 * its results.
 */
export async function getHomePoll(db: DbOrTx, reader: ResultsReader, now = new Date(), encuesta?: string | string[]): Promise<HomePollResponse> {
  const sharedId = sharedPollId(encuesta);
  const row = (sharedId ? await repo.findPublicPoll(db, sharedId) : null) ?? (await repo.findHomePoll(db, now));
  if (!row) return { poll: null, results: null };
  if (!row.showResults) return { poll: presentPoll(row, await repo.listOptions(db, [row.id]), now), results: null };
  const { options, results } = await loadOptionsAndResults(db, row.id, reader);
  return { poll: presentPoll(row, options, now), results };
}

export async function listPolls(db: DbOrTx, now = new Date()): Promise<PollListResponse> {
  const rows = await repo.listPublicPolls(db, POLL_LIST_LIMIT);
  const options = groupByPoll(
    await repo.listOptions(
      db,
      rows.map((r) => r.id),
    ),
  );
  return { polls: rows.map((row) => presentPoll(row, options.get(row.id) ?? [], now)) };
}

export async function getPoll(db: DbOrTx, pollId: string, now = new Date()): Promise<Poll> {
  const row = await repo.findPublicPoll(db, pollId);
  if (!row) throw notFound(VOTE_MESSAGES.pollNotFound);
  return presentPoll(row, await repo.listOptions(db, [row.id]), now);
}

/**
 * Results of a public poll; 403 when the admins chose not to show them. Voters lists only for a
 * signed-in reader (mayListVoters). With `readLiveSeq` they carry the live seq they include, so a
 * client resyncing over HTTP can order them with snapshots.
 */
export async function getPollResults(
  db: DbOrTx,
  pollId: string,
  reader: ResultsReader,
  readLiveSeq?: (pollId: string) => Promise<number | null>,
): Promise<PollResults> {
  const row = await repo.findPublicPoll(db, pollId);
  if (!row) throw notFound(VOTE_MESSAGES.pollNotFound);
  if (!row.showResults) throw forbidden(RESULTS_HIDDEN);
  // Read before the totals: every batch up to this seq was committed before they are counted.
  const seq = readLiveSeq ? await readLiveSeq(row.id) : null;
  const { results } = await loadOptionsAndResults(db, row.id, reader);
  return seq === null ? results : { ...results, seq };
}

// What other domains (the admin's polls, share cards) use of polls.
export { findHomePoll, findPublicPoll, type BallotOptionRow } from './repository.ts';
