import { ConfigError, loadConfig, type Config } from '@tribuna/contracts/config';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { buildApp } from './app.ts';

const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message.replace(/^Invalid configuration: /, '')}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** The database URL without its password, for messages. */
function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

const config = readConfig();

try {
  await ensureDatabase(config.databaseUrl);
  await runMigrations(config.databaseUrl);
} catch (err) {
  process.stderr.write(
    `Database error: could not prepare ${redactUrl(config.databaseUrl)}: ${(err as Error).message}\n` +
      'Is PostgreSQL running? Set DATABASE_URL to point at it.\n',
  );
  process.exit(1);
}

const app = await buildApp(config);

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) {
    app.log.warn(`${signal} received again, exiting now`);
    process.exit(1);
  }
  shuttingDown = true;
  app.log.info(`${signal} received, shutting down`);
  setTimeout(() => {
    app.log.error(`shutdown took longer than ${SHUTDOWN_GRACE_MS} ms, forcing exit`);
    process.exit(1);
  }, SHUTDOWN_GRACE_MS).unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error while shutting down');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ host: config.host, port: config.port });
} catch (err) {
  app.log.fatal({ err }, `cannot listen on ${config.host}:${config.port}`);
  await app.close().catch(() => {});
  process.exit(1);
}
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`Tribuna server listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port} (public URL ${config.publicUrl})`);
