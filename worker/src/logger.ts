import pino, { type Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';

/** JSON lines on stdout, like the server's, told apart by `name`. */
export function createLogger(config: Config): Logger {
  return pino({ name: 'worker', level: config.logLevel });
}
