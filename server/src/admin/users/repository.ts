import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import type { Role } from '@tribuna/contracts/roles';
import { sessionCache } from '../../sessions/cache.ts';

// The SQL of the admin users screen. The search (display name, username or account e-mail,
// partial, case ignored) is one `lower(col) LIKE '%q%'` per column. When the search holds a word
// of 3 or more letters or digits, pg_trgm can look it up: each column is answered by its GIN
// trigram index (migration 0013) and the three lookups are joined by UNION (an OR across profiles
// and accounts could use none of them). A shorter search has no trigram to look up (the index
// would be read whole), so it is one scan of profiles with their accounts instead, newest first
// along profiles_created_at_idx: short searches match many users, and the first page fills early.

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

/** Whether pg_trgm extracts a trigram from the search: a run of 3 letters or digits. */
export function searchUsesTrigrams(q: string): boolean {
  return /[\p{L}\p{N}]{3,}/u.test(q);
}

function statusConditions(filter: UserFilter): SQL[] {
  const parts: SQL[] = [];
  if (filter.role) parts.push(sql`p.role = ${filter.role}`);
  if (filter.status === 'active') parts.push(sql`NOT p.is_suspended`);
  if (filter.status === 'suspended') parts.push(sql`p.is_suspended`);
  return parts;
}

/** `FROM … WHERE …` of the matching profiles (alias p). */
function matching(filter: UserFilter): SQL {
  const where = statusConditions(filter);
  const q = filter.q;
  if (q && searchUsesTrigrams(q)) {
    const pattern = containsPattern(q);
    // Each branch carries what the filters and the order need, so no other profile is read.
    return sql`FROM (
        SELECT id, created_at, role, is_suspended FROM profiles WHERE lower(display_name) LIKE lower(${pattern})
        UNION SELECT id, created_at, role, is_suspended FROM profiles WHERE lower(username) LIKE lower(${pattern})
        UNION SELECT pr.id, pr.created_at, pr.role, pr.is_suspended
          FROM accounts ac JOIN profiles pr ON pr.id = ac.user_id WHERE lower(ac.email) LIKE lower(${pattern})
      ) p
      WHERE ${sql.join([sql`TRUE`, ...where], sql` AND `)}`;
  }
  if (q) {
    const pattern = containsPattern(q);
    where.push(sql`(lower(p.display_name) LIKE lower(${pattern}) OR lower(p.username) LIKE lower(${pattern})
      OR lower(a.email) LIKE lower(${pattern}))`);
    return sql`FROM profiles p LEFT JOIN accounts a ON a.user_id = p.id WHERE ${sql.join(where, sql` AND `)}`;
  }
  return sql`FROM profiles p WHERE ${sql.join([sql`TRUE`, ...where], sql` AND `)}`;
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

/**
 * One page of the matching users, newest first, and how many match in all: one statement, the
 * search evaluated once (a CTE read by both the page and the count). A page past the end still
 * answers the total (one row of nulls but `total`).
 */
export async function searchUsers(db: DbOrTx, filter: UserFilter, limit: number, offset: number): Promise<{ rows: AdminUserDbRow[]; total: number }> {
  const rows = await db.execute<AdminUserDbRow & { total: number; ord: number | null; id: string | null }>(sql`
    WITH matched AS MATERIALIZED (SELECT p.id, p.created_at ${matching(filter)}),
    listed AS (
      ${rowsOf(sql`
        SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS ord FROM (
          SELECT id, created_at FROM matched ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
        ) AS chosen`)}
    )
    SELECT listed.*, counted.total
    FROM (SELECT count(*)::int AS total FROM matched) AS counted
    LEFT JOIN listed ON TRUE
    ORDER BY listed.ord`);
  const total = Number(rows[0]?.total ?? 0);
  return { rows: rows.filter((row) => row.id !== null).map(({ total: _total, ord: _ord, ...row }) => row as AdminUserDbRow), total };
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
 * Writes the given fields. A role change leaves this instance's session cache first (every
 * instance forgets it when it commits: the NOTIFY trigger of migration 0002). A username another
 * profile holds, ignoring case, fails with profiles_username_lower_uq.
 */
export async function updateUser(tx: Tx, userId: string, edit: UserEdit, now: Date): Promise<void> {
  const entries = Object.entries(edit) as [keyof UserEdit, unknown][];
  if (entries.length === 0) return;
  if (edit.role !== undefined) sessionCache.invalidateUser(userId);
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
