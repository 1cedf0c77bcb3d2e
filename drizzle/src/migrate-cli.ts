import { DEFAULT_DATABASE_URL } from '@tribuna/contracts/config';
import { ensureDatabase, runMigrations } from './migrate.ts';

const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
await ensureDatabase(url);
await runMigrations(url);
console.log('migrations applied');
