import { beforeEach, describe, expect, it } from 'vitest';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { ResultsSnapshot, VotersMessage } from '@tribuna/contracts/live';
import { mergeVoters, useLiveResultsStore, VOTERS_PER_OPTION } from './liveResultsStore';

const POLL = 'p0000000-0000-4000-8000-000000000001';
const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000001';

const store = () => useLiveResultsStore.getState();
const poll = () => store().polls[POLL]!;
const option = (optionId: string) => poll().options.find((o) => o.optionId === optionId)!;

function snapshot(seq: number, a: [number, number], b: [number, number]): ResultsSnapshot {
  return {
    type: 'results',
    topic: `poll:${POLL}`,
    pollId: POLL,
    seq,
    totalVotes: a[0] + b[0],
    totalPoints: a[1] + b[1],
    totalVoters: a[0] + b[0],
    options: [
      { optionId: A, totalVotes: a[0], totalPoints: a[1] },
      { optionId: B, totalVotes: b[0], totalPoints: b[1] },
    ],
    committedAt: 1_700_000_000_000 + seq,
  };
}

function voters(seq: number, added: VotersMessage['added'], removed: VotersMessage['removed'] = []): VotersMessage {
  return { type: 'voters', topic: `poll:${POLL}`, pollId: POLL, seq, added, removed };
}

const voter = (optionId: string, userId: string, displayName = userId) => ({ optionId, userId, displayName, avatarUrl: null });

function httpResults(seq?: number): PollResults {
  return {
    pollId: POLL,
    totalVotes: 1,
    totalPoints: 1,
    totalVoters: 1,
    options: [
      { optionId: A, totalVotes: 1, totalPoints: 1, totalVoters: 1, voters: [{ userId: 'ana', displayName: 'Ana', avatarUrl: null }] },
      { optionId: B, totalVotes: 0, totalPoints: 0, totalVoters: 0, voters: [] },
    ],
    votersListed: true,
    ...(seq === undefined ? {} : { seq }),
  };
}

