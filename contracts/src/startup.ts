// Start-up helpers shared by the server and worker entry points (server/src/main.ts, worker/src/main.ts).
import { ConfigError, loadConfig, type Config } from './config.ts';

/** The configuration from process.env; a bad value is reported on stderr and exits with code 1. */
export function readConfigOrExit(): Config {
  try {
    const config = loadConfig(process.env);
    for (const warning of config.warnings) {
      process.stderr.write(`\n${'!'.repeat(100)}\nWARNING: ${warning}\n${'!'.repeat(100)}\n\n`);
    }
    return config;
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

/** What to print when the database cannot be created or migrated at start-up (no trailing newline). */
export function databaseErrorMessage(databaseUrl: string, err: unknown): string {
  return `Database error: could not prepare ${redactUrl(databaseUrl)}: ${(err as Error).message}\n` + 'Is PostgreSQL running? Set DATABASE_URL to point at it.';
}
