import type { DbOrTx } from '@tribuna/drizzle/client';
import { shareHistory } from '@tribuna/drizzle/schema/index';
import type { SharePlatform } from '@tribuna/contracts/api/shares';

export interface NewShare {
  pollId: string;
  userId: string;
  platform: SharePlatform;
  pointsEarned: number;
  /** YYYY-MM-DD in SHOW_TIMEZONE. */
  shareDay: string;
  /** The instant the poll's state was judged at (the worker checks the poll was active then). */
  sharedAt: Date;
}

/** Inserts the share unless the user already shared the poll that day (unique index): null then. */
export async function insertShareOncePerDay(db: DbOrTx, share: NewShare) {
  const [row] = await db
    .insert(shareHistory)
    .values(share)
    .onConflictDoNothing({ target: [shareHistory.pollId, shareHistory.userId, shareHistory.shareDay] })
    .returning();
  return row ?? null;
}

export type ShareRow = NonNullable<Awaited<ReturnType<typeof insertShareOncePerDay>>>;
