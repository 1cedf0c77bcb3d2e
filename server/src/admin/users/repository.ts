import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import type { Role } from '@tribuna/contracts/roles';

// The SQL of the admin users screen. The search (display name, username or account e-mail,
// partial, case ignored) reads admin_user_search (migration 0015): one row per user with the three
// texts lower-cased in one `doc`, one per line, under one trigram index, so a search is one
// `doc LIKE '%q%'` on one table. PostgreSQL picks per search: a rare text is looked up in the
// trigram index, a common one walks the users newest first and stops when the page is full.
// Counting every match of a common text would read every row, so the total of a search stops at
// SEARCH_COUNT_CAP (the answer says so); without a search the total is exact.

/** The total of a search stops counting here (the screen says 'Más de 1.000 usuarios'). */
export const SEARCH_COUNT_CAP = 1000;

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface UserFilter {
  /** Already trimmed; empty or absent: no search. */
  q?: string | undefined;
  role?: Role | undefined;
  status?: 'all' | 'active' | 'suspended' | undefined;
}

/** `value` as a LIKE pattern matching it literally anywhere (backslash is LIKE's default escape). */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function statusConditions(filter: UserFilter): SQL[] {
  const parts: SQL[] = [];
  if (filter.role) parts.push(sql`s.role = ${filter.role}`);
  if (filter.status === 'active') parts.push(sql`NOT s.is_suspended`);
  if (filter.status === 'suspended') parts.push(sql`s.is_suspended`);
  return parts;
}

/** The search and the filters on admin_user_search (alias s). */
function conditions(filter: UserFilter): SQL[] {
  const where = statusConditions(filter);
  if (filter.q) where.push(sql`s.doc LIKE lower(${containsPattern(filter.q)})`);
  return where;
}

/** `FROM … WHERE …` of the matching users (alias s, admin_user_search). */
function matching(filter: UserFilter): SQL {
  return sql`FROM admin_user_search s WHERE ${sql.join([sql`TRUE`, ...conditions(filter)], sql` AND `)}`;
}

export type AdminUserDbRow = {
  id: string;
  display_name: string | null;
  username: string | null;
  email: string | null;
  avatar_url: string | null;
  bio: string | null;
  role: Role;
  is_suspended: boolean;
  is_deleted: boolean;
  total_points: number;
  vote_count: number;
  post_count: number;
  comment_count: number;
  created_at: string;
};

/**
 * The rows of `page` (the ids chosen first, so the per-row counters run for those rows only):
 * every vote row, and the posts and comments that are not hidden.
 */
function rowsOf(pageIds: SQL): SQL {
  return sql`
    WITH page AS (${pageIds})
    SELECT p.id, p.display_name, p.username, a.email, p.avatar_url, p.bio, p.role, p.is_suspended,
      p.deleted_at IS NOT NULL AS is_deleted, p.total_points,
      (SELECT count(*)::int FROM votes v WHERE v.user_id = p.id) AS vote_count,
      (SELECT count(*)::int FROM posts po WHERE po.user_id = p.id AND NOT po.is_hidden) AS post_count,
      (SELECT count(*)::int FROM comments c WHERE c.user_id = p.id AND NOT c.is_hidden) AS comment_count,
      ${ts(sql`p.created_at`)} AS created_at, page.ord
    FROM page
    JOIN profiles p ON p.id = page.id
    LEFT JOIN accounts a ON a.user_id = p.id
    ORDER BY page.ord`;
}

/** The newest users a common match is first looked for among (see searchUsers). */
export const RECENT_WINDOW = 5_000;

const NEWEST_FIRST = sql`ORDER BY created_at DESC, user_id DESC`;

/** rowsOf one page of `source` (user_id, created_at), newest first. */
function pageOf(source: SQL, limit: number, offset: number): SQL {
  return rowsOf(sql`
    SELECT user_id AS id, row_number() OVER (${NEWEST_FIRST}) AS ord FROM (
      SELECT user_id, created_at FROM (${source}) AS source ${NEWEST_FIRST} LIMIT ${limit} OFFSET ${offset}
    ) AS chosen`);
}

type Listed = AdminUserDbRow & { id: string | null; found: number };

/** The RECENT_WINDOW newest users that match `filter` (user_id, created_at). */
function recentMatches(filter: UserFilter): SQL {
  return sql`
    SELECT s.user_id, s.created_at FROM (SELECT * FROM admin_user_search ${NEWEST_FIRST} LIMIT ${RECENT_WINDOW}) AS s
    WHERE ${sql.join([sql`TRUE`, ...conditions(filter)], sql` AND `)}`;
}

