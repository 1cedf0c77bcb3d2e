import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_LOCK_KEY } from './locks.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`Unsupported database name "${name}" in DATABASE_URL`);
  return name;
}

function maintenanceUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

/** Creates the database named in `url` when it does not exist yet. Returns true when created. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const admin = postgres(maintenanceUrl(url), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (rows.length > 0) return false;
    try {
      await admin.unsafe(`CREATE DATABASE "${name}"`);
    } catch (err) {
      // Another process created it between the check and the create.
      if ((err as { code?: string }).code !== '42P04') throw err;
      return false;
    }
    return true;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * Creates the database named in `url` as a copy of `templateName` (CREATE DATABASE … TEMPLATE: a
 * file copy, far faster than migrating). PostgreSQL refuses while anything else copies or uses the
 * template, so a few concurrent clones retry.
 */
export async function cloneDatabase(templateName: string, url: string): Promise<void> {
  const name = databaseName(url);
  const admin = postgres(maintenanceUrl(url), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${templateName}"`);
        return;
      } catch (err) {
        // 55006: source database "…" is being accessed by other users.
        if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Databases whose name starts with `prefix` (test runs drop their clones with it). */
export async function dropDatabasesLike(url: string, prefix: string): Promise<void> {
  const admin = postgres(maintenanceUrl(url), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE starts_with(datname, ${prefix})`;
    for (const { datname } of rows) await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = postgres(maintenanceUrl(url), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Applies the committed drizzle-kit migrations; safe to run from several processes at once. */
export async function runMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    // Serialise concurrent starters (server and worker, several instances) on an advisory lock.
    await sql`SELECT pg_advisory_lock(${MIGRATIONS_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATIONS_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
