import { create } from 'zustand';
import type { OptionResult, PollResults, Voter } from '@tribuna/contracts/api/polls';
import type { PollStatusMessage, ResultsSnapshot, VotersMessage } from '@tribuna/contracts/live';

/** Like the server's list: the newest voters of each option, capped. Totals always count everyone. */
export { VOTERS_PER_OPTION } from '@tribuna/contracts/pollRules';
import { VOTERS_PER_OPTION } from '@tribuna/contracts/pollRules';

/** GET /api/polls/:id/results, which may carry the live seq it includes at least. */
export type SequencedResults = PollResults;

/** Results as shown: totals and voters per option, without the seq bookkeeping. */
export type ResultsView = Omit<PollResults, 'seq'>;

/** Live results of one poll: the shape of PollResults plus what the live channel tracks. */
export interface LivePoll extends ResultsView {
  /**
   * Seq of the last applied totals. null when unknown: before any sequenced update, and again on
   * every new connection (a fresh socket cannot deliver a stale message of the old one).
   */
  seq: number | null;
  /** Seq of the last applied voters change (voters messages are deltas: a repeat must not count twice). */
  votersSeq: number | null;
  /** When the last change was applied (ms since epoch), null before any. */
  lastUpdateAt: number | null;
}

export interface LivePollStatus {
  status: PollStatusMessage['status'];
  isFeatured: boolean;
}

interface LiveResultsState {
  /** The socket is open. */
  connected: boolean;
  /** A socket was open at least once (tells "Conectando…" from "Reconectando…"). */
  everConnected: boolean;
  /** Polls whose subscribe message went out on the current open socket. */
  subscribed: Record<string, true>;
  polls: Record<string, LivePoll>;
  statuses: Record<string, LivePollStatus>;
  /** Bumped on each points-reset message: whoever shows available points refetches them. */
  pointsResetCount: number;

  /** Applies HTTP results (first load or resync). Returns false when they were older than what is shown. */
  applyResults: (results: SequencedResults) => boolean;
  /** Applies a coalesced snapshot of absolute totals; returns false (dropped) when its seq is not newer. */
  applySnapshot: (snapshot: ResultsSnapshot) => boolean;
  /** Merges new and removed voters; returns false when the message was already applied. */
  applyVoters: (message: VotersMessage) => boolean;
  applyPollStatus: (message: PollStatusMessage) => void;
  notePointsReset: () => void;
  setConnected: (connected: boolean) => void;
  setSubscribed: (pollId: string, subscribed: boolean) => void;
  /** A new connection: seq tracking of these polls starts over (their data stays on screen). */
  forgetSeq: (pollIds: readonly string[]) => void;
  reset: () => void;
}

const isNewer = (seq: number, last: number | null) => last === null || seq > last;

/** A named voter moved to the top of the list (newest first). */
function addVoter(voters: readonly Voter[], added: Voter): Voter[] {
  return [added, ...voters.filter((v) => v.userId !== added.userId)].slice(0, VOTERS_PER_OPTION);
}

/**
 * Applies a voters message to the options: removals first (a single-choice vote moving away from
 * an option), then additions. Messages name only listed fans, so an option's voter count follows
 * them: a name new to the list is one more voter, a name removed one less (fans who are not named
 * are counted again at the next HTTP results).
 */
export function mergeVoters(options: readonly OptionResult[], message: Pick<VotersMessage, 'added' | 'removed'>): OptionResult[] {
  const byOption = new Map(options.map((option) => [option.optionId, option]));
  const optionFor = (optionId: string): OptionResult => {
    let option = byOption.get(optionId);
    if (!option) {
      option = { optionId, totalVotes: 0, totalPoints: 0, totalVoters: 0, voters: [] };
      byOption.set(optionId, option);
    }
    return option;
  };
  for (const { optionId, userId } of message.removed) {
    const option = byOption.get(optionId);
    if (!option || !option.voters.some((v) => v.userId === userId)) continue;
    const voters = option.voters.filter((v) => v.userId !== userId);
    byOption.set(optionId, { ...option, voters, totalVoters: Math.max(voters.length, option.totalVoters - 1) });
  }
  for (const { optionId, userId, displayName, avatarUrl } of message.added) {
    const option = optionFor(optionId);
    const isNew = !option.voters.some((v) => v.userId === userId);
    const voters = addVoter(option.voters, { userId, displayName, avatarUrl });
    byOption.set(optionId, { ...option, voters, totalVoters: Math.max(voters.length, option.totalVoters + (isNew ? 1 : 0)) });
  }
  return [...byOption.values()];
}

