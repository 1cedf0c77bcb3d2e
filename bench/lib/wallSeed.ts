// A large synthetic wall for the feed benchmark, written with set-based SQL (INSERT … SELECT over
// generate_series, a handful of statements): posts over ~60 days by the fixture users, reactions
// unique per (post, user), comments with one-level replies (posts.last_activity_at follows them),
// and media rows with the post_media rows naming them (no files: the feed only reads the rows).
import { rgbaToThumbHash } from 'thumbhash';
import { createDatabase } from '@tribuna/drizzle/client';

export interface WallSeedOptions {
  posts: number;
  /** Exactly this many post reactions (see the per-post counts below). */
  reactions: number;
  comments: number;
  /** Share of the comments that are replies to a top-level comment of the same post. */
  replyShare: number;
  images: number;
  days: number;
  /** Share of the posts hidden (soft-deleted): the feed must skip them. */
  hiddenShare: number;
}

export const DEFAULT_WALL_SEED: WallSeedOptions = {
  posts: 100_000,
  reactions: 1_000_000,
  comments: 300_000,
  replyShare: 0.3,
  images: 20_000,
  days: 60,
  hiddenShare: 0.01,
};

export interface WallSeedResult {
  seconds: number;
  steps: Record<string, number>;
  counts: { posts: number; visiblePosts: number; postReactions: number; comments: number; replies: number; media: number; postMedia: number; authors: number };
  /** A user with exactly 3 posts (the small-page case of the statement count). */
  sparseAuthorId: string;
  /** A user with no post at all (an empty page). */
  emptyAuthorId: string;
}

/** The named steps of a seed and the seconds each took (one decimal). */
export function timedSteps(): { steps: Record<string, number>; step: (name: string, run: () => Promise<unknown>) => Promise<void> } {
  const steps: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    steps[name] = Math.round((performance.now() - t) / 100) / 10;
  };
  return { steps, step };
}

/** A real ThumbHash (base64) of a small two-colour gradient: the size of a real placeholder. */
function placeholder(seed: number): string {
  const w = 32;
  const h = 24;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      rgba[i] = (seed * 53 + x * 6) & 255;
      rgba[i + 1] = (seed * 97 + y * 9) & 255;
      rgba[i + 2] = (seed * 31 + (x + y) * 4) & 255;
      rgba[i + 3] = 255;
    }
  }
  return Buffer.from(rgbaToThumbHash(w, h, rgba)).toString('base64');
}

/**
 * Seeds the wall into a migrated bench database whose profiles exist already (the fixture users,
 * each with a session): the last two profiles (by id) are kept aside as the sparse (3 posts) and
 * empty (0 posts) authors; every other profile writes, reacts and comments.
 */
