import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { DbOrTx } from '@tribuna/drizzle/client';

/** `select 1` on a pooled connection: postgres.js reconnects on its own, so nothing is cached here. */
export async function pingPostgres(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
}
