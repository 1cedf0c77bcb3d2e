import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { pollOptions, pollPointsConfig, polls, profiles, votes, voteTallies } from '@tribuna/drizzle/schema/index';

// The vote write path is batched (see batcher.ts): each statement here serves every command of a
// batch at once. Lists travel as one JSON parameter (json_to_recordset), so a batch of any size is
// a fixed number of statements with a fixed text (prepared once per connection).

/** What the batch statements run on: drizzle's db or tx, or a pipelined transaction. */
export interface SqlRunner {
  execute<T extends Record<string, unknown>>(query: SQL): PromiseLike<T[]>;
}

/** A transaction whose statements are sent back to back, without waiting for each other's answers. */
export interface PipelinedTransaction extends SqlRunner {
  /** Sends COMMIT behind the statements already sent; rejects unless the transaction committed. */
  commit(): Promise<void>;
}

const dialect = new PgDialect();

/** Drizzle's db/tx and the pipelined transaction both run a statement; drizzle's overloads need the cast. */
type Runner = DbOrTx | SqlRunner;
const run = <T extends Record<string, unknown>>(db: Runner, query: SQL): PromiseLike<T[]> => (db as SqlRunner).execute<T>(query);

/**
 * Runs `body` in a transaction on one reserved connection, pipelining its statements: BEGIN and
 * the statements issued before the first await travel together, so a vote batch costs two round
 * trips (lock + reads, then write + COMMIT) instead of one per statement. Statements are prepared
 * (their text never varies), which also spares postgres.js its describe round trip. PostgreSQL
 * runs pipelined statements in order, each with its own snapshot, so a read sent after a lock
 * sees whatever the lock waited for. Anything failing rolls the whole transaction back.
 */
export async function pipelinedTransaction<T>(client: postgres.Sql, body: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
  const conn = await client.reserve();
  let committed = false;
  // A connection that closed was already taken back by the pool: postgres.js (3.4.9) must not be
  // handed it again through release(), nor sent a ROLLBACK on it (its writes would crash the process).
  let connectionLost = false;
  const track = <R>(promise: Promise<R>): Promise<R> =>
    promise.catch((err: unknown) => {
      if (isConnectionError(err)) connectionLost = true;
      throw err;
    });
  try {
    const begin = track(conn.unsafe('BEGIN').execute());
    begin.catch(() => {}); // surfaced by the statements behind it, and awaited below
    const tx: PipelinedTransaction = {
      execute: <R extends Record<string, unknown>>(query: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(query);
        const statement = conn.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }).execute();
        return track(statement as unknown as Promise<R[]>);
      },
      commit: async () => {
        const result = await track(conn.unsafe('COMMIT').execute());
        // An earlier failure turns COMMIT into ROLLBACK without an error of its own.
        if (result.command !== 'COMMIT') throw new Error(`transaction ended with ${result.command}`);
        committed = true;
      },
    };
    const result = await body(tx);
    await begin;
    if (!committed) throw new Error('pipelined transaction ended without COMMIT');
    return result;
  } catch (err) {
    if (!committed && !connectionLost) await track(conn.unsafe('ROLLBACK').execute()).catch(() => {});
    throw err;
  } finally {
    if (!connectionLost) conn.release();
  }
}

/** postgres.js errors of the connection itself (no SQLSTATE): the server rolled the transaction back. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(CONNECTION_|CONNECT_TIMEOUT)/.test(code);
}

/** What validating a vote needs to know about a poll (cached briefly in-process, see pollCache.ts). */
export async function findVotingPoll(db: DbOrTx, pollId: string) {
  const [rows, options] = await Promise.all([
    db
      .select({
        id: polls.id,
        title: polls.title,
        status: polls.status,
        endDate: polls.endDate,
        isFeatured: polls.isFeatured,
        pointsPerVote: pollPointsConfig.pointsPerVote,
        maxPointsPerUser: pollPointsConfig.maxPointsPerUser,
        dailyReset: pollPointsConfig.dailyReset,
        bonusForSharing: pollPointsConfig.bonusForSharing,
      })
      .from(polls)
      .leftJoin(pollPointsConfig, eq(pollPointsConfig.pollId, polls.id))
      .where(and(eq(polls.id, pollId), ne(polls.status, 'draft')))
      .limit(1),
    db.select({ id: pollOptions.id }).from(pollOptions).where(eq(pollOptions.pollId, pollId)),
  ]);
  const row = rows[0];
  return row ? { ...row, optionIds: options.map((o) => o.id) } : null;
}

