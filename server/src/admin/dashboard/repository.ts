import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { pageViews, pollOptions, polls, pollVoteCounts, profiles, votes } from '@tribuna/drizzle/schema/index';

// The dashboard's reads, each cheap with millions of votes and page views: votes are summed from
// poll_vote_counts (a few rows per option, see migration 0010), page views are an index range of
// page_views_created_idx, the newest rows come from the created_at indexes.

interface StatsRow extends Record<string, unknown> {
  active_polls: number;
  total_votes: number;
  total_users: number;
  page_views_24h: number;
}

export async function readStats(db: DbOrTx, now: Date, since: Date) {
  const [row] = await db.execute<StatsRow>(sql`
    SELECT
      (SELECT count(*) FROM ${polls} p
        WHERE p.status = 'active' AND (p.end_date IS NULL OR p.end_date > ${now.toISOString()}::timestamptz))::int AS active_polls,
      (SELECT coalesce(sum(c.votes), 0) FROM ${pollVoteCounts} c)::int AS total_votes,
      (SELECT count(*) FROM ${profiles})::int AS total_users,
      (SELECT count(*) FROM ${pageViews} v WHERE v.created_at >= ${since.toISOString()}::timestamptz)::int AS page_views_24h`);
  return {
    activePolls: row?.active_polls ?? 0,
    totalVotes: row?.total_votes ?? 0,
    totalUsers: row?.total_users ?? 0,
    pageViews24h: row?.page_views_24h ?? 0,
  };
}

interface RecentPollRow extends Record<string, unknown> {
  id: string;
  title: string;
  status: 'draft' | 'active' | 'closed';
  end_date: string | null;
  created_at: string;
  vote_count: number;
}

/** The newest polls with their votes on the options on the ballot. */
export async function listRecentPolls(db: DbOrTx, limit: number) {
  const rows = await db.execute<RecentPollRow>(sql`
    SELECT p.id, p.title, p.status, p.end_date, p.created_at,
      coalesce((
        SELECT sum(c.votes) FROM ${pollVoteCounts} c
        JOIN ${pollOptions} o ON o.poll_id = c.poll_id AND o.id = c.option_id AND o.removed_at IS NULL
        WHERE c.poll_id = p.id
      ), 0)::int AS vote_count
    FROM ${polls} p
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    endDate: r.end_date === null ? null : new Date(r.end_date),
    createdAt: new Date(r.created_at),
    voteCount: r.vote_count,
  }));
}

interface ActivityRow extends Record<string, unknown> {
  type: 'vote' | 'user' | 'poll';
  id: string;
  label: string | null;
  created_at: string;
}

/**
 * The newest `limit` votes (of the last 24 hours), profiles and polls, each from its created_at
 * index, merged newest first.
 */
export async function listRecentActivity(db: DbOrTx, since: Date, limit: number) {
  const rows = await db.execute<ActivityRow>(sql`
    SELECT * FROM (
      (SELECT 'vote' AS type, v.id::text AS id, p.title AS label, v.created_at
        FROM ${votes} v JOIN ${polls} p ON p.id = v.poll_id
        WHERE v.created_at >= ${since.toISOString()}::timestamptz
        ORDER BY v.created_at DESC LIMIT ${limit})
      UNION ALL
      (SELECT 'user', u.id::text, coalesce(u.display_name, u.username), u.created_at
        FROM ${profiles} u ORDER BY u.created_at DESC LIMIT ${limit})
      UNION ALL
      (SELECT 'poll', p.id::text, p.title, p.created_at
        FROM ${polls} p ORDER BY p.created_at DESC LIMIT ${limit})
    ) AS activity
    ORDER BY created_at DESC, type, id
    LIMIT ${limit}`);
  return rows.map((r) => ({ type: r.type, id: r.id, label: r.label, createdAt: new Date(r.created_at) }));
}