/**
 * One page of every match (user_id, created_at), read by the trigram index (or a scan) and sorted:
 * the order is an expression so that PostgreSQL cannot walk the created_at index instead (it
 * would read most of the table when the matches are old ones).
 */
function allMatchesPage(filter: UserFilter, limit: number, offset: number): SQL {
  return sql`
    SELECT s.user_id, s.created_at ${matching(filter)}
    ORDER BY s.created_at + interval '0 seconds' DESC, s.user_id DESC LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * One page of the matching users, newest first, and how many match: exact without a search, at
 * most SEARCH_COUNT_CAP with one (`capped`: more match).
 *
 * How the page is found depends on how many match, counted first, rather than on the planner's
 * guess of how many rows match and where they lie (a LIMIT walk along created_at reads most of
 * the table when the matches happen to be old ones). The page comes from:
 * - the matches themselves when there are at most SEARCH_COUNT_CAP (a search: up to
 *   SEARCH_COUNT_CAP + 1 are read, by the trigram index when the text is rare, and counted);
 * - else the RECENT_WINDOW newest users (a short walk along created_at) when they hold a full
 *   page (the window is a prefix of the order);
 * - else every match, read and sorted.
 * A search is one statement: its branches are guarded by the counts, and PostgreSQL runs only the
 * one they pick. Without a search the exact count is one statement and the page another.
 */
export async function searchUsers(
  db: DbOrTx,
  filter: UserFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AdminUserDbRow[]; total: number; capped: boolean }> {
  if (filter.q) {
    const rows = [
      ...(await db.execute<Listed>(sql`
        WITH capped AS MATERIALIZED (SELECT s.user_id, s.created_at ${matching(filter)} LIMIT ${SEARCH_COUNT_CAP + 1}),
        counted AS (SELECT count(*)::int AS found FROM capped),
        recent AS MATERIALIZED (
          SELECT user_id, created_at FROM (${recentMatches(filter)}) AS recent ${NEWEST_FIRST} LIMIT ${limit} OFFSET ${offset}
        ),
        source AS (
          (SELECT * FROM capped WHERE (SELECT found FROM counted) <= ${SEARCH_COUNT_CAP} ${NEWEST_FIRST} LIMIT ${limit} OFFSET ${offset})
          UNION ALL
          SELECT * FROM recent WHERE (SELECT found FROM counted) > ${SEARCH_COUNT_CAP} AND (SELECT count(*) FROM recent) = ${limit}
          UNION ALL
          SELECT * FROM (${allMatchesPage(filter, limit, offset)}) AS every_match
          WHERE (SELECT found FROM counted) > ${SEARCH_COUNT_CAP} AND (SELECT count(*) FROM recent) < ${limit}
        ),
        listed AS (${pageOf(sql`SELECT * FROM source`, limit, 0)})
        SELECT listed.*, counted.found FROM counted LEFT JOIN listed ON TRUE ORDER BY listed.ord`)),
    ];
    const found = Number(rows[0]?.found ?? 0);
    const page = rows.filter((row) => row.id !== null).map(({ found: _found, ...row }) => row as AdminUserDbRow);
    return found <= SEARCH_COUNT_CAP ? { rows: page, total: found, capped: false } : { rows: page, total: SEARCH_COUNT_CAP, capped: true };
  }
  const [row] = await db.execute<{ found: number }>(sql`SELECT count(*)::int AS found ${matching(filter)}`);
  const total = Number(row?.found ?? 0);
  if (offset >= total) return { rows: [], total, capped: false };
  const windowed = [...(await db.execute<AdminUserDbRow>(pageOf(recentMatches(filter), limit, offset)))];
  if (windowed.length === limit) return { rows: windowed, total, capped: false };
  const rows = await db.execute<AdminUserDbRow>(pageOf(allMatchesPage(filter, limit, offset), limit, 0));
  return { rows: [...rows], total, capped: false };
}

export async function findAdminUser(db: DbOrTx, userId: string): Promise<AdminUserDbRow | null> {
  const rows = await db.execute<AdminUserDbRow>(rowsOf(sql`SELECT ${userId}::uuid AS id, 1 AS ord`));
  return rows[0] ?? null;
}

/** The editable fields and status of a user, locked until the transaction ends. */
export type EditableUser = {
  id: string;
  displayName: string | null;
  username: string | null;
  bio: string | null;
  avatarUrl: string | null;
  role: Role;
  isSuspended: boolean;
  /** The owner deleted the account (anonymised, kept for their posts). */
  isDeleted: boolean;
};

export async function lockUser(tx: Tx, userId: string): Promise<EditableUser | null> {
  const rows = await tx.execute<EditableUser>(sql`
    SELECT id, display_name AS "displayName", username, bio, avatar_url AS "avatarUrl", role, is_suspended AS "isSuspended",
      deleted_at IS NOT NULL AS "isDeleted"
    FROM profiles WHERE id = ${userId} FOR UPDATE`);
  return rows[0] ?? null;
}

export type UserEdit = Partial<Pick<EditableUser, 'displayName' | 'username' | 'bio' | 'avatarUrl' | 'role'>>;

const COLUMNS: Record<keyof UserEdit, string> = {
  displayName: 'display_name',
  username: 'username',
  bio: 'bio',
  avatarUrl: 'avatar_url',
  role: 'role',
};

/**
 * Writes the given fields (the caller takes a changed role out of its session cache first: see
 * service.ts updateUser). A username another profile holds, ignoring case, fails with
 * profiles_username_lower_uq.
 */
export async function updateUser(tx: Tx, userId: string, edit: UserEdit, now: Date): Promise<void> {
  const entries = Object.entries(edit) as [keyof UserEdit, unknown][];
  if (entries.length === 0) return;
  const sets = entries.map(([key, value]) => sql`${sql.raw(COLUMNS[key])} = ${value}`);
  await tx.execute(sql`UPDATE profiles SET ${sql.join(sets, sql`, `)}, updated_at = ${now.toISOString()}::timestamptz WHERE id = ${userId}`);
}

/** Adds `points` to the user's total (negative subtracts); the row lock orders concurrent adjustments. Null: no such user. */
export async function addPoints(tx: Tx, userId: string, points: number, now: Date): Promise<number | null> {
  const rows = await tx.execute<{ total_points: number }>(sql`
    UPDATE profiles SET total_points = total_points + ${points}, updated_at = ${now.toISOString()}::timestamptz
    WHERE id = ${userId} RETURNING total_points`);
  return rows[0] ? Number(rows[0].total_points) : null;
}

export type PointsEntryRow = { id: string; points: number; description: string; created_at: string };

/**
 * The history row of a manual adjustment. Its reference_id stays null: the unique index of
 * awards (user, reason, reference) covers non-null references only, so adjustments never collide.
 */
export async function insertAdjustment(tx: Tx, userId: string, points: number, description: string, now: Date): Promise<PointsEntryRow> {
  const rows = await tx.execute<PointsEntryRow>(sql`
    INSERT INTO user_points_history (user_id, points, reason, reference_id, description, created_at)
    VALUES (${userId}, ${points}, 'admin_adjustment', NULL, ${description}, ${now.toISOString()}::timestamptz)
    RETURNING id, points, description, ${ts(sql`created_at`)} AS created_at`);
  return rows[0]!;
}

export type UserStatsRow = { votes: number; posts: number; comments: number; total_points: number };

export async function userStats(db: DbOrTx, userId: string): Promise<UserStatsRow | null> {
  const rows = await db.execute<UserStatsRow>(sql`
    SELECT
      (SELECT count(*)::int FROM votes v WHERE v.user_id = p.id) AS votes,
      (SELECT count(*)::int FROM posts po WHERE po.user_id = p.id AND NOT po.is_hidden) AS posts,
      (SELECT count(*)::int FROM comments c WHERE c.user_id = p.id AND NOT c.is_hidden) AS comments,
      p.total_points
    FROM profiles p WHERE p.id = ${userId}`);
  return rows[0] ?? null;
}

export async function pointsByReason(db: DbOrTx, userId: string): Promise<{ reason: string; points: number; entries: number }[]> {
  const rows = await db.execute<{ reason: string; points: number; entries: number }>(sql`
    SELECT reason, sum(points)::int AS points, count(*)::int AS entries
    FROM user_points_history WHERE user_id = ${userId}
    GROUP BY reason ORDER BY reason`);
  return rows.map((r) => ({ reason: r.reason, points: Number(r.points), entries: Number(r.entries) }));
}
