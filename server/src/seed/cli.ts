// `tsx server/src/seed/cli.ts`: creates and migrates the database if needed, then seeds demo data
// when it is empty.
import { ConfigError, loadConfig } from '@tribuna/contracts/config';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { seedIfEmpty } from './seed.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (await ensureDatabase(config.databaseUrl)) console.log('database created');
  await runMigrations(config.databaseUrl);
  const seeded = await seedIfEmpty(config, { info: (msg) => console.log(msg) });
  console.log(seeded ? `demo data seeded (images in ${config.mediaDir}/demo)` : 'database already has data; nothing seeded');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
  else console.error('seeding failed:', err);
  process.exit(1);
});