export type VotingPollRow = NonNullable<Awaited<ReturnType<typeof findVotingPoll>>>;

export interface VoterKey {
  userId: string;
  pollId: string;
}

/**
 * Serialises every writer of the same (user, poll) across transactions and server instances:
 * transaction-scoped advisory locks on a 64-bit hash of the pair, taken in ascending key order so
 * two batches sharing keys can never deadlock. Must run as its own statement, before the reads
 * that depend on it (a statement's snapshot is taken when it starts, i.e. before it waits).
 */
export async function lockVoters(db: Runner, keys: VoterKey[]): Promise<void> {
  if (keys.length === 0) return;
  const json = JSON.stringify(keys.map((k) => ({ u: k.userId, p: k.pollId })));
  await run(db, sql`
    SELECT pg_advisory_xact_lock(ordered.k)
    FROM (
      SELECT DISTINCT hashtextextended(t.u || ':' || t.p, 0) AS k
      FROM json_to_recordset(${json}::json) AS t(u text, p text)
      ORDER BY k
      OFFSET 0
    ) AS ordered`);
}

export interface OptionTally {
  optionId: string;
  /** All the points the user has on the option. */
  points: number;
  lastVotedAt: Date;
}

/** Where a user stands on a poll: points per option, and the points cast in the window when it has one. */
export interface VoterState {
  userId: string;
  pollId: string;
  options: OptionTally[];
  /** Points cast since the key's `since` (null when the key had none: then every point counts). */
  windowSpent: number | null;
}

interface VoterStateRow extends Record<string, unknown> {
  user_id: string;
  poll_id: string;
  window_spent: number | null;
  option_id: string | null;
  points: number | null;
  last_voted_ms: number | null;
}

/**
 * The standing of each (user, poll): its vote_tallies rows (a few per key however many votes the
 * user cast) and, for keys with a window start, the points cast since then (an index range of the
 * user's votes that day). LATERAL subqueries keep both on their indexes whatever the planner
 * guesses about the JSON list.
 */
export async function readVoterState(db: Runner, keys: (VoterKey & { since: Date | null })[]): Promise<VoterState[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ u: k.userId, p: k.pollId, s: k.since?.toISOString() ?? null })));
  const rows = await run<VoterStateRow>(db, sql`
    SELECT k.u AS user_id, k.p AS poll_id, w.window_spent, t.option_id, t.points, t.last_voted_ms
    FROM (SELECT DISTINCT * FROM json_to_recordset(${json}::json) AS r(u uuid, p uuid, s timestamptz)) AS k
    CROSS JOIN LATERAL (
      SELECT CASE WHEN k.s IS NULL THEN NULL ELSE (
        SELECT coalesce(sum(v.points), 0)::int FROM ${votes} v
        WHERE v.user_id = k.u AND v.poll_id = k.p AND v.created_at >= k.s
      ) END AS window_spent
    ) AS w
    LEFT JOIN LATERAL (
      SELECT option_id, points, (extract(epoch FROM last_voted_at) * 1000)::float8 AS last_voted_ms
      FROM ${voteTallies}
      WHERE user_id = k.u AND poll_id = k.p
      OFFSET 0
    ) AS t ON true`);
  const byKey = new Map<string, VoterState>();
  for (const row of rows) {
    const id = `${row.user_id}|${row.poll_id}`;
    let state = byKey.get(id);
    if (!state) {
      state = { userId: row.user_id, pollId: row.poll_id, options: [], windowSpent: row.window_spent };
      byKey.set(id, state);
    }
    if (row.option_id !== null) {
      state.options.push({ optionId: row.option_id, points: row.points!, lastVotedAt: new Date(row.last_voted_ms!) });
    }
  }
  return [...byKey.values()];
}

