import type { PageViewInput } from '@tribuna/contracts/api/pageViews';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { insertPageView } from './repository.ts';

export const USER_AGENT_MAX_LENGTH = 512;

export interface PageViewContext {
  /** The signed-in user, when there is one. */
  userId: string | null;
  userAgent: string | undefined;
}

/** Cuts by code points, matching PostgreSQL's char_length. */
export function truncateUserAgent(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const chars = Array.from(userAgent);
  return chars.length <= USER_AGENT_MAX_LENGTH ? userAgent : chars.slice(0, USER_AGENT_MAX_LENGTH).join('');
}

export async function recordPageView(db: DbOrTx, input: PageViewInput, context: PageViewContext): Promise<void> {
  await insertPageView(db, {
    userId: context.userId,
    pagePath: input.path,
    referrer: input.referrer,
    userAgent: truncateUserAgent(context.userAgent),
    sessionId: input.sessionId,
    deviceType: input.deviceType,
  });
}
