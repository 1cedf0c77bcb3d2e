import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';

export { pipelinedCommit, poolRunner, RESERVE_TIMEOUT_MS, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { pollOptions, polls, profiles, voteRequests, votes, votesUtcDay, voteTallies } from '@tribuna/drizzle/schema/index';
import { voterLockKey, xactLock } from '@tribuna/drizzle/locks';

// The vote write path is batched (see batcher.ts): each statement here serves every command of a
// batch at once. Lists travel as one JSON parameter (json_to_recordset), so a batch of any size is
// a fixed number of statements with a fixed text (prepared once per connection).

/** Drizzle's db/tx and the pipelined transaction both run a statement; drizzle's overloads need the cast. */
type Runner = DbOrTx | SqlRunner;
const run = <T extends Record<string, unknown>>(db: Runner, query: SQL): PromiseLike<T[]> => (db as SqlRunner).execute<T>(query);

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
  await run(
    db,
    sql`
    SELECT ${xactLock(sql`ordered.k`)}
    FROM (
      SELECT DISTINCT ${voterLockKey(sql`t.u`, sql`t.p`)} AS k
      FROM json_to_recordset(${json}::json) AS t(u text, p text)
      ORDER BY k
      OFFSET 0
    ) AS ordered`,
  );
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
 * Votes `v` cast since a points window's start: the day condition (implied by the time one) keeps
 * the read on votes_user_poll_day_idx to the window's UTC days instead of all the user's votes on
 * the poll.
 */
const sinceWindowStart = (start: SQL) => sql`${votesUtcDay(sql`v.created_at`)} >= ${votesUtcDay(start)} AND v.created_at >= ${start}`;

/**
 * The standing of each (user, poll): its vote_tallies rows (a few per key however many votes the
 * user cast) and, for keys with a window start, the points cast since then (an index range of the
 * user's votes that day). LATERAL subqueries keep both on their indexes whatever the planner
 * guesses about the JSON list.
 */
export async function readVoterState(db: Runner, keys: (VoterKey & { since: Date | null })[]): Promise<VoterState[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ u: k.userId, p: k.pollId, s: k.since?.toISOString() ?? null })));
  const rows = await run<VoterStateRow>(
    db,
    sql`
    SELECT k.u AS user_id, k.p AS poll_id, w.window_spent, t.option_id, t.points, t.last_voted_ms
    FROM (SELECT DISTINCT * FROM json_to_recordset(${json}::json) AS r(u uuid, p uuid, s timestamptz)) AS k
    CROSS JOIN LATERAL (
      SELECT CASE WHEN k.s IS NULL THEN NULL ELSE (
        SELECT coalesce(sum(v.points), 0)::int FROM ${votes} v
        WHERE v.user_id = k.u AND v.poll_id = k.p AND ${sinceWindowStart(sql`k.s`)}
      ) END AS window_spent
    ) AS w
    LEFT JOIN LATERAL (
      SELECT option_id, points, (extract(epoch FROM last_voted_at) * 1000)::float8 AS last_voted_ms
      FROM ${voteTallies}
      WHERE user_id = k.u AND poll_id = k.p
      OFFSET 0
    ) AS t ON true`,
  );
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
  /** "Mostrar mi nombre en las listas de votantes". */
  listed: boolean;
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
  /** The request's Idempotency-Key (unique per user within a batch), claimed with the vote. */
  idempotencyKey: string | null;
}

/** Whether a command was written and, for a points command, what its user had left at its turn. */
export interface CommandDecision {
  kind: 'decided';
  accepted: boolean;
  /** Points available when the command's turn came (points polls only). */
  available: number | null;
}

/**
 * A command the batch statement refused although the poll cache let it through: the poll is no
 * longer open ('closed') or an option is no longer on the ballot ('option'), as committed before
 * the statement began. Nothing of it was written.
 */
export interface RefusedCommand {
  kind: 'refused';
  reason: 'closed' | 'option';
}

/** The answer a vote request got, as stored under its idempotency key. */
export interface StoredVoteAnswer {
  status: number;
  body: unknown;
}

