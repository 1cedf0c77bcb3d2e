import type { CommittedVotes, VoterChange } from '@tribuna/contracts/live';
import type { VotingPoll } from '../polls/pollCache.ts';
import { FOREIGN_OPTION, POLL_CLOSED, type OptionStanding, type RefusedVote, type VoteCommand } from './outcomes.ts';
import { voterName } from './presenter.ts';
import type * as repo from './repository.ts';
import { isPointsPoll } from './rules.ts';

// The points ledger of a vote batch. The batch statement (repository.writeVoteBatch) decides
// every command against the standing it read; the ledger replays those decisions on that standing,
// so each accepted vote is answered with the user's standing as the batch left it, and each refused
// one with why, without reading anything again.

/** The user's standing on one poll while a batch is replayed; an accepted vote is answered with it. */
export interface Ledger {
  readonly kind: 'accepted';
  readonly key: repo.VoterKey;
  readonly poll: VotingPoll;
  options: Map<string, OptionStanding>;
  /** Points in the window (single choice: the current vote's point). */
  spent: number;
  /** The batch's clock. */
  readonly at: Date;
}

/** A command's fate in its batch: accepted (its ledger), refused, or a key claimed by an earlier request. */
export type BatchOutcome = Ledger | RefusedVote | repo.EarlierRequest;

export interface BatchResult {
  /** One per command, in the batch's order. */
  outcomes: BatchOutcome[];
  /** The transaction's clock: created_at of the inserted votes. */
  votedAt: Date;
  changes: CommittedVotes[];
  /** (user, poll) of every accepted command, deduplicated. */
  voters: repo.VoterKey[];
}

export const keyOf = (userId: string, pollId: string) => `${userId}|${pollId}`;

/** One empty ledger per (user, poll) of the batch: their keys are what the batch's transaction locks. */
export function openLedgers(commands: VoteCommand[], at: Date): Map<string, Ledger> {
  const ledgers = new Map<string, Ledger>();
  for (const command of commands) {
    const id = keyOf(command.userId, command.poll.id);
    if (!ledgers.has(id)) {
      ledgers.set(id, {
        kind: 'accepted',
        key: { userId: command.userId, pollId: command.poll.id },
        poll: command.poll,
        options: new Map(),
        spent: 0,
        at,
      });
    }
  }
  return ledgers;
}

/**
 * Applies the batch's decisions, as the statement took them, to the ledgers (filled with the
 * standing it read): one outcome per command, in order. Every accepted command of a (user, poll)
 * is answered with that pair's ledger, i.e. its standing after the whole batch.
 */
export function applyBatch(commands: VoteCommand[], ledgers: Map<string, Ledger>, written: repo.BatchWrite): BatchResult {
  const votedAt = written.now;
  for (const state of written.standing) {
    const ledger = ledgers.get(keyOf(state.userId, state.pollId));
    if (!ledger) continue;
    for (const option of state.options) ledger.options.set(option.optionId, option);
    ledger.spent = spentOf(state);
  }
  const accepted = new Set<Ledger>();
  const outcomes: BatchOutcome[] = commands.map((command, i) => {
    const ledger = ledgers.get(keyOf(command.userId, command.poll.id))!;
    const decision = written.decisions[i]!;
    if (decision.kind === 'earlier') return decision;
    // Closed or changed by an admin after this instance's poll cache read it: refused like the cache would have.
    if (decision.kind === 'refused') return decision.reason === 'closed' ? POLL_CLOSED : FOREIGN_OPTION;
    if (!isPointsPoll(command.poll)) {
      const allocation = command.allocations[0]!;
      ledger.options = new Map([[allocation.optionId, { optionId: allocation.optionId, points: 1, lastVotedAt: votedAt }]]);
      ledger.spent = 1;
      accepted.add(ledger);
      return ledger;
    }
    if (!decision.accepted) return { kind: 'refused', reason: 'points', available: decision.available ?? 0 };
    for (const allocation of command.allocations) {
      const current = ledger.options.get(allocation.optionId);
      ledger.spent += allocation.points;
      ledger.options.set(allocation.optionId, {
        optionId: allocation.optionId,
        points: (current?.points ?? 0) + allocation.points,
        lastVotedAt: votedAt,
      });
    }
    accepted.add(ledger);
    return ledger;
  });

  return {
    outcomes,
    votedAt,
    changes: changesByPoll(written.added, written.removed, new Map(written.profiles.map((p) => [p.userId, p]))),
    voters: [...accepted].map((l) => l.key),
  };
}

/** Points counted against the maximum: those of the window, or every point the user has on the poll. */
export function spentOf(state: repo.VoterState): number {
  return state.windowSpent ?? state.options.reduce((sum, o) => sum + o.points, 0);
}

/** The batch's written and replaced votes per poll, with the voters' names, for the live totals. */
export function changesByPoll(added: repo.VoteRow[], removed: repo.VoteRow[], profiles: Map<string, repo.VoterProfile>): CommittedVotes[] {
  const byPoll = new Map<string, CommittedVotes>();
  const entry = (pollId: string) => {
    let change = byPoll.get(pollId);
    if (!change) {
      change = { pollId, committedAt: 0, added: [], removed: [] };
      byPoll.set(pollId, change);
    }
    return change;
  };
  for (const row of removed) {
    const hidden = profiles.get(row.userId)?.listed === false;
    entry(row.pollId).removed.push({ optionId: row.optionId, userId: row.userId, points: row.points, ...(hidden ? { hidden: true as const } : {}) });
  }
  for (const row of added) {
    const change: VoterChange = { optionId: row.optionId, userId: row.userId, ...voterName(profiles.get(row.userId)), points: row.points };
    entry(row.pollId).added.push(change);
  }
  return [...byPoll.values()];
}