export async function seedWall(databaseUrl: string, options: WallSeedOptions = DEFAULT_WALL_SEED): Promise<WallSeedResult> {
  const database = createDatabase(databaseUrl, { max: 1, applicationName: 'tribuna-bench-wall-seed' });
  const { sql } = database;
  const { steps, step } = timedSteps();
  const started = performance.now();
  try {
    await sql`SELECT setseed(0.42)`;
    // Profiles numbered 0..n-1 (a plain table: every statement below joins on the number).
    await step('users', async () => {
      await sql`DROP TABLE IF EXISTS bench_wall_users`;
      await sql`CREATE UNLOGGED TABLE bench_wall_users AS SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id FROM profiles`;
      await sql`ALTER TABLE bench_wall_users ADD PRIMARY KEY (n)`;
    });
    const [{ total: userCount } = { total: 0 }] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM bench_wall_users`;
    if (userCount < 100) throw new Error(`seedWall needs at least 100 profiles, found ${userCount}`);
    const writers = userCount - 2; // n < writers write; n = writers is sparse, n = writers + 1 empty
    const [sparse] = await sql<{ id: string }[]>`SELECT id FROM bench_wall_users WHERE n = ${writers}`;
    const [empty] = await sql<{ id: string }[]>`SELECT id FROM bench_wall_users WHERE n = ${writers + 1}`;

    // Posts: numbered 1..N (bench_wall_posts keeps the number), authors spread by a stride,
    // created uniformly over `days`, a share hidden.
    const hiddenEvery = Math.max(1, Math.round(1 / Math.max(options.hiddenShare, 1e-9)));
    await step('posts', async () => {
      await sql`DROP TABLE IF EXISTS bench_wall_posts`;
      await sql`
        CREATE UNLOGGED TABLE bench_wall_posts AS
        SELECT g AS n, gen_random_uuid() AS id, u.id AS user_id,
          now() - random() * (${options.days}::int * interval '1 day') AS created_at
        FROM generate_series(1, ${options.posts}::int) g
        JOIN bench_wall_users u ON u.n = (g::bigint * 7919) % ${writers}::int`;
      await sql`ALTER TABLE bench_wall_posts ADD PRIMARY KEY (n)`;
      await sql`
        INSERT INTO posts (id, user_id, content, visibility, is_hidden, created_at, updated_at, last_activity_at)
        SELECT id, user_id,
          'Publicación ' || n || ': ' || (ARRAY['¡Qué gala la de anoche!', '¿Quién creen que sale esta semana?', 'Mi favorita sigue siendo Ximena 💜',
            'La prueba de cocina estuvo increíble', 'No puedo creer la nominación de hoy', 'Equipo Rodrigo hasta el final 🔥'])[1 + n % 6]
            || repeat(' Lorem ipsum dolor sit amet.', (n % 8)),
          'public', n % ${hiddenEvery}::int = 0, created_at, created_at, created_at
        FROM bench_wall_posts`;
      // The small-page author: exactly 3 posts.
      await sql`
        INSERT INTO posts (user_id, content, visibility, created_at, updated_at, last_activity_at)
        SELECT ${sparse!.id}::uuid, 'Una de mis tres publicaciones (' || g || ')', 'public', now() - g * interval '1 day', now() - g * interval '1 day', now() - g * interval '1 day'
        FROM generate_series(1, 3) g`;
    });

    // Reactions: per post, 200 for every 50th post (the popular ones), else 6 or 7, so that the
    // total is exactly `reactions` for the default sizes; user j of post n is (n·31 + j·7) mod
    // writers: distinct for j < writers, so (post, user) is unique; types skewed towards like/love.
    await step('reactions', async () => {
      await sql`
        INSERT INTO post_reactions (post_id, user_id, reaction_type, created_at)
        SELECT p.id, u.id,
          (ARRAY['like', 'like', 'like', 'love', 'love', 'haha', 'wow', 'sad', 'angry'])[1 + floor(random() * 9)::int],
          p.created_at + random() * (now() - p.created_at)
        FROM bench_wall_posts p
        CROSS JOIN LATERAL generate_series(0, CASE WHEN p.n % 50 = 0 THEN 199 WHEN p.n % 50 BETWEEN 1 AND 6 THEN 6 ELSE 5 END) j
        JOIN bench_wall_users u ON u.n = (p.n * 31 + j * 7) % ${writers}::int`;
    });

    // Comments: top-level ones on posts skewed towards some (post number from a squared random),
    // at a random time after the post; then replies to random top-level comments, after them.
    const replies = Math.round(options.comments * options.replyShare);
    const topLevel = options.comments - replies;
    await step('comments', async () => {
      // The random draws in a materialized CTE: a volatile expression in a join condition is
      // evaluated per candidate pair (or hashed once), never what is meant.
      await sql`
        WITH draws AS MATERIALIZED (
          SELECT g, 1 + floor(power(random(), 2) * ${options.posts}::int)::int AS post_n, random() AS r
          FROM generate_series(1, ${topLevel}::int) g
        )
        INSERT INTO comments (post_id, user_id, content, created_at, updated_at)
        SELECT p.id, u.id, 'Comentario ' || d.g || ': ' || (ARRAY['¡Totalmente de acuerdo!', 'Jajaja no puede ser', 'Yo voté por ella', 'Qué opinan de la alianza?'])[1 + d.g % 4],
          p.created_at + d.r * (now() - p.created_at), p.created_at + d.r * (now() - p.created_at)
        FROM draws d
        JOIN bench_wall_posts p ON p.n = d.post_n
        JOIN bench_wall_users u ON u.n = (d.g::bigint * 104729) % ${writers}::int`;
      await sql`DROP TABLE IF EXISTS bench_wall_top`;
      await sql`CREATE UNLOGGED TABLE bench_wall_top AS SELECT (row_number() OVER (ORDER BY id))::int AS n, id, post_id, created_at FROM comments`;
      await sql`ALTER TABLE bench_wall_top ADD PRIMARY KEY (n)`;
      await sql`
        WITH draws AS MATERIALIZED (
          SELECT g, 1 + floor(random() * ${topLevel}::int)::int AS top_n, random() AS r
          FROM generate_series(1, ${replies}::int) g
        )
        INSERT INTO comments (post_id, user_id, parent_comment_id, content, created_at, updated_at)
        SELECT c.post_id, u.id, c.id, 'Respuesta ' || d.g || ': ' || (ARRAY['Exacto', 'No estoy de acuerdo', '¡Jajaja sí!'])[1 + d.g % 3],
          c.created_at + d.r * (now() - c.created_at), c.created_at + d.r * (now() - c.created_at)
        FROM draws d
        JOIN bench_wall_top c ON c.n = d.top_n
        JOIN bench_wall_users u ON u.n = (d.g::bigint * 15485863) % ${writers}::int`;
      // The activity sort key: the newest comment, or the creation.
      await sql`
        UPDATE posts p SET last_activity_at = greatest(p.created_at, c.latest)
        FROM (SELECT post_id, max(created_at) AS latest FROM comments GROUP BY post_id) c
        WHERE c.post_id = p.id`;
    });

    // Media: `images` rows (content-addressed keys, a real ThumbHash, varied sizes), each on one
    // post: posts n ≡ 1 (mod 12) get 2 or 3 images in order.
    await step('media', async () => {
      const placeholders = Array.from({ length: 8 }, (_, i) => placeholder(i + 1));
      const perPost = Math.ceil(options.images / 3);
      await sql`DROP TABLE IF EXISTS bench_wall_images`;
      await sql`
        CREATE UNLOGGED TABLE bench_wall_images AS
        SELECT g, 1 + ((g - 1) % ${perPost}::int) * 12 AS post_n, (g - 1) / ${perPost}::int AS "order",
          substr(h, 1, 2) || '/' || substr(h, 3, 2) || '/' || h || h || '.webp' AS key,
          substr(t, 1, 2) || '/' || substr(t, 3, 2) || '/' || t || t || '.webp' AS thumb_key
        FROM generate_series(1, ${options.images}::int) g
        CROSS JOIN LATERAL (SELECT md5('bench-image-' || g) AS h, md5('bench-thumb-' || g) AS t) x`;
      await sql`
        INSERT INTO media (key, thumb_key, content_type, width, height, bytes, placeholder, uploaded_by, created_at)
        SELECT i.key, i.thumb_key, 'image/webp',
          (ARRAY[2048, 1600, 1200, 1080, 900])[1 + i.g % 5], (ARRAY[1536, 1600, 900, 1350, 1600])[1 + i.g % 5],
          80000 + i.g % 50000, (SELECT array_agg(x) FROM json_array_elements_text(${JSON.stringify(placeholders)}::json) x)[1 + i.g % ${placeholders.length}::int], p.user_id, p.created_at
        FROM bench_wall_images i JOIN bench_wall_posts p ON p.n = i.post_n`;
      await sql`
        INSERT INTO post_media (post_id, media_type, url, thumbnail_url, width, height, "order", media_id, alt_text)
        SELECT p.id, 'image', '/media/' || m.key, '/media/' || m.thumb_key, m.width, m.height, i."order", m.id,
          CASE WHEN i.g % 3 = 0 THEN 'Foto de la gala ' || i.g ELSE NULL END
        FROM bench_wall_images i JOIN media m ON m.key = i.key JOIN bench_wall_posts p ON p.n = i.post_n`;
    });
    await step('cleanup', async () => {
      await sql`DROP TABLE bench_wall_users, bench_wall_posts, bench_wall_top, bench_wall_images`;
    });
    await step('vacuumAnalyze', async () => {
      await sql`VACUUM ANALYZE`;
    });

    const [counts] = await sql<WallSeedResult['counts'][]>`
      SELECT (SELECT count(*)::int FROM posts) AS posts,
        (SELECT count(*)::int FROM posts WHERE NOT is_hidden AND group_id IS NULL) AS "visiblePosts",
        (SELECT count(*)::int FROM post_reactions) AS "postReactions",
        (SELECT count(*)::int FROM comments) AS comments,
        (SELECT count(*)::int FROM comments WHERE parent_comment_id IS NOT NULL) AS replies,
        (SELECT count(*)::int FROM media) AS media,
        (SELECT count(*)::int FROM post_media) AS "postMedia",
        (SELECT count(DISTINCT user_id)::int FROM posts) AS authors`;
    return {
      seconds: Math.round((performance.now() - started) / 100) / 10,
      steps,
      counts: counts!,
      sparseAuthorId: sparse!.id,
      emptyAuthorId: empty!.id,
    };
  } finally {
    await database.close();
  }
}
