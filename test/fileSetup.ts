// Runs before each test file (vitest setupFiles): the file gets its own database, cloned from the
// run's migrated template, and its own Redis prefix, so files run in parallel without sharing
// rows, keys or queues. Both are gone after the file (the run's teardown sweeps any leftover).
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { cloneDatabase, dropDatabase } from '@tribuna/drizzle/migrate';
import { setFileContext } from './support/fileContext.ts';

const template = new URL(inject('templateDatabaseUrl'));
const templateName = template.pathname.slice(1);
const suffix = randomBytes(3).toString('hex');
const databaseUrl = new URL(template);
databaseUrl.pathname = `/${templateName}_${suffix}`;

await cloneDatabase(templateName, databaseUrl.toString());
setFileContext({ databaseUrl: databaseUrl.toString(), redisPrefix: `${inject('redisPrefix')}_${suffix}` });

afterAll(async () => {
  await dropDatabase(databaseUrl.toString());
});