function emptyPoll(pollId: string): LivePoll {
  return { pollId, totalVotes: 0, totalPoints: 0, totalVoters: 0, options: [], votersListed: false, seq: null, votersSeq: null, lastUpdateAt: null };
}

const initialState = {
  connected: false,
  everConnected: false,
  subscribed: {},
  polls: {},
  statuses: {},
  pointsResetCount: 0,
};

export const useLiveResultsStore = create<LiveResultsState>()((set, get) => ({
  ...initialState,

  applyResults(results) {
    const current = get().polls[results.pollId];
    const { seq, ...rest } = results;
    // With a seq, only newer data wins; without one the server's answer is authoritative.
    if (current && seq !== undefined && !isNewer(seq, current.seq)) return false;
    const next: LivePoll = {
      ...rest,
      options: rest.options.map((option) => ({ ...option, voters: option.voters.slice(0, VOTERS_PER_OPTION) })),
      seq: seq ?? current?.seq ?? null,
      // The voters lists include every batch up to `seq`: a voters message at or below it is a repeat.
      votersSeq: seq ?? current?.votersSeq ?? null,
      lastUpdateAt: Date.now(),
    };
    set((state) => ({ polls: { ...state.polls, [results.pollId]: next } }));
    return true;
  },

  applySnapshot(snapshot) {
    const current = get().polls[snapshot.pollId] ?? emptyPoll(snapshot.pollId);
    if (!isNewer(snapshot.seq, current.seq)) return false;
    const voters = new Map(current.options.map((option) => [option.optionId, option]));
    const known = new Set(snapshot.options.map((option) => option.optionId));
    const next: LivePoll = {
      ...current,
      totalVotes: snapshot.totalVotes,
      totalPoints: snapshot.totalPoints,
      totalVoters: snapshot.totalVoters,
      options: [
        ...snapshot.options.map(({ optionId, totalVotes, totalPoints }) => ({
          optionId,
          totalVotes,
          totalPoints,
          // Snapshots carry no voters per option: kept from the last results (none left without votes).
          totalVoters: totalVotes === 0 ? 0 : (voters.get(optionId)?.totalVoters ?? 0),
          voters: voters.get(optionId)?.voters ?? [],
        })),
        // Options the snapshot does not mention keep their voters (totals are absolute: zero).
        ...current.options.filter((option) => !known.has(option.optionId)).map((option) => ({ ...option, totalVotes: 0, totalPoints: 0 })),
      ],
      seq: snapshot.seq,
      lastUpdateAt: Date.now(),
    };
    set((state) => ({ polls: { ...state.polls, [snapshot.pollId]: next } }));
    return true;
  },

  applyVoters(message) {
    const current = get().polls[message.pollId] ?? emptyPoll(message.pollId);
    if (!isNewer(message.seq, current.votersSeq)) return false;
    const next: LivePoll = {
      ...current,
      options: mergeVoters(current.options, message),
      votersSeq: message.seq,
      lastUpdateAt: Date.now(),
    };
    set((state) => ({ polls: { ...state.polls, [message.pollId]: next } }));
    return true;
  },

  applyPollStatus({ pollId, status, isFeatured }) {
    set((state) => ({ statuses: { ...state.statuses, [pollId]: { status, isFeatured } } }));
  },

  notePointsReset() {
    set((state) => ({ pointsResetCount: state.pointsResetCount + 1 }));
  },

  setConnected(connected) {
    set((state) => ({
      connected,
      everConnected: state.everConnected || connected,
      subscribed: connected ? state.subscribed : {},
    }));
  },

  setSubscribed(pollId, subscribed) {
    set((state) => {
      if (Boolean(state.subscribed[pollId]) === subscribed) return state;
      const next = { ...state.subscribed };
      if (subscribed) next[pollId] = true;
      else delete next[pollId];
      return { subscribed: next };
    });
  },

  forgetSeq(pollIds) {
    set((state) => {
      const polls = { ...state.polls };
      for (const pollId of pollIds) {
        const poll = polls[pollId];
        if (poll) polls[pollId] = { ...poll, seq: null, votersSeq: null };
      }
      return { polls };
    });
  },

  reset() {
    set(initialState);
  },
}));

/** The live results of a poll, or undefined before any were loaded or received. */
export const useLivePollResults = (pollId: string) => useLiveResultsStore((state) => state.polls[pollId]);

/** "En vivo": the socket is open and this poll's subscription went out on it. */
export const useIsLive = (pollId: string) => useLiveResultsStore((state) => state.connected && state.subscribed[pollId] === true);
