import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import type { Db } from '@tribuna/drizzle/client';
import type { ClusterEventName, ClusterEvents } from '@tribuna/contracts/events';

/** What every job handler receives besides its payload. */
export interface JobContext {
  db: Db;
  logger: Logger;
  config: Config;
  /** A cluster event for every server instance (the event bus, contracts/src/events.ts), e.g. the daily points reset. */
  publishEvent<N extends ClusterEventName>(name: N, payload: ClusterEvents[N]): Promise<unknown>;
  /**
   * Which BullMQ attempt this run is (`number` from 1; a stalled run taken over keeps its number)
   * of the `max` the job may have. Absent when a handler is called directly (tests): nothing retries it.
   */
  attempt?: { number: number; max: number };
}

/** Whether a failure of this run fails the job for good (no attempt follows): a handler's last chance to clean up. */
export function isLastAttempt(ctx: Pick<JobContext, 'attempt'>): boolean {
  return !ctx.attempt || ctx.attempt.number >= ctx.attempt.max;
}
