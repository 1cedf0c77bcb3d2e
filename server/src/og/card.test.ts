import { afterEach, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser, buildVotes } from '../../../test/support/factories.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import type { App } from '../app.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './card.ts';
import { CARD_REDRAW_MS } from './cardCache.ts';

/**
 * The share card of a poll (og:image of a shared link): a PNG drawn from the live result, kept in
 * memory and redrawn when the result moved, at most every CARD_REDRAW_MS per poll.
 */
describe('the share card of a poll (GET /api/polls/:pollId/card.png)', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));
  afterEach(() => {
    vi.useRealTimers();
  });

  const card = (pollId: string) => app.inject({ method: 'GET', url: `/api/polls/${pollId}/card.png?v=1` });
  const pixels = (png: Buffer) => sharp(png).raw().toBuffer();

  async function voteRows(pollId: string, optionId: string, count: number) {
    for (let i = 0; i < count; i++) {
      const user = await buildUser(database.db);
      await buildVotes(database.db, [{ pollId, optionId, userId: user.id, points: 1 }]);
    }
  }

  it('is a 1200×630 PNG of the current result, served from memory, and redrawn once the result moved and 30 s passed', async () => {
    const { poll, options } = await buildPoll(database.db, { title: 'Tarjeta de la gala' });
    await voteRows(poll.id, options[0]!.id, 3);

    const first = await card(poll.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const info = await sharp(first.rawPayload).metadata();
    expect([info.format, info.width, info.height]).toEqual(['png', CARD_WIDTH, CARD_HEIGHT]);
    // A second request gets the card in memory.
    expect((await card(poll.id)).rawPayload.equals(first.rawPayload)).toBe(true);

    // The result moves (the live totals rebuilt from PostgreSQL): within 30 s the card stays.
    await voteRows(poll.id, options[1]!.id, 9);
    await app.pollsLive.store.drop(poll.id);
    expect((await card(poll.id)).rawPayload.equals(first.rawPayload)).toBe(true);

    // Past 30 s it is redrawn, and its pixels show the new result.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + CARD_REDRAW_MS + 1000);
    const later = await card(poll.id);
    expect(later.statusCode).toBe(200);
    expect((await pixels(later.rawPayload)).equals(await pixels(first.rawPayload))).toBe(false);

    // 30 s more without a vote: the same card again, not redrawn.
    vi.setSystemTime(Date.now() + CARD_REDRAW_MS + 1000);
    expect((await card(poll.id)).rawPayload.equals(later.rawPayload)).toBe(true);
  });

  it('is drawn for a poll whose results are hidden, without figures, and refused for drafts and unknown polls (404)', async () => {
    const hidden = await buildPoll(database.db);
    await database.db.update(schema.polls).set({ showResults: false }).where(eq(schema.polls.id, hidden.poll.id));
    const res = await card(hidden.poll.id);
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(CARD_WIDTH);

    const draft = await buildPoll(database.db, { status: 'draft' });
    expect((await card(draft.poll.id)).json()).toMatchObject({ statusCode: 404, message: 'Poll not found' });
    expect((await card('123e4567-e89b-42d3-a456-426614174000')).statusCode).toBe(404);
    expect((await card('not-a-uuid')).statusCode).toBe(400);
  });
});
