import { databaseErrorMessage, readConfigOrExit } from '@tribuna/contracts/startup';
import { surviveLostConnections } from '@tribuna/drizzle/client';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { buildApp } from './app.ts';
import { SecretBox } from './identity/factors/secretBox.ts';
import { connectionDrainer } from './http/drain.ts';
import { sealTotpSecrets } from './identity/factors/secretMigration.ts';

const SHUTDOWN_GRACE_MS = 10_000;

const config = readConfigOrExit();

try {
  await ensureDatabase(config.databaseUrl);
  await runMigrations(config.databaseUrl);
} catch (err) {
  process.stderr.write(`${databaseErrorMessage(config.databaseUrl, err)}\n`);
  process.exit(1);
}

const app = await buildApp(config);
surviveLostConnections(app.log);
// Keep-alive connections with a request in flight at SIGTERM are closed after its answer.
const drainer = connectionDrainer(app.server);

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
    drainer.start();
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error while shutting down');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Before serving: TOTP secrets stored in plaintext (before encryption at rest) or under a previous
// key (rotation) are sealed with the current key. Only the server reads them, so only it runs this.
try {
  await sealTotpSecrets(app.database.db, SecretBox.fromConfig(config), app.log);
} catch (err) {
  app.log.fatal({ err }, 'cannot encrypt the stored TOTP secrets');
  await app.close().catch(() => {});
  process.exit(1);
}

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
