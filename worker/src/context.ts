import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import type { Db } from '@tribuna/drizzle/client';

/** What every job handler receives besides its payload. */
export interface JobContext {
  db: Db;
  logger: Logger;
  config: Config;
  /** Redis PUBLISH (live events for the servers' sockets, e.g. the daily points reset). */
  publish(channel: string, message: string): Promise<unknown>;
}
