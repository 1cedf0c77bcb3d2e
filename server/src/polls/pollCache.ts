import type { DbOrTx } from '@tribuna/drizzle/client';
import { findVotingPoll, type BallotOptionRow } from './repository.ts';
import { DEFAULT_POINTS_CONFIG } from './rules.ts';

/** What a vote is validated against, without a query per vote. */
export interface VotingPoll {
  id: string;
  title: string;
  status: 'active' | 'closed';
  endDate: Date | null;
  isFeatured: boolean;
  /** Whether its results are public (HTTP results, live snapshots). */
  showResults: boolean;
  pointsPerVote: number;
  maxPointsPerUser: number;
  dailyReset: boolean;
  bonusForSharing: number;
  optionIds: ReadonlySet<string>;
  /** The ballot in order, with the names and photos the public sees (link previews). */
  options: readonly BallotOptionRow[];
}

/** A status change or a new option reaches voters within this; end dates are checked against the clock every time. */
export const POLL_CACHE_TTL_MS = 1000;

interface Entry {
  expiresAt: number;
  value: Promise<VotingPoll | null>;
}

/**
 * Public (non-draft) polls as the vote path, the live topic and link previews need them, kept
 * in-process for POLL_CACHE_TTL_MS: the one poll cache of the server (owned by polls/plugin.ts). Concurrent misses
 * of one poll share a single load. A `poll.changed` event (any instance) drops an entry at once;
 * the TTL bounds what a missed event costs. Every instance loads its own from PostgreSQL.
 */
export class PollCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly db: DbOrTx,
    private readonly ttlMs = POLL_CACHE_TTL_MS,
    private readonly maxEntries = 10_000,
  ) {}

  get(pollId: string, now = Date.now()): Promise<VotingPoll | null> {
    const entry = this.entries.get(pollId);
    if (entry && entry.expiresAt > now) return entry.value;
    const value = this.load(pollId);
    if (this.entries.size >= this.maxEntries) this.evictExpired(now);
    this.entries.set(pollId, { expiresAt: now + this.ttlMs, value });
    // A failed load is not remembered.
    value.catch(() => {
      if (this.entries.get(pollId)?.value === value) this.entries.delete(pollId);
    });
    return value;
  }

  /** Forgets a poll (it changed): the next reader loads it again. */
  invalidate(pollId: string): void {
    this.entries.delete(pollId);
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }

  private async load(pollId: string): Promise<VotingPoll | null> {
    const row = await findVotingPoll(this.db, pollId);
    if (!row || row.status === 'draft') return null;
    return {
      id: row.id,
      title: row.title,
      status: row.status,
      endDate: row.endDate,
      isFeatured: row.isFeatured,
      showResults: row.showResults,
      pointsPerVote: row.pointsPerVote ?? DEFAULT_POINTS_CONFIG.pointsPerVote,
      maxPointsPerUser: row.maxPointsPerUser ?? DEFAULT_POINTS_CONFIG.maxPointsPerUser,
      dailyReset: row.dailyReset ?? DEFAULT_POINTS_CONFIG.dailyReset,
      bonusForSharing: row.bonusForSharing ?? DEFAULT_POINTS_CONFIG.bonusForSharing,
      optionIds: new Set(row.options.map((o) => o.id)),
      options: row.options,
    };
  }
}
