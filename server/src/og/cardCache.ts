import type { FastifyBaseLogger } from 'fastify';
import { effectiveStatus } from '../polls/rules.ts';
import { renderPollCard } from './card.ts';
import type { PreviewSources } from './service.ts';
import type { PreviewTotals } from './presenter.ts';

/** A card is redrawn at most this often per poll, however many crawlers ask and votes move. */
export const CARD_REDRAW_MS = 30_000;
/** Cards kept in memory (one per shared poll; the oldest drawn goes first). */
const MAX_CARDS = 200;

export interface PollCard {
  png: Buffer;
  /** What it was drawn from: the results version (the live totals' seq), the poll's title, state and visibility of results. */
  version: string;
  drawnAt: number;
}

/**
 * The share cards of this instance, per poll: a card is drawn from the poll cache and the live
 * totals, served again while its results version is current, and redrawn when the results moved,
 * no sooner than CARD_REDRAW_MS after the last drawing. Requests for a card being drawn share it.
 */
export class PollCardCache {
  private readonly cards = new Map<string, PollCard>();
  private readonly drawing = new Map<string, Promise<PollCard | null>>();
  readonly stats = { drawn: 0, served: 0 };

  constructor(
    private readonly sources: PreviewSources & { mediaDir: string },
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** The card of a public poll, or null when the id is not one (drafts never leak). */
  async get(pollId: string): Promise<PollCard | null> {
    // Asked of the poll cache every time: a poll made a draft again stops being served at once.
    if (!(await this.sources.polls.get(pollId))) {
      this.cards.delete(pollId);
      return null;
    }
    const cached = this.cards.get(pollId);
    const now = this.clock();
    if (cached && (now - cached.drawnAt < CARD_REDRAW_MS || (await this.currentVersion(pollId)) === cached.version)) {
      this.stats.served++;
      return cached;
    }
    let pending = this.drawing.get(pollId);
    if (!pending) {
      pending = this.draw(pollId).finally(() => this.drawing.delete(pollId));
      this.drawing.set(pollId, pending);
    }
    return pending;
  }

  /** The card last drawn of a public poll, whatever its age (null: none drawn yet, or not public); never draws. */
  async cached(pollId: string): Promise<PollCard | null> {
    return (await this.sources.polls.get(pollId)) ? (this.cards.get(pollId) ?? null) : null;
  }

  /** The version a card drawn now would have (null: the poll is gone or not public). */
  private async currentVersion(pollId: string): Promise<string | null> {
    const poll = await this.sources.polls.get(pollId);
    if (!poll) return null;
    const seq = poll.showResults ? await this.sources.live.currentSeq(pollId) : -1;
    return versionOf(poll, seq ?? -1, this.clock());
  }

  private async draw(pollId: string): Promise<PollCard | null> {
    const poll = await this.sources.polls.get(pollId);
    if (!poll) {
      this.cards.delete(pollId);
      return null;
    }
    let totals: (PreviewTotals & { seq: number }) | null = null;
    if (poll.showResults) totals = await readTotals(this.sources.live, pollId, this.sources.log);
    const drawnAt = this.clock();
    const png = await renderPollCard({
      title: poll.title,
      closed: effectiveStatus(poll, new Date(drawnAt)) === 'closed',
      showResults: poll.showResults,
      options: poll.options,
      totals,
      mediaDir: this.sources.mediaDir,
    });
    const card: PollCard = { png, version: versionOf(poll, totals?.seq ?? -1, drawnAt), drawnAt };
    this.cards.delete(pollId);
    if (this.cards.size >= MAX_CARDS) {
      const oldest = this.cards.keys().next();
      if (!oldest.done) this.cards.delete(oldest.value);
    }
    this.cards.set(pollId, card);
    this.stats.drawn++;
    return card;
  }
}

function versionOf(poll: { title: string; showResults: boolean } & Parameters<typeof effectiveStatus>[0], seq: number, at: number): string {
  return JSON.stringify([seq, poll.title, poll.showResults, effectiveStatus(poll, new Date(at))]);
}

async function readTotals(live: PreviewSources['live'], pollId: string, log: FastifyBaseLogger): Promise<(PreviewTotals & { seq: number }) | null> {
  try {
    return await live.readSnapshot(pollId);
  } catch (err) {
    // Without the live totals the card lists the options without figures.
    log.warn({ err, pollId }, 'share card without results: live totals unavailable');
    return null;
  }
}