/** A command whose idempotency key was claimed by an earlier, committed request: it wrote nothing. */
export interface EarlierRequest {
  kind: 'earlier';
  /** The poll the key was used for. */
  pollId: string;
  /** Null until the earlier request's answer is stored (right after its COMMIT). */
  answer: StoredVoteAnswer | null;
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
  decisions: (CommandDecision | EarlierRequest | RefusedCommand)[];
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
  /** [command index, accepted, available at its turn or null] */
  decided: string | [number, boolean, number | null][] | null;
  /** [command index, poll of the key, stored answer or null]: commands whose key was claimed before */
  earlier: string | [number, string, StoredVoteAnswer | null][] | null;
  /** [command index, 'closed' | 'option']: commands PostgreSQL refused (see RefusedCommand) */
  refused: string | [number, RefusedCommand['reason']][] | null;
  /** [user, poll, option, points] */
  added: string | [string, string, string, number][] | null;
  removed: string | [string, string, string, number][] | null;
  /** [user, display name, avatar, shown in voters lists] */
  profiles: string | [string, string | null, string | null, boolean][] | null;
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
 *
 * Commands with an idempotency key (only then does the statement grow these parts): a command
 * whose key the user already claimed (a committed request: the (user, poll) lock before this
 * statement waited for any in flight on the same poll) is left out and answered with that
 * request's poll and stored answer; every other keyed command claims its key here, in the
 * transaction that writes its vote. A claim racing one for another poll (different locks) fails
 * the statement with vote_requests_pk, and the batch is retried (see batcher.ts).
 */
export async function writeVoteBatch(db: Runner, commands: VoteCommandRow[]): Promise<BatchWrite> {
  const keyed = commands.some((c) => c.idempotencyKey !== null);
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
      ...(keyed ? { k: c.idempotencyKey } : {}),
    })),
  );
  const columns = sql.raw('i int, u uuid, p uuid, single boolean, max int, s timestamptz, a json, fp text, ua text');
  // Without keys the commands are read straight from the JSON; with keys, those already claimed are left out.
  const incomingCte = keyed
    ? sql`
    input AS (
      SELECT * FROM json_to_recordset(${json}::json) AS c(${columns}, k text)
    ),
    earlier AS (
      SELECT input.i, r.poll_id, r.response FROM input JOIN ${voteRequests} r ON r.user_id = input.u AND r.key = input.k
    ),
    incoming AS (
      SELECT * FROM input c WHERE NOT EXISTS (SELECT 1 FROM earlier WHERE earlier.i = c.i)
    ),`
    : sql`
    incoming AS (
      SELECT * FROM json_to_recordset(${json}::json) AS c(${columns})
    ),`;
  // The poll cache let these commands through; PostgreSQL has the last word, in the statement's
  // snapshot: a poll closed (or an option removed) by an admin whose COMMIT came before this
  // statement refuses the vote on every instance, whatever their caches still say. One index
  // lookup per distinct poll and option of the batch.
  const commandsCte = sql`
    ${incomingCte}
    open_poll AS (
      SELECT p.id FROM ${polls} p
      WHERE p.id IN (SELECT incoming.p FROM incoming)
        AND p.status = 'active' AND (p.end_date IS NULL OR p.end_date > now())
    ),
    ballot AS (
      SELECT o.poll_id, o.id FROM ${pollOptions} o
      WHERE o.id IN (SELECT x.o FROM incoming CROSS JOIN LATERAL json_to_recordset(incoming.a) AS x(o uuid, pts int))
        AND o.removed_at IS NULL
    ),
    refused AS (
      SELECT c.i, CASE WHEN NOT EXISTS (SELECT 1 FROM open_poll WHERE open_poll.id = c.p) THEN 'closed' ELSE 'option' END AS reason
      FROM incoming c
      WHERE NOT EXISTS (SELECT 1 FROM open_poll WHERE open_poll.id = c.p)
        OR EXISTS (
          SELECT 1 FROM json_to_recordset(c.a) AS x(o uuid, pts int)
          WHERE NOT EXISTS (SELECT 1 FROM ballot b WHERE b.poll_id = c.p AND b.id = x.o)
        )
    ),
    cmd AS (
      SELECT c.i, c.u, c.p, c.single, c.max, c.s, c.a, c.fp, c.ua${keyed ? sql`, c.k` : sql``},
        (SELECT coalesce(sum(x.pts), 0) FROM json_to_recordset(c.a) AS x(o uuid, pts int))::int AS wanted,
        row_number() OVER (PARTITION BY c.u, c.p ORDER BY c.i)::int AS rn,
        count(*) OVER (PARTITION BY c.u, c.p)::int AS n
      FROM incoming c
      WHERE NOT EXISTS (SELECT 1 FROM refused r WHERE r.i = c.i)
    ),`;
  const claimCte = keyed
    ? sql`
    claimed AS (
      INSERT INTO ${voteRequests} (user_id, key, poll_id)
      SELECT u, k, p FROM cmd WHERE k IS NOT NULL
    ),`
    : sql``;
  const earlierJson = keyed ? sql`(SELECT json_agg(json_build_array(i, poll_id, response)) FROM earlier)` : sql`NULL::json`;
  const replacing = commands.some((c) => c.singleChoice);
  const removedCte = replacing
    ? sql`
    removed AS (
      -- By primary key, found through the (user, poll) index: never a scan of the votes table.
      DELETE FROM ${votes} v
      WHERE v.id = ANY (ARRAY(
        SELECT x.id FROM pair
        CROSS JOIN LATERAL (
          SELECT v.id FROM ${votes} v
          WHERE v.user_id = pair.u AND v.poll_id = pair.p
            -- Votes on an option an admin removed stay (the voter's history): only ballot votes are replaced.
            AND NOT EXISTS (SELECT 1 FROM ${pollOptions} o WHERE o.id = v.option_id AND o.removed_at IS NOT NULL)
          OFFSET 0
        ) AS x
        WHERE pair.single
      ))
      RETURNING v.poll_id, v.option_id, v.user_id, v.points
    ),`
    : sql``;
  const removedJson = replacing ? sql`(SELECT json_agg(json_build_array(user_id, poll_id, option_id, points)) FROM removed)` : sql`NULL::json`;
  const [row] = await run<BatchWriteRow>(
    db,
    sql`
    WITH RECURSIVE ${commandsCte}
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
          WHERE v.user_id = pair.u AND v.poll_id = pair.p AND ${sinceWindowStart(sql`pair.s`)}
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
    ${claimCte}
    added AS (
      INSERT INTO ${votes} (poll_id, option_id, user_id, points, device_fingerprint, user_agent)
      SELECT p, o, u, pts, fp, ua FROM new_row ORDER BY i
      RETURNING poll_id, option_id, user_id, points
    )
    SELECT
      date_part('epoch', now()) * 1000 AS now_ms,
      (SELECT json_agg(json_build_array(u, p, window_spent)) FROM standing) AS standing,
      (SELECT json_agg(json_build_array(u, p, o, points, date_part('epoch', last_voted_at) * 1000)) FROM tally) AS tallies,
      (SELECT json_agg(json_build_array(i, accepted, available)) FROM decided) AS decided,
      ${earlierJson} AS earlier,
      (SELECT json_agg(json_build_array(i, reason)) FROM refused) AS refused,
      (SELECT json_agg(json_build_array(user_id, poll_id, option_id, points)) FROM added) AS added,
      ${removedJson} AS removed,
      (SELECT json_agg(json_build_array(pr.id, pr.display_name, pr.avatar_url, pr.show_in_voter_lists))
        FROM (SELECT DISTINCT u FROM pair) AS ids
        JOIN LATERAL (SELECT id, display_name, avatar_url, show_in_voter_lists FROM ${profiles} WHERE id = ids.u LIMIT 1) AS pr ON true) AS profiles`,
  );
  if (!row) throw new Error('vote batch statement answered no row');

  const standing = new Map<string, VoterState>();
  for (const [userId, pollId, windowSpent] of jsonList(row.standing)) {
    standing.set(`${userId}|${pollId}`, { userId, pollId, options: [], windowSpent });
  }
  for (const [userId, pollId, optionId, points, at] of jsonList(row.tallies)) {
    standing.get(`${userId}|${pollId}`)?.options.push({ optionId, points, lastVotedAt: new Date(at) });
  }
  const decisions: (CommandDecision | EarlierRequest | RefusedCommand | undefined)[] = new Array(commands.length);
  for (const [i, accepted, available] of jsonList(row.decided)) decisions[i] = { kind: 'decided', accepted, available };
  for (const [i, pollId, answer] of jsonList(row.earlier)) decisions[i] = { kind: 'earlier', pollId, answer };
  for (const [i, reason] of jsonList(row.refused)) decisions[i] = { kind: 'refused', reason };
  const settled = decisions.filter((d) => d !== undefined);
  if (settled.length !== commands.length) throw new Error(`vote batch statement settled ${settled.length} of ${commands.length} commands`);
  const voteRow = ([userId, pollId, optionId, points]: [string, string, string, number]): VoteRow => ({ pollId, optionId, userId, points });
  return {
    now: new Date(row.now_ms),
    standing: [...standing.values()],
    decisions: settled,
    added: jsonList(row.added).map(voteRow),
    removed: jsonList(row.removed).map(voteRow),
    profiles: jsonList(row.profiles).map(([userId, displayName, avatarUrl, listed]) => ({ userId, displayName, avatarUrl, listed })),
  };
}

