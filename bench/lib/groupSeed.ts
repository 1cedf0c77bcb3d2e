// Fan clubs and follows for the feed benchmark (issue 28), on top of the seeded wall (wallSeed.ts),
// with set-based SQL (INSERT … SELECT over generate_series): groups with exactly `memberships`
// members in all, one large private group every user belongs to (with thousands of posts, their
// reactions and comments, and its pinned ones), a couple of posts in every other group, followers-only posts on the wall, readers
// who each follow exactly `followsPerReader` people, and a background of follows between the rest.
// The counters (groups.member_count, profiles.followers_count / following_count) are kept by the
// statement triggers of migration 0030, as in production.
import { createDatabase } from '@tribuna/drizzle/client';
import { timedSteps } from './wallSeed.ts';

export interface GroupSeedOptions {
  groups: number;
  /** Exactly this many group_members rows (the large group holds every user; the rest are spread). */
  memberships: number;
  /** Every n-th group is private (the large group is private too). */
  privateEvery: number;
  /** Posts of the large group (visibility 'group'), the last `pinned` of them pinned. */
  largeGroupPosts: number;
  pinned: number;
  /** Posts in each of the other groups. */
  postsPerOtherGroup: number;
  /** Followers-only posts added to the wall (no group), by the wall's writers. */
  followersOnlyPosts: number;
  /** Readers who each follow exactly `followsPerReader` writers (the 'Siguiendo' wall's readers). */
  followingReaders: number;
  followsPerReader: number;
  /** Every other user follows this many others (the table is not just the readers' rows). */
  backgroundFollowsPerUser: number;
  days: number;
}

export const DEFAULT_GROUP_SEED: GroupSeedOptions = {
  groups: 10_000,
  memberships: 1_000_000,
  privateEvery: 5,
  largeGroupPosts: 5_000,
  pinned: 3,
  postsPerOtherGroup: 2,
  followersOnlyPosts: 10_000,
  followingReaders: 800,
  followsPerReader: 1_000,
  backgroundFollowsPerUser: 20,
  days: 60,
};

export interface GroupSeedResult {
  seconds: number;
  steps: Record<string, number>;
  counts: {
    groups: number;
    privateGroups: number;
    memberships: number;
    largeGroupMembers: number;
    largeGroupPosts: number;
    groupPosts: number;
    followersOnlyPosts: number;
    follows: number;
    /** Followed by every following reader (min = max = followsPerReader). */
    followsPerReaderMin: number;
    followsPerReaderMax: number;
  };
  largeGroupId: string;
  /** The users (ids) who each follow exactly followsPerReader writers. */
  followingReaderIds: string[];
}

/**
 * Seeds groups, memberships and follows into a database holding the seeded wall. `writerIds` are
 * the wall's writers (readers are chosen among them; each follows writers only, never itself).
 */
