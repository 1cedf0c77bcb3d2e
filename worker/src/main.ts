// `npm run start:worker`: runs every BullMQ queue of the contracts and registers the schedules.
import { checkFfmpeg } from './media/video.ts';
import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import { databaseErrorMessage, readConfigOrExit } from '@tribuna/contracts/startup';
import { createDatabase, surviveLostConnections, type Database } from '@tribuna/drizzle/client';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { startWorker, type WorkerApp } from './app.ts';
import { createLogger } from './logger.ts';

const FORCED_EXIT_AFTER_MS = 15_000;

/**
 * The worker's jobs scan more than a request does (a week of report aggregation at start-up, the
 * award sweep), so their statements get minutes, not seconds; a runaway one is still cancelled.
 */
const WORKER_STATEMENT_TIMEOUT_MS = 5 * 60_000;
const WORKER_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

interface Running {
  database: Database;
  app: WorkerApp;
}

class DatabaseUnavailable extends Error {}

async function start(config: Config, logger: Logger): Promise<Running> {
  // Server and worker may both start on a fresh database; migrations serialise on a lock.
  try {
    await ensureDatabase(config.databaseUrl);
    await runMigrations(config.databaseUrl);
  } catch (err) {
    throw new DatabaseUnavailable(databaseErrorMessage(config.databaseUrl, err));
  }
  const database = createDatabase(config.databaseUrl, {
    applicationName: 'tribuna-worker',
    statementTimeoutMs: WORKER_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: WORKER_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  try {
    const app = await startWorker({ config, db: database.db, logger });
    return { database, app };
  } catch (err) {
    await database.close();
    throw err;
  }
}

function main(): void {
  const config = readConfigOrExit();
  const logger = createLogger(config);
  surviveLostConnections(logger);
  let stopping = false;

  const starting = start(config, logger);

  const stop = async (reason: string, code: number): Promise<void> => {
    // A terminal's Ctrl-C reaches us and the launcher's SIGTERM follows: keep the first, graceful
    // stop going (the forced exit below still bounds it).
    if (stopping) {
      logger.info({ reason }, 'already shutting down');
      return;
    }
    stopping = true;
    logger.info({ reason }, 'worker shutting down');
    // Last resort when a job or a connection hangs; exiting non-zero says the stop was not clean.
    setTimeout(() => {
      logger.error(`worker did not stop within ${FORCED_EXIT_AFTER_MS / 1000} s; forcing exit`);
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    try {
      // Wait for a start in progress so nothing it opens outlives us.
      const running = await starting.catch(() => null);
      await running?.app.close();
      await running?.database.close();
      logger.info('worker stopped');
    } catch (err) {
      logger.error({ err }, 'error while stopping the worker');
      code = code || 1;
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
  process.on('SIGINT', () => void stop('SIGINT', 0));

  starting.then(
    ({ app }) => {
      if (!stopping) logger.info({ queues: [...app.queues.keys()], timezone: config.showTimezone }, 'worker ready');
      // Video clips need FFmpeg: a missing or broken one is told at start, not first by a failed job.
      checkFfmpeg().then(
        (versions) => logger.info(versions, 'ffmpeg available for video clips'),
        (err: unknown) => logger.error({ err: { message: (err as Error).message } }, 'ffmpeg unavailable: video clips cannot be processed'),
      );
    },
    (err: unknown) => {
      if (stopping) return;
      if (err instanceof DatabaseUnavailable) process.stderr.write(`${err.message}\n`);
      else logger.fatal({ err }, 'worker failed to start');
      void stop('start-up failure', 1);
    },
  );
}

main();
