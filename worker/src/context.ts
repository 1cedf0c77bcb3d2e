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
}
