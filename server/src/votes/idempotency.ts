import type postgres from 'postgres';
import type { GroupCommitLogger } from '../batching/groupCommit.ts';
import { keyOf, spentOf } from './ledger.ts';
import { KEY_REUSED, WRITER_FAILED, type AcceptedVote, type PendingVote, type RefusedVote, type VoteCommand, type VoteOutcome } from './outcomes.ts';
import { presentStoredAnswer } from './presenter.ts';
import * as repo from './repository.ts';
import { pointsWindowStart } from './rules.ts';

// Idempotent votes (the Idempotency-Key header). A command carrying a key that another command of
// this instance is still handling gets that command's answer. In the database the key is claimed
// in the batch's own transaction (see repository.writeVoteBatch); the answer is stored right after
// COMMIT, before the keyed voters are answered (one more round trip, for keyed batches only), so a
// retry that follows a lost answer replays it. Stored answers keep the route's form, {status,
// body}, whichever version of the server wrote them.

/** How long a replay waits for an earlier request's answer to be stored (it is, right after its COMMIT). */
const STORED_ANSWER_POLLS = 10;
const STORED_ANSWER_POLL_MS = 50;

/** A keyed command its batch decided (and claimed the key for, unless refused before the claim). */
export interface ClaimedVote {
  pending: PendingVote;
  outcome: AcceptedVote | RefusedVote;
}

/** A command whose key an earlier, committed request claimed: it wrote nothing. */
export interface ReplayedVote {
  pending: PendingVote;
  earlier: repo.EarlierRequest;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class IdempotentVotes {
  /** Keyed commands queued or in flight, by user and key: a duplicate shares the first one's answer. */
  private readonly inFlight = new Map<string, { pollId: string; answer: Promise<VoteOutcome> }>();

  constructor(
    private readonly sql: postgres.Sql,
    private readonly timeZone: string,
    private readonly logger: GroupCommitLogger,
  ) {}

  /**
   * Hands a keyed command to `submit`, unless a command of this instance with the same key is
   * still being handled: then that one's answer, or a key-reused refusal when it was for another poll.
   */
  submit(command: VoteCommand, submit: (command: VoteCommand) => Promise<VoteOutcome>): Promise<VoteOutcome> {
    const key = keyOf(command.userId, command.idempotencyKey!);
    const same = this.inFlight.get(key);
    if (same) return same.pollId === command.poll.id ? same.answer : Promise.resolve(KEY_REUSED);
    const answer = submit(command);
    this.inFlight.set(key, { pollId: command.poll.id, answer });
    const forget = () => this.inFlight.delete(key);
    answer.then(forget, forget);
    return answer;
  }

  /**
   * After COMMIT: stores the answers of the keys the batch claimed, then answers their voters with
   * them; answers the others from the earlier requests' answers.
   */
  async answer(claimed: ClaimedVote[], replays: ReplayedVote[]): Promise<void> {
    const db = repo.poolRunner(this.sql);
    // Presented once: the voter gets exactly what a retry will replay.
    const answers = claimed.map(({ outcome }) => presentStoredAnswer(outcome, this.timeZone));
    const store = async () => {
      if (claimed.length === 0) return;
      try {
        await repo.storeVoteAnswers(
          db,
          claimed.map(({ pending }, i) => ({ userId: pending.command.userId, key: pending.command.idempotencyKey!, answer: answers[i]! })),
        );
      } catch (err) {
        this.logger.warn({ err }, 'answers of idempotent votes not stored; a retry will get the current standing');
      }
    };
    try {
      await Promise.all([store(), this.replay(db, replays)]);
    } finally {
      // Settling twice is a no-op: this answers the claimed votes, and whoever a failure above left waiting.
      claimed.forEach(({ pending }, i) => pending.resolve({ kind: 'answered', answer: answers[i]! }));
      for (const { pending } of replays) pending.reject(WRITER_FAILED);
    }
  }

  /**
   * Answers commands whose key an earlier, committed request claimed: key-reused when that was for
   * another poll, else its stored answer. One not stored yet is waited for briefly (it is written
   * right after that request's COMMIT); if it never comes (that server stopped in between), the
   * answer is the user's standing on the poll now, which includes the earlier vote.
   */
  private async replay(db: repo.SqlRunner, replays: ReplayedVote[]): Promise<void> {
    let waiting: PendingVote[] = [];
    for (const { pending, earlier } of replays) {
      if (earlier.pollId !== pending.command.poll.id) pending.resolve(KEY_REUSED);
      else if (earlier.answer) pending.resolve({ kind: 'answered', answer: earlier.answer });
      else waiting.push(pending);
    }
    const keyOfPending = (p: PendingVote) => ({ userId: p.command.userId, key: p.command.idempotencyKey! });
    for (let attempt = 0; waiting.length > 0 && attempt < STORED_ANSWER_POLLS; attempt++) {
      await sleep(STORED_ANSWER_POLL_MS);
      const found = await repo.findVoteAnswers(db, waiting.map(keyOfPending)).catch(() => new Map<string, repo.StoredVoteAnswer>());
      waiting = waiting.filter((pending) => {
        const answer = found.get(keyOf(pending.command.userId, pending.command.idempotencyKey!));
        if (answer) pending.resolve({ kind: 'answered', answer });
        return !answer;
      });
    }
    if (waiting.length === 0) return;
    const now = new Date();
    try {
      const states = await repo.readVoterState(
        db,
        waiting.map((p) => ({ userId: p.command.userId, pollId: p.command.poll.id, since: pointsWindowStart(p.command.poll, this.timeZone, now) })),
      );
      const byKey = new Map(states.map((s) => [keyOf(s.userId, s.pollId), s]));
      for (const pending of waiting) {
        const state = byKey.get(keyOf(pending.command.userId, pending.command.poll.id));
        pending.resolve({
          kind: 'accepted',
          poll: pending.command.poll,
          options: new Map(state?.options.map((o) => [o.optionId, o])),
          spent: state ? spentOf(state) : 0,
          at: now,
        });
      }
    } catch (err) {
      this.logger.warn({ err }, 'standing for a replayed vote not read');
      for (const pending of waiting) pending.reject(WRITER_FAILED);
    }
  }
}