export interface VoterProfile {
  userId: string;
  displayName: string | null;
  username: string | null;
  avatarUrl: string | null;
}

/** Names and avatars of the batch's voters, plus the transaction's clock (the votes' created_at). */
export async function readVoterProfiles(db: Runner, userIds: string[]): Promise<{ profiles: VoterProfile[]; now: Date }> {
  const rows = await run<{
    id: string;
    display_name: string | null;
    username: string | null;
    avatar_url: string | null;
    now_ms: number;
  }>(db, sql`
    SELECT (extract(epoch FROM now()) * 1000)::float8 AS now_ms, p.id, p.display_name, p.username, p.avatar_url
    FROM json_array_elements_text(${JSON.stringify(userIds)}::json) AS ids(id)
    LEFT JOIN LATERAL (
      SELECT id, display_name, username, avatar_url FROM ${profiles} WHERE id = ids.id::uuid LIMIT 1
    ) AS p ON true`);
  const now = new Date(rows[0]?.now_ms ?? Date.now());
  return {
    now,
    profiles: rows
      .filter((r) => r.id !== null)
      .map((r) => ({ userId: r.id, displayName: r.display_name, username: r.username, avatarUrl: r.avatar_url })),
  };
}

export interface NewVoteRow {
  pollId: string;
  optionId: string;
  userId: string;
  points: number;
  deviceFingerprint: string;
  userAgent: string | null;
}

export interface RemovedVoteRow {
  pollId: string;
  optionId: string;
  userId: string;
  points: number;
}

/**
 * One statement for the whole batch: deletes every vote of the `replace` pairs (single-choice
 * re-votes) and inserts `rows`. Both see the same snapshot, so the delete never touches the rows
 * inserted beside it. Answers the deleted rows.
 */
export async function replaceAndInsertVotes(db: Runner, replace: VoterKey[], rows: NewVoteRow[]): Promise<RemovedVoteRow[]> {
  const replaceJson = JSON.stringify(replace.map((k) => ({ u: k.userId, p: k.pollId })));
  const rowsJson = JSON.stringify(
    rows.map((r) => ({ p: r.pollId, o: r.optionId, u: r.userId, pts: r.points, fp: r.deviceFingerprint, ua: r.userAgent })),
  );
  const removed = await run<{ poll_id: string; option_id: string; user_id: string; points: number }>(db, sql`
    WITH removed AS (
      -- By primary key, found through the (user, poll) index: never a scan of the votes table.
      DELETE FROM ${votes} v
      WHERE v.id = ANY (ARRAY(
        SELECT x.id FROM json_to_recordset(${replaceJson}::json) AS d(u uuid, p uuid)
        CROSS JOIN LATERAL (SELECT id FROM ${votes} WHERE user_id = d.u AND poll_id = d.p OFFSET 0) AS x
      ))
      RETURNING v.poll_id, v.option_id, v.user_id, v.points
    ), added AS (
      INSERT INTO ${votes} (poll_id, option_id, user_id, points, device_fingerprint, user_agent)
      SELECT r.p, r.o, r.u, r.pts, r.fp, r.ua
      FROM json_to_recordset(${rowsJson}::json) AS r(p uuid, o uuid, u uuid, pts int, fp text, ua text)
      RETURNING 1
    )
    SELECT poll_id, option_id, user_id, points FROM removed`);
  return removed.map((r) => ({ pollId: r.poll_id, optionId: r.option_id, userId: r.user_id, points: r.points }));
}