export interface VoteRequestKey {
  userId: string;
  key: string;
}

/** Stores the answers of freshly claimed idempotency keys (after the COMMIT that claimed them). */
export async function storeVoteAnswers(db: Runner, answers: (VoteRequestKey & { answer: StoredVoteAnswer })[]): Promise<void> {
  if (answers.length === 0) return;
  const json = JSON.stringify(answers.map((a) => ({ u: a.userId, k: a.key, r: a.answer })));
  await run(
    db,
    sql`
    UPDATE ${voteRequests} AS r SET response = x.r
    FROM json_to_recordset(${json}::json) AS x(u uuid, k text, r jsonb)
    WHERE r.user_id = x.u AND r.key = x.k`,
  );
}

/** The stored answers of claimed keys, by `${userId}|${key}` (keys without one yet are absent). */
export async function findVoteAnswers(db: Runner, keys: VoteRequestKey[]): Promise<Map<string, StoredVoteAnswer>> {
  if (keys.length === 0) return new Map();
  const json = JSON.stringify(keys.map((k) => ({ u: k.userId, k: k.key })));
  const rows = await run<{ user_id: string; key: string; response: StoredVoteAnswer | string }>(
    db,
    sql`
    SELECT r.user_id, r.key, r.response
    FROM json_to_recordset(${json}::json) AS x(u uuid, k text)
    JOIN ${voteRequests} r ON r.user_id = x.u AND r.key = x.k
    WHERE r.response IS NOT NULL`,
  );
  return new Map(rows.map((r) => [`${r.user_id}|${r.key}`, typeof r.response === 'string' ? (JSON.parse(r.response) as StoredVoteAnswer) : r.response]));
}
