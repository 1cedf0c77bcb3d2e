// `npm start`: one command for the whole stack. Finds or starts PostgreSQL and Redis, migrates,
// seeds demo data into an empty database, builds the web app when needed, then runs the server
// and the worker as two processes and stops everything together.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '@tribuna/contracts/config';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { seedIfEmpty } from '../server/src/seed/index.ts';
import { DATA_DIR, NODE_PROCESS_FLAGS, ROOT, StartupError, resolveDatabaseUrl, resolveRedisUrl, type Stoppable } from './infra.ts';

const log = (message: string) => console.log(`[tribuna] ${message}`);
const stoppers: Stoppable[] = [];
const children: ChildProcess[] = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 15_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
    for (const stopper of stoppers.reverse()) await stopper.stop().catch(() => {});
  }
  process.exit(code);
}

function run(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [...NODE_PROCESS_FLAGS, '--import', 'tsx', script], { cwd: ROOT, env, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the rest`);
    void shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

/**
 * Without SESSION_SECRET every start picks a new random one, and a TOTP key derived from it would
 * lock out the demo's second factors after a restart: keep a random key in ./data instead.
 */
function developmentTotpKey(): string {
  const file = path.join(DATA_DIR, 'totp-encryption.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(DATA_DIR, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  // Validate everything we were given before starting anything.
  loadConfig(process.env);

  const database = await resolveDatabaseUrl(process.env);
  if (database.stopper) stoppers.push(database.stopper);
  log(database.note);
  const redis = await resolveRedisUrl(process.env);
  if (redis.stopper) stoppers.push(redis.stopper);
  log(redis.note);

  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.value, REDIS_URL: redis.value };
  // One secret for both processes, so sessions signed by the server verify everywhere.
  const config = loadConfig(env);
  env.SESSION_SECRET = config.sessionSecret;
  if (!process.env.SESSION_SECRET?.trim() && config.totpEncryptionKey === null) env.TOTP_ENCRYPTION_KEY = developmentTotpKey();

  if (await ensureDatabase(config.databaseUrl)) log('database created');
  await runMigrations(config.databaseUrl);
  log('migrations applied');
  if (await seedIfEmpty(config)) log('demo data seeded');

  if (!existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))) {
    log('building the web app (first start)…');
    const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new StartupError('the web build failed; see the output above');
  }

  run('server', 'server/src/main.ts', env);
  run('worker', 'worker/src/main.ts', env);
  log(`Tribuna on ${config.publicUrl}`);
}

main().catch(async (err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartupError) console.error(`[tribuna] ${err.message}`);
  else console.error('[tribuna] start failed:', err);
  await shutdown(1);
});
