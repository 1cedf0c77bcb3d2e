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
        const result = await track(conn.unsafe(COMMIT_NOW).execute());
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

// postgres.js holds writes shorter than 1 KiB until setImmediate (to coalesce small queries), i.e.
// behind every callback of the current event-loop turn: under load, several milliseconds in which
// PostgreSQL sits idle. The COMMIT that ends a batch must go at once, so it is padded past that size.
const COMMIT_NOW = `COMMIT /*${' '.repeat(1024)}*/`;

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
  avatarUrl: string | null;
}

/** One vote command of a batch, already checked against its poll (mode, options, open). */
export interface VoteCommandRow {
  userId: string;
  pollId: string;
  /** Single choice: the pair's earlier votes are replaced; the last command of the pair wins. */
  singleChoice: boolean;
  maxPointsPerUser: number;
  /** Start of the points window (daily reset); null when every point on the poll counts. */
  since: Date | null;
  /** Positive points per distinct option (single choice: one entry worth 1). */
  allocations: { optionId: string; points: number }[];
  deviceFingerprint: string;
  userAgent: string | null;
}

/** Whether a command was written and, for a points command, what its user had left at its turn. */
export interface CommandDecision {
  accepted: boolean;
  /** Points available when the command's turn came (points polls only). */
  available: number | null;
}

export interface VoteRow {
  pollId: string;
  optionId: string;
  userId: string;
  points: number;
}

export interface BatchWrite {
  /** The transaction's clock: created_at of the inserted votes. */
  now: Date;
  /** Each (user, poll) before the batch. */
  standing: VoterState[];
  /** One per command, in the batch's order. */
  decisions: CommandDecision[];
  added: VoteRow[];
  removed: VoteRow[];
  profiles: VoterProfile[];
}

/** The batch statement's answer: JSON arrays of positional tuples (cheaper to build than objects). */
interface BatchWriteRow extends Record<string, unknown> {
  now_ms: number;
  /** [user, poll, points in the window or null] */
  standing: string | [string, string, number | null][] | null;
  /** [user, poll, option, points, last voted (ms)] */
  tallies: string | [string, string, string, number, number][] | null;
  /** [accepted, available at its turn or null], in command order */
  decided: string | [boolean, number | null][] | null;
  /** [user, poll, option, points] */
  added: string | [string, string, string, number][] | null;
  removed: string | [string, string, string, number][] | null;
  /** [user, display name, avatar] */
  profiles: string | [string, string | null, string | null][] | null;
}

const jsonList = <T>(value: string | T[] | null): T[] => (value === null ? [] : typeof value === 'string' ? (JSON.parse(value) as T[]) : value);

/**
 * A whole batch in ONE statement, so that with the lock before it and COMMIT behind it a batch is
 * a single round trip. It reads each (user, poll)'s standing (vote_tallies, and the points of the
 * window when the poll resets daily), decides every command in arrival order (a recursive fold per
 * pair: a points command is written only if its points fit in what is left, and a refused one
 * costs nothing, so a smaller one after it may still fit; single-choice commands always pass and
 * the pair's last one replaces every earlier vote), deletes the replaced votes, inserts the new
 * rows and answers all of it, with the voters' names, as JSON. Every part sees the snapshot taken
 * after the lock statement, i.e. the state no other writer of these pairs can change until COMMIT.
 * The replace part is left out when no command is single choice (its statement trigger would still
 * fire).
 */