export async function seedGroupsAndFollows(databaseUrl: string, writerIds: string[], options: GroupSeedOptions = DEFAULT_GROUP_SEED): Promise<GroupSeedResult> {
  const database = createDatabase(databaseUrl, { max: 1, applicationName: 'tribuna-bench-group-seed' });
  const { sql } = database;
  const { steps, step } = timedSteps();
  const started = performance.now();
  const writers = writerIds.length;
  if (options.followsPerReader * 2 > writers)
    throw new Error(`seedGroupsAndFollows: ${options.followsPerReader} follows each need ${options.followsPerReader * 2} writers`);
  try {
    await sql`SELECT setseed(0.28)`;
    await step('users', async () => {
      await sql`DROP TABLE IF EXISTS bench_group_users, bench_group_writers`;
      // Every profile, numbered (members); the writers numbered apart (authors, readers, followees).
      await sql`CREATE UNLOGGED TABLE bench_group_users AS SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id FROM profiles`;
      await sql`ALTER TABLE bench_group_users ADD PRIMARY KEY (n)`;
      await sql`
        CREATE UNLOGGED TABLE bench_group_writers AS
        SELECT (w.ordinality - 1)::int AS n, w.id FROM unnest(${writerIds}::uuid[]) WITH ORDINALITY AS w(id, ordinality)`;
      await sql`ALTER TABLE bench_group_writers ADD PRIMARY KEY (n)`;
    });
    const [{ users } = { users: 0 }] = await sql<{ users: number }[]>`SELECT count(*)::int AS users FROM bench_group_users`;
    const others = options.memberships - users;
    const otherGroups = options.groups - 1;
    if (others < 0 || Math.ceil(others / otherGroups) >= users)
      throw new Error(`seedGroupsAndFollows: ${options.memberships} memberships do not fit ${options.groups} groups of ${users} users`);

    // Groups numbered 1..N; group 1 is the large one. Created over `days`; every privateEvery-th private.
    await step('groups', async () => {
      await sql`DROP TABLE IF EXISTS bench_groups`;
      await sql`
        CREATE UNLOGGED TABLE bench_groups AS
        SELECT g AS n, gen_random_uuid() AS id,
          CASE WHEN g = 1 OR g % ${options.privateEvery}::int = 0 THEN 'private' ELSE 'public' END AS privacy,
          now() - random() * (${options.days}::int * interval '1 day') AS created_at
        FROM generate_series(1, ${options.groups}::int) g`;
      await sql`ALTER TABLE bench_groups ADD PRIMARY KEY (n)`;
      await sql`
        INSERT INTO groups (id, name, description, privacy, created_by, created_at, updated_at)
        SELECT b.id, CASE WHEN b.n = 1 THEN 'Team Ximena (el grande)' ELSE 'Club de fans ' || b.n END,
          'Grupo ' || b.n || ' del benchmark', b.privacy,
          (SELECT u.id FROM bench_group_users u WHERE u.n = (b.n::bigint * 131) % ${users}::int), b.created_at, b.created_at
        FROM bench_groups b`;
    });

    // Exactly `memberships` rows: every user in the large group; row r of the rest in group
    // 2 + r mod (N - 1), as its member j = r div (N - 1) (j < users, so (group, user) is unique).
    // Each group's creator (user n·131 mod users, its member j = 0) is its admin.
    await step('memberships', async () => {
      await sql`
        INSERT INTO group_members (group_id, user_id, role, joined_at)
        SELECT b.id, u.id, CASE WHEN u.n = 131 % ${users}::int THEN 'admin' ELSE 'member' END, b.created_at + random() * (now() - b.created_at)
        FROM bench_groups b CROSS JOIN bench_group_users u WHERE b.n = 1`;
      await sql`
        INSERT INTO group_members (group_id, user_id, role, joined_at)
        SELECT b.id, u.id, CASE WHEN m.j = 0 THEN 'admin' ELSE 'member' END, b.created_at + random() * (now() - b.created_at)
        FROM generate_series(0, ${others - 1}::int) r
        CROSS JOIN LATERAL (SELECT 2 + r % ${otherGroups}::int AS g, r / ${otherGroups}::int AS j) m
        JOIN bench_groups b ON b.n = m.g
        JOIN bench_group_users u ON u.n = (m.g::bigint * 131 + m.j) % ${users}::int`;
    });

    // Group posts: the large group's by writers in turn (all members), the last few pinned; two in
    // every other group by its members j = 0 and 1 when they are writers. Visibility 'group' in private groups, 'public'
    // or 'group' in public ones.
    await step('groupPosts', async () => {
      await sql`
        INSERT INTO posts (user_id, group_id, content, visibility, is_pinned, created_at, updated_at, last_activity_at)
        SELECT w.id, b.id, 'En el club ' || g || ': ¡vamos Ximena! 💜' || repeat(' Lorem ipsum dolor sit amet.', g % 8),
          'group', g > ${options.largeGroupPosts - options.pinned}::int, t, t, t
        FROM generate_series(1, ${options.largeGroupPosts}::int) g
        JOIN bench_groups b ON b.n = 1
        JOIN bench_group_writers w ON w.n = (g::bigint * 7919) % ${writers}::int
        CROSS JOIN LATERAL (SELECT now() - (${options.largeGroupPosts}::int - g) * (${options.days}::int * interval '1 day') / ${options.largeGroupPosts}::int AS t) x`;
      await sql`
        INSERT INTO posts (user_id, group_id, content, visibility, created_at, updated_at, last_activity_at)
        SELECT u.id, b.id, 'Publicación ' || k || ' del club ' || b.n,
          CASE WHEN b.privacy = 'private' OR k = 1 THEN 'group' ELSE 'public' END, t, t, t
        FROM bench_groups b
        CROSS JOIN generate_series(0, ${options.postsPerOtherGroup - 1}::int) k
        JOIN bench_group_users u ON u.n = (b.n::bigint * 131 + k) % ${users}::int
        -- By writers only: the two users the wall keeps aside (3 posts, none) write nowhere else.
        JOIN bench_group_writers w ON w.id = u.id
        CROSS JOIN LATERAL (SELECT b.created_at + random() * (now() - b.created_at) AS t) x
        WHERE b.n > 1`;
    });

    // The large group's posts read like the wall's: 6 or 7 reactions each (every 50th, 100) and 3
    // comments on average, posts.last_activity_at following the newest.
    await step('groupActivity', async () => {
      await sql`
        INSERT INTO post_reactions (post_id, user_id, reaction_type, created_at)
        SELECT p.id, u.id, (ARRAY['like', 'like', 'like', 'love', 'love', 'haha', 'wow', 'sad', 'angry'])[1 + floor(random() * 9)::int], p.created_at
        FROM (SELECT id, created_at, row_number() OVER (ORDER BY id)::int AS n FROM posts WHERE group_id = (SELECT id FROM bench_groups WHERE n = 1)) p
        CROSS JOIN LATERAL generate_series(0, CASE WHEN p.n % 50 = 0 THEN 99 WHEN p.n % 2 = 0 THEN 6 ELSE 5 END) j
        JOIN bench_group_users u ON u.n = (p.n * 31 + j * 7) % ${users}::int`;
      await sql`
        WITH draws AS MATERIALIZED (
          SELECT g, random() AS r, random() AS pick FROM generate_series(1, ${options.largeGroupPosts * 3}::int) g
        ), group_posts AS MATERIALIZED (
          SELECT id, created_at, row_number() OVER (ORDER BY id)::int - 1 AS n FROM posts WHERE group_id = (SELECT id FROM bench_groups WHERE n = 1)
        )
        INSERT INTO comments (post_id, user_id, content, created_at, updated_at)
        SELECT p.id, u.id, 'Comentario del club ' || d.g, p.created_at + d.r * (now() - p.created_at), p.created_at + d.r * (now() - p.created_at)
        FROM draws d
        JOIN group_posts p ON p.n = floor(power(d.pick, 2) * ${options.largeGroupPosts}::int)::int
        JOIN bench_group_users u ON u.n = (d.g::bigint * 104729) % ${users}::int`;
      await sql`
        UPDATE posts p SET last_activity_at = greatest(p.created_at, c.latest)
        FROM (SELECT c.post_id, max(c.created_at) AS latest FROM comments c JOIN posts q ON q.id = c.post_id
              WHERE q.group_id = (SELECT id FROM bench_groups WHERE n = 1) GROUP BY c.post_id) c
        WHERE c.post_id = p.id`;
    });

    // Followers-only posts on the wall (no group), by writers in turn over `days`.
    await step('followersOnlyPosts', async () => {
      await sql`
        INSERT INTO posts (user_id, content, visibility, created_at, updated_at, last_activity_at)
        SELECT w.id, 'Solo para mis seguidores ' || g || ': ¿quién más vio la gala?', 'followers', t, t, t
        FROM generate_series(1, ${options.followersOnlyPosts}::int) g
        JOIN bench_group_writers w ON w.n = (g::bigint * 104729) % ${writers}::int
        CROSS JOIN LATERAL (SELECT now() - random() * (${options.days}::int * interval '1 day') AS t) x`;
    });

    // Follows: reader i (writer n = i * stride) follows the writers n + 1 + 2k (mod writers), k <
    // followsPerReader: distinct, never itself (2k + 1 < writers). Then every
    // other writer (not a reader) follows backgroundFollowsPerUser others (offsets 2, 4, …).
    const stride = Math.max(1, Math.floor(writers / options.followingReaders));
    await step('follows', async () => {
      await sql`
        INSERT INTO follows (follower_id, followee_id, created_at)
        SELECT r.id, f.id, now() - random() * (${options.days}::int * interval '1 day')
        FROM generate_series(0, ${options.followingReaders - 1}::int) i
        JOIN bench_group_writers r ON r.n = i * ${stride}::int
        CROSS JOIN generate_series(0, ${options.followsPerReader - 1}::int) k
        JOIN bench_group_writers f ON f.n = (i * ${stride}::int + 1 + 2 * k) % ${writers}::int`;
      await sql`
        INSERT INTO follows (follower_id, followee_id, created_at)
        SELECT r.id, f.id, now() - random() * (${options.days}::int * interval '1 day')
        FROM bench_group_writers r
        CROSS JOIN generate_series(1, ${options.backgroundFollowsPerUser}::int) k
        JOIN bench_group_writers f ON f.n = (r.n + 2 * k) % ${writers}::int
        WHERE NOT EXISTS (SELECT 1 FROM follows x WHERE x.follower_id = r.id)
        ON CONFLICT DO NOTHING`;
    });
    const readers = await sql<{ id: string }[]>`
      SELECT r.id FROM generate_series(0, ${options.followingReaders - 1}::int) i JOIN bench_group_writers r ON r.n = i * ${stride}::int ORDER BY i`;

    await step('cleanup', async () => {
      await sql`DROP TABLE bench_group_users, bench_group_writers, bench_groups`;
    });
    await step('analyze', async () => {
      await sql`VACUUM ANALYZE groups, group_members, posts, follows, profiles`;
    });

    const [large] = await sql<{ id: string }[]>`SELECT id FROM groups WHERE name = 'Team Ximena (el grande)'`;
    const readerIds = readers.map((r) => r.id);
    const [counts] = await sql<GroupSeedResult['counts'][]>`
      SELECT (SELECT count(*)::int FROM groups) AS groups,
        (SELECT count(*)::int FROM groups WHERE privacy = 'private') AS "privateGroups",
        (SELECT count(*)::int FROM group_members) AS memberships,
        (SELECT member_count FROM groups WHERE id = ${large!.id}) AS "largeGroupMembers",
        (SELECT count(*)::int FROM posts WHERE group_id = ${large!.id}) AS "largeGroupPosts",
        (SELECT count(*)::int FROM posts WHERE group_id IS NOT NULL) AS "groupPosts",
        (SELECT count(*)::int FROM posts WHERE visibility = 'followers') AS "followersOnlyPosts",
        (SELECT count(*)::int FROM follows) AS follows,
        (SELECT min(following_count)::int FROM profiles WHERE id = ANY(${readerIds}::uuid[])) AS "followsPerReaderMin",
        (SELECT max(following_count)::int FROM profiles WHERE id = ANY(${readerIds}::uuid[])) AS "followsPerReaderMax"`;
    return { seconds: Math.round((performance.now() - started) / 100) / 10, steps, counts: counts!, largeGroupId: large!.id, followingReaderIds: readerIds };
  } finally {
    await database.close();
  }
}