describe('live results store', () => {
  beforeEach(() => store().reset());

  describe('snapshots', () => {
    it('applies newer snapshots and drops those whose seq is not above the last applied', () => {
      expect(store().applySnapshot(snapshot(5, [3, 3], [1, 1]))).toBe(true);
      expect(poll()).toMatchObject({ seq: 5, totalVotes: 4, totalPoints: 4 });

      // Stale and duplicate snapshots change nothing.
      expect(store().applySnapshot(snapshot(4, [9, 9], [9, 9]))).toBe(false);
      expect(store().applySnapshot(snapshot(5, [9, 9], [9, 9]))).toBe(false);
      expect(poll()).toMatchObject({ seq: 5, totalVotes: 4 });
      expect(option(A).totalPoints).toBe(3);

      // seq is increasing, not contiguous (it jumps when the server rebuilds its totals).
      expect(store().applySnapshot(snapshot(1_700_000_000_000_000, [4, 4], [1, 1]))).toBe(true);
      expect(option(A).totalPoints).toBe(4);
      expect(poll().lastUpdateAt).toEqual(expect.any(Number));
    });

    it('keeps the voters of each option when totals change', () => {
      store().applyResults(httpResults());
      store().applySnapshot(snapshot(2, [2, 2], [1, 1]));
      expect(option(A)).toMatchObject({ totalVotes: 2, voters: [{ userId: 'ana' }] });
      expect(option(B).totalVotes).toBe(1);
    });
  });

  describe('HTTP results (first load and resync)', () => {
    it('applies results with a newer seq and drops older ones', () => {
      store().applySnapshot(snapshot(10, [5, 5], [0, 0]));
      expect(store().applyResults(httpResults(9))).toBe(false);
      expect(poll().totalVotes).toBe(5);

      expect(store().applyResults(httpResults(11))).toBe(true);
      expect(poll()).toMatchObject({ seq: 11, totalVotes: 1 });
      // A snapshot the results already include is dropped.
      expect(store().applySnapshot(snapshot(11, [7, 7], [0, 0]))).toBe(false);
    });

    it('treats results without a seq as authoritative, keeping the last seq', () => {
      store().applySnapshot(snapshot(10, [5, 5], [0, 0]));
      expect(store().applyResults(httpResults())).toBe(true);
      expect(poll()).toMatchObject({ seq: 10, totalVotes: 1 });
      expect(store().applySnapshot(snapshot(10, [7, 7], [0, 0]))).toBe(false);
    });

    it('starts seq tracking over on a new connection', () => {
      store().applySnapshot(snapshot(10, [5, 5], [0, 0]));
      store().forgetSeq([POLL]);
      expect(poll()).toMatchObject({ seq: null, totalVotes: 5 });
      expect(store().applySnapshot(snapshot(3, [6, 6], [0, 0]))).toBe(true);
    });
  });

  describe('voters', () => {
    it('adds new voters first (a voter again on an option moves up, counted once), without points', () => {
      store().applyResults(httpResults());
      store().applyVoters(voters(1, [voter(A, 'luis', 'Luis'), voter(B, 'luis', 'Luis')]));
      store().applyVoters(voters(2, [voter(A, 'luis', 'Luis'), voter(A, 'marta', 'Marta')]));

      expect(option(A).voters).toEqual([
        { userId: 'marta', displayName: 'Marta', avatarUrl: null },
        { userId: 'luis', displayName: 'Luis', avatarUrl: null },
        { userId: 'ana', displayName: 'Ana', avatarUrl: null },
      ]);
      expect(option(A).totalVoters).toBe(3);
      expect(option(B).voters).toEqual([{ userId: 'luis', displayName: 'Luis', avatarUrl: null }]);
      expect(option(B).totalVoters).toBe(1);
    });

    it('counts the fans the results did not name: a named voter adds to them, not in place of them', () => {
      // Ana named, two more voters who chose not to be named.
      store().applyResults({ ...httpResults(), options: [{ ...httpResults().options[0]!, totalVoters: 3 }, httpResults().options[1]!] });
      store().applyVoters(voters(1, [voter(A, 'luis', 'Luis')]));
      expect(option(A).voters.map((v) => v.userId)).toEqual(['luis', 'ana']);
      expect(option(A).totalVoters).toBe(4);
    });

    it('moves a single-choice voter: removed from the old option, added to the new one', () => {
      store().applyResults(httpResults());
      store().applyVoters(voters(1, [voter(B, 'ana', 'Ana')], [{ optionId: A, userId: 'ana' }]));
      expect(option(A).voters).toEqual([]);
      expect(option(A).totalVoters).toBe(0);
      expect(option(B).voters).toEqual([{ userId: 'ana', displayName: 'Ana', avatarUrl: null }]);
    });

    it('applies a voters message once (a repeat or older one is dropped)', () => {
      store().applyVoters(voters(3, [voter(A, 'luis')]));
      expect(store().applyVoters(voters(3, [voter(A, 'luis')]))).toBe(false);
      expect(store().applyVoters(voters(2, [voter(A, 'luis')]))).toBe(false);
      expect(option(A).voters).toEqual([{ userId: 'luis', displayName: 'luis', avatarUrl: null }]);
    });

    it('drops voters messages that HTTP results with a seq already include', () => {
      store().applyResults(httpResults(8));
      expect(store().applyVoters(voters(8, [voter(A, 'ana', 'Ana')]))).toBe(false);
      expect(option(A).voters).toEqual([{ userId: 'ana', displayName: 'Ana', avatarUrl: null }]);
    });

    it('keeps at most the newest voters per option', () => {
      const many = Array.from({ length: VOTERS_PER_OPTION + 5 }, (_, i) => voter(A, `u${i}`));
      const merged = mergeVoters([], { added: many, removed: [] });
      expect(merged[0]!.voters).toHaveLength(VOTERS_PER_OPTION);
      expect(merged[0]!.voters[0]!.userId).toBe(`u${VOTERS_PER_OPTION + 4}`);
    });
  });

  it('tracks poll status changes and counts points resets', () => {
    store().applyPollStatus({ type: 'poll-status', topic: `poll:${POLL}`, pollId: POLL, status: 'closed', isFeatured: true });
    expect(store().statuses[POLL]).toEqual({ status: 'closed', isFeatured: true });
    store().notePointsReset();
    expect(store().pointsResetCount).toBe(1);
  });

  it('forgets subscriptions when the connection drops', () => {
    store().setConnected(true);
    store().setSubscribed(POLL, true);
    expect(store()).toMatchObject({ connected: true, everConnected: true, subscribed: { [POLL]: true } });
    store().setConnected(false);
    expect(store()).toMatchObject({ connected: false, everConnected: true, subscribed: {} });
  });
});