export async function writeVoteBatch(db: Runner, commands: VoteCommandRow[]): Promise<BatchWrite> {
  const json = JSON.stringify(
    commands.map((c, i) => ({
      i,
      u: c.userId,
      p: c.pollId,
      single: c.singleChoice,
      max: c.maxPointsPerUser,
      s: c.since?.toISOString() ?? null,
      a: c.allocations.map((a) => ({ o: a.optionId, pts: a.points })),
      fp: c.deviceFingerprint,
      ua: c.userAgent,
    })),
  );
  const replacing = commands.some((c) => c.singleChoice);
  const removedCte = replacing
    ? sql`
    removed AS (
      -- By primary key, found through the (user, poll) index: never a scan of the votes table.
      DELETE FROM ${votes} v
      WHERE v.id = ANY (ARRAY(
        SELECT x.id FROM pair
        CROSS JOIN LATERAL (SELECT id FROM ${votes} WHERE user_id = pair.u AND poll_id = pair.p OFFSET 0) AS x
        WHERE pair.single
      ))
      RETURNING v.poll_id, v.option_id, v.user_id, v.points
    ),`
    : sql``;
  const removedJson = replacing
    ? sql`(SELECT json_agg(json_build_array(user_id, poll_id, option_id, points)) FROM removed)`
    : sql`NULL::json`;
  const [row] = await run<BatchWriteRow>(db, sql`
    WITH RECURSIVE cmd AS (
      SELECT c.i, c.u, c.p, c.single, c.max, c.s, c.a, c.fp, c.ua,
        (SELECT coalesce(sum(x.pts), 0) FROM json_to_recordset(c.a) AS x(o uuid, pts int))::int AS wanted,
        row_number() OVER (PARTITION BY c.u, c.p ORDER BY c.i)::int AS rn,
        count(*) OVER (PARTITION BY c.u, c.p)::int AS n
      FROM json_to_recordset(${json}::json) AS c(i int, u uuid, p uuid, single boolean, max int, s timestamptz, a json, fp text, ua text)
    ),
    pair AS (
      SELECT DISTINCT ON (u, p) u, p, single, max, s FROM cmd ORDER BY u, p
    ),
    tally AS (
      SELECT pair.u, pair.p, t.option_id AS o, t.points, t.last_voted_at
      FROM pair
      CROSS JOIN LATERAL (
        SELECT option_id, points, last_voted_at FROM ${voteTallies} WHERE user_id = pair.u AND poll_id = pair.p OFFSET 0
      ) AS t
    ),
    standing AS (
      SELECT pair.u, pair.p, pair.single, pair.max,
        CASE WHEN pair.s IS NULL THEN NULL ELSE (
          SELECT coalesce(sum(v.points), 0) FROM ${votes} v
          WHERE v.user_id = pair.u AND v.poll_id = pair.p AND v.created_at >= pair.s
        ) END::int AS window_spent,
        coalesce(total.points, 0)::int AS total
      FROM pair
      LEFT JOIN (SELECT u, p, sum(points) AS points FROM tally GROUP BY u, p) AS total ON total.u = pair.u AND total.p = pair.p
    ),
    fold AS (
      SELECT st.u, st.p, 0 AS rn, greatest(0, st.max - coalesce(st.window_spent, st.total)) AS remaining,
        NULL::boolean AS accepted, NULL::int AS available
      FROM standing st WHERE NOT st.single
      UNION ALL
      SELECT f.u, f.p, c.rn,
        CASE WHEN c.wanted <= f.remaining THEN f.remaining - c.wanted ELSE f.remaining END,
        c.wanted <= f.remaining,
        f.remaining
      FROM fold f JOIN cmd c ON c.u = f.u AND c.p = f.p AND c.rn = f.rn + 1
    ),
    decided AS (
      SELECT c.i, c.single OR coalesce(f.accepted, false) AS accepted, f.available
      FROM cmd c LEFT JOIN fold f ON f.u = c.u AND f.p = c.p AND f.rn = c.rn
    ),
    new_row AS (
      SELECT c.i, c.p, x.o, c.u, x.pts, c.fp, c.ua
      FROM cmd c
      JOIN decided d ON d.i = c.i
      CROSS JOIN LATERAL json_to_recordset(c.a) AS x(o uuid, pts int)
      WHERE d.accepted AND (NOT c.single OR c.rn = c.n)
    ),
    ${removedCte}
    added AS (
      INSERT INTO ${votes} (poll_id, option_id, user_id, points, device_fingerprint, user_agent)
      SELECT p, o, u, pts, fp, ua FROM new_row ORDER BY i
      RETURNING poll_id, option_id, user_id, points
    )
    SELECT
      date_part('epoch', now()) * 1000 AS now_ms,
      (SELECT json_agg(json_build_array(u, p, window_spent)) FROM standing) AS standing,
      (SELECT json_agg(json_build_array(u, p, o, points, date_part('epoch', last_voted_at) * 1000)) FROM tally) AS tallies,
      (SELECT json_agg(json_build_array(accepted, available) ORDER BY i) FROM decided) AS decided,
      (SELECT json_agg(json_build_array(user_id, poll_id, option_id, points)) FROM added) AS added,
      ${removedJson} AS removed,
      (SELECT json_agg(json_build_array(pr.id, pr.display_name, pr.avatar_url))
        FROM (SELECT DISTINCT u FROM pair) AS ids
        JOIN LATERAL (SELECT id, display_name, avatar_url FROM ${profiles} WHERE id = ids.u LIMIT 1) AS pr ON true) AS profiles`);
  if (!row) throw new Error('vote batch statement answered no row');

  const standing = new Map<string, VoterState>();
  for (const [userId, pollId, windowSpent] of jsonList(row.standing)) {
    standing.set(`${userId}|${pollId}`, { userId, pollId, options: [], windowSpent });
  }
  for (const [userId, pollId, optionId, points, at] of jsonList(row.tallies)) {
    standing.get(`${userId}|${pollId}`)?.options.push({ optionId, points, lastVotedAt: new Date(at) });
  }
  const decisions = jsonList(row.decided).map(([accepted, available]) => ({ accepted, available }));
  if (decisions.length !== commands.length) throw new Error(`vote batch statement decided ${decisions.length} of ${commands.length} commands`);
  const voteRow = ([userId, pollId, optionId, points]: [string, string, string, number]): VoteRow => ({ pollId, optionId, userId, points });
  return {
    now: new Date(row.now_ms),
    standing: [...standing.values()],
    decisions,
    added: jsonList(row.added).map(voteRow),
    removed: jsonList(row.removed).map(voteRow),
    profiles: jsonList(row.profiles).map(([userId, displayName, avatarUrl]) => ({ userId, displayName, avatarUrl })),
  };
}
