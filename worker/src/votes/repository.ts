import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

const { voteRequests } = schema;

/** Deletes at most `limit` vote idempotency keys claimed before `cutoff` (oldest first); returns how many went. */
export async function deleteVoteRequestsBefore(db: DbOrTx, cutoff: Date, limit: number): Promise<number> {
  const rows = await db.execute(sql`
    DELETE FROM ${voteRequests}
    WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM ${voteRequests} WHERE ${voteRequests.createdAt} < ${cutoff.toISOString()}::timestamptz
      ORDER BY ${voteRequests.createdAt} LIMIT ${limit}
    ))
    RETURNING 1`);
  return rows.length;
}
