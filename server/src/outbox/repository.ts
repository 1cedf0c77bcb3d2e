import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { outbox } from '@tribuna/drizzle/schema/index';

export type OutboxKind = 'job' | 'event';

export interface NewOutboxMessage {
  kind: OutboxKind;
  name: string;
  payload: unknown;
  jobId?: string | null;
}

export interface OutboxRow {
  id: number;
  kind: OutboxKind;
  name: string;
  payload: unknown;
  jobId: string | null;
  attempts: number;
}

/** Records messages in the caller's transaction; answers their ids. */
export async function insertMessages(tx: DbOrTx, messages: NewOutboxMessage[]): Promise<number[]> {
  if (messages.length === 0) return [];
  const rows = await tx
    .insert(outbox)
    .values(messages.map((m) => ({ kind: m.kind, name: m.name, payload: m.payload, jobId: m.jobId ?? null })))
    .returning({ id: outbox.id });
  return rows.map((r) => r.id);
}

/** Whether any message is due (one index probe: the relay's idle poll costs no transaction). */
export async function hasDue(db: DbOrTx): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM ${outbox} WHERE available_at <= now() LIMIT 1`);
  return rows.length > 0;
}

/**
 * Locks up to `limit` due messages (oldest first), or the due ones among `ids`, skipping those
 * another relay holds: each message is carried by one relay at a time, and by another one if the
 * holder dies (its transaction ends, its locks with it).
 */
export async function claimDue(tx: Tx, limit: number, ids?: number[]): Promise<OutboxRow[]> {
  const only = ids ? sql`AND id = ANY(${`{${ids.join(',')}}`}::bigint[])` : sql``;
  const rows = await tx.execute<{ id: string | number; kind: OutboxKind; name: string; payload: unknown; job_id: string | null; attempts: number }>(sql`
    SELECT id, kind, name, payload, job_id, attempts FROM ${outbox}
    WHERE available_at <= now() ${only}
    ORDER BY available_at, id
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`);
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, name: r.name, payload: r.payload, jobId: r.job_id, attempts: r.attempts }));
}

export async function deleteMessages(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`DELETE FROM ${outbox} WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
}

/** A failed delivery: tried again after `delayMs`. */
export async function postpone(tx: Tx, id: number, delayMs: number, error: string): Promise<void> {
  await tx.execute(sql`
    UPDATE ${outbox} SET attempts = attempts + 1, last_error = ${error.slice(0, 500)},
      available_at = now() + make_interval(secs => ${delayMs / 1000})
    WHERE id = ${id}`);
}

/** Messages waiting, and the age of the oldest (seconds): the relay's backlog. */
export async function backlog(db: DbOrTx): Promise<{ count: number; oldestSeconds: number | null }> {
  const rows = await db.execute<{ count: string | number; oldest: string | number | null }>(
    sql`SELECT count(*) AS count, extract(epoch FROM now() - min(created_at)) AS oldest FROM ${outbox}`,
  );
  const row = rows[0]!;
  return { count: Number(row.count), oldestSeconds: row.oldest === null ? null : Number(row.oldest) };
}
