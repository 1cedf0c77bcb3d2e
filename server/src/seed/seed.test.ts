import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { schema } from '@tribuna/drizzle';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildSeason } from '../../../test/support/factories.ts';
import { DEMO_ADMIN_USERNAME, seedIfEmpty } from './index.ts';

const database = testDatabase();
const db = database.db;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), 'tribuna-seed-'));
  await truncateAll(database);
});

afterAll(async () => {
  await truncateAll(database);
  await database.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const mediaFile = (url: string) => {
  expect(url).toMatch(/^\/media\/demo\/[a-z0-9_-]+\.webp$/);
  return path.join(mediaDir, url.slice('/media/'.length));
};

async function expectWebp(url: string) {
  const file = mediaFile(url);
  expect(existsSync(file), `${url} exists`).toBe(true);
  const meta = await sharp(file).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.width).toBeGreaterThan(0);
}

async function tableCounts(): Promise<Record<string, number>> {
  const tables = await database.sql<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [row] = await database.sql.unsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${tablename}"`);
    counts[tablename] = row!.n;
  }
  return counts;
}

describe('seedIfEmpty on an empty database', () => {
  let seeded: boolean;
  const messages: string[] = [];

  beforeAll(async () => {
    seeded = await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }), { info: (m) => messages.push(m) });
  }, 60_000);

  it('seeds and says so', () => {
    expect(seeded).toBe(true);
    expect(messages.join('\n')).toMatch(/demo data: 12 users/);
  });

  it('creates a reality with one active season of the current year and contestants with webp photos', async () => {
    const realities = await db.select().from(schema.realities);
    expect(realities).toHaveLength(1);
    const seasons = await db.select().from(schema.seasons);
    expect(seasons.filter((s) => s.active)).toHaveLength(1);
    const season = seasons[0]!;
    expect(season.startDate! < season.endDate!).toBe(true);

    const contestants = await db.select().from(schema.contestants);
    expect(contestants.length).toBeGreaterThanOrEqual(6);
    expect(contestants.filter((c) => c.status === 'eliminated')).toHaveLength(1);
    for (const contestant of contestants) await expectWebp(contestant.photoUrl!);
  });

  it('creates exactly one featured active single-choice poll closing in the future', async () => {
    const featured = await db
      .select({ poll: schema.polls, config: schema.pollPointsConfig })
      .from(schema.polls)
      .innerJoin(schema.pollPointsConfig, sql`${schema.pollPointsConfig.pollId} = ${schema.polls.id}`)
      .where(sql`${schema.polls.isFeatured}`);
    expect(featured).toHaveLength(1);
    const { poll, config } = featured[0]!;
    expect(poll.status).toBe('active');
    expect(poll.pollMode).toBe('countdown');
    expect(config.maxPointsPerUser).toBe(1);
    expect(poll.endDate!.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
    expect(poll.endDate!.getTime()).toBeLessThan(Date.now() + 4 * 24 * 3600_000);
    const options = await db
      .select()
      .from(schema.pollOptions)
      .where(sql`${schema.pollOptions.pollId} = ${poll.id}`);
    expect(options.length).toBeGreaterThanOrEqual(2);
    expect(options.every((o) => o.contestantId !== null)).toBe(true);
  });

  it('creates an active points poll, a closed poll and a custom-text poll', async () => {
    const rows = await db
      .select({ poll: schema.polls, config: schema.pollPointsConfig })
      .from(schema.polls)
      .innerJoin(schema.pollPointsConfig, sql`${schema.pollPointsConfig.pollId} = ${schema.polls.id}`);
    const points = rows.filter((r) => r.poll.status === 'active' && r.config.maxPointsPerUser > 1);
    expect(points).toHaveLength(1);
    expect(points[0]!.config).toMatchObject({ maxPointsPerUser: 10, dailyReset: true, bonusForSharing: 5 });
    expect(rows.filter((r) => r.poll.status === 'closed').length).toBeGreaterThanOrEqual(1);

    const textOptions = await db
      .select()
      .from(schema.pollOptions)
      .where(sql`${schema.pollOptions.text} IS NOT NULL`);
    expect(textOptions.length).toBeGreaterThanOrEqual(2);
  });

  it('follows the voting rules: one 1-point vote per user in single choice, at most the maximum in points mode', async () => {
    const perUser = await database.sql<{ poll_id: string; max: number; rows: number; points: number }[]>`
      SELECT v.poll_id, c.max_points_per_user AS max, count(*)::int AS rows, sum(v.points)::int AS points
      FROM votes v JOIN poll_points_config c ON c.poll_id = v.poll_id
      GROUP BY v.poll_id, v.user_id, c.max_points_per_user`;
    expect(perUser.length).toBeGreaterThan(10);
    for (const row of perUser) {
      if (row.max === 1) expect(row).toMatchObject({ rows: 1, points: 1 });
      else expect(row.points).toBeLessThanOrEqual(row.max);
    }
    // Every vote's option belongs to its poll.
    const [mismatch] = await database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM votes v JOIN poll_options o ON o.id = v.option_id WHERE o.poll_id <> v.poll_id`;
    expect(mismatch!.n).toBe(0);
  });

  it('awards vote points per user, poll and day, and keeps totals equal to the history', async () => {
    // points_per_vote (1) once per user, poll and day, however many points the votes carried.
    const awards = await database.sql<{ reference_id: string; points: number; voted: number }[]>`
      SELECT h.reference_id, h.points,
        (SELECT count(*)::int FROM votes v
          WHERE v.user_id = h.user_id
            AND 'vote:' || v.poll_id || ':' || to_char(v.created_at AT TIME ZONE 'America/Mexico_City', 'YYYY-MM-DD') = h.reference_id) AS voted
      FROM user_points_history h WHERE h.reason = 'vote'`;
    expect(awards.length).toBeGreaterThan(0);
    for (const award of awards) {
      expect(award.reference_id).toMatch(/^vote:[0-9a-f-]{36}:\d{4}-\d{2}-\d{2}$/);
      expect(award.points).toBe(1);
      expect(award.voted).toBeGreaterThan(0);
    }
    const [votesWithoutAward] = await database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM votes v WHERE NOT EXISTS (
        SELECT 1 FROM user_points_history h WHERE h.user_id = v.user_id AND h.reason = 'vote'
          AND h.reference_id = 'vote:' || v.poll_id || ':' || to_char(v.created_at AT TIME ZONE 'America/Mexico_City', 'YYYY-MM-DD'))`;
    expect(votesWithoutAward!.n).toBe(0);

    const shares = await db.select().from(schema.shareHistory);
    expect(shares.length).toBeGreaterThan(0);
    const [shareAwards] = await database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM share_history s JOIN user_points_history h
        ON h.user_id = s.user_id AND h.reason = 'share' AND h.reference_id = 'share:' || s.poll_id || ':' || s.share_day
        AND h.points = s.points_earned`;
    expect(shareAwards!.n).toBe(shares.length);

    const totals = await database.sql<{ username: string; total_points: number; history: number }[]>`
      SELECT p.username, p.total_points, coalesce((SELECT sum(points)::int FROM user_points_history h WHERE h.user_id = p.id), 0) AS history
      FROM profiles p`;
    for (const row of totals) expect(row.total_points, row.username).toBe(row.history);
    expect(totals.some((r) => r.total_points > 0)).toBe(true);
  });

  it('creates demo users with avatars and dev sign-in accounts, exactly one admin and one moderator', async () => {
    const profiles = await db.select().from(schema.profiles);
    expect(profiles.length).toBeGreaterThanOrEqual(10);
    const admins = profiles.filter((p) => p.role === 'admin');
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ username: DEMO_ADMIN_USERNAME, displayName: 'Admin Tribuna' });
    expect(profiles.filter((p) => p.role === 'moderator')).toHaveLength(1);

    const accounts = await db.select().from(schema.accounts);
    expect(accounts).toHaveLength(profiles.length);
    for (const profile of profiles) {
      expect(profile.username).toMatch(/^[a-z0-9_]{3,20}$/);
      expect(profile.bio).toBeTruthy();
      await expectWebp(profile.avatarUrl!);
      expect(accounts.find((a) => a.userId === profile.id)).toMatchObject({
        oidcIssuer: 'dev',
        oidcSubject: profile.username,
        email: `${profile.username}@tribuna.local`,
        emailVerified: true,
      });
    }
  });

  it('fills the wall: posts with images, one pinned', async () => {
    const posts = await db.select().from(schema.posts);
    expect(posts.length).toBeGreaterThanOrEqual(8);
    expect(posts.filter((p) => p.isPinned)).toHaveLength(1);

    const media = await db.select().from(schema.postMedia);
    const perPost = new Map<string, number>();
    for (const m of media) perPost.set(m.postId, (perPost.get(m.postId) ?? 0) + 1);
    expect(perPost.size).toBeGreaterThanOrEqual(3);
    // One post with more pictures than the grid's four tiles ('+N'), none beyond the limit of 10.
    expect(Math.max(...perPost.values())).toBeGreaterThanOrEqual(5);
    expect(Math.max(...perPost.values())).toBeLessThanOrEqual(10);
    expect(media.length).toBeGreaterThanOrEqual(8);
    expect(media.length).toBeLessThanOrEqual(12);
    expect(media.filter((m) => m.altText).length).toBeGreaterThan(0);
  });

  it('sends the post pictures through the media pipeline: stored WebP and thumbnail, media rows with placeholder and size', async () => {
    const rows = await database.sql<
      {
        url: string;
        thumbnail_url: string | null;
        width: number | null;
        height: number | null;
        alt_text: string | null;
        key: string;
        thumb_key: string;
        content_type: string;
        m_width: number;
        m_height: number;
        bytes: number;
        placeholder: string | null;
        uploaded_by: string | null;
        author: string;
      }[]
    >`
      SELECT pm.url, pm.thumbnail_url, pm.width, pm.height, pm.alt_text, m.key, m.thumb_key, m.content_type,
        m.width AS m_width, m.height AS m_height, m.bytes, m.placeholder, m.uploaded_by, p.user_id AS author
      FROM post_media pm JOIN media m ON m.id = pm.media_id JOIN posts p ON p.id = pm.post_id`;
    const [unlinked] = await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM post_media WHERE media_id IS NULL`;
    expect(unlinked!.n).toBe(0);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const aspects = new Set<string>();
    for (const row of rows) {
      // Content-addressed keys, served under /media/.
      expect(row.key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
      expect(row.url).toBe(`/media/${row.key}`);
      expect(row.thumbnail_url).toBe(`/media/${row.thumb_key}`);
      expect(row.content_type).toBe('image/webp');
      expect(row.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(row.uploaded_by).toBe(row.author);
      expect([row.width, row.height]).toEqual([row.m_width, row.m_height]);
      expect(Math.max(row.m_width, row.m_height)).toBeLessThanOrEqual(2048);
      aspects.add((row.m_width / row.m_height).toFixed(2));

      const file = path.join(mediaDir, ...row.key.split('/'));
      const meta = await sharp(file).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: row.m_width, height: row.m_height });
      expect((await stat(file)).size).toBe(row.bytes);
      const thumb = await sharp(path.join(mediaDir, ...row.thumb_key.split('/'))).metadata();
      expect(thumb.format).toBe('webp');
      expect(Math.max(thumb.width!, thumb.height!)).toBeLessThanOrEqual(480);
    }
    // Landscape, portrait, square and a panorama beyond 2048 px (scaled down by the pipeline).
    expect(aspects.size).toBeGreaterThanOrEqual(4);
    expect(rows.some((r) => r.m_width === 2048)).toBe(true);
  });

  it('fills the wall with comments, one-level replies and reactions', async () => {
    const posts = await db.select().from(schema.posts);
    const comments = await db.select().from(schema.comments);
    const byId = new Map(comments.map((c) => [c.id, c]));
    const replies = comments.filter((c) => c.parentCommentId);
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      const parent = byId.get(reply.parentCommentId!)!;
      expect(parent.parentCommentId).toBeNull();
      expect(parent.postId).toBe(reply.postId);
    }

    for (const post of posts) {
      const latest = comments.filter((c) => c.postId === post.id).reduce((t, c) => Math.max(t, c.createdAt.getTime()), post.createdAt.getTime());
      expect(post.lastActivityAt.getTime()).toBe(latest);
    }

    const reactionTypes = await database.sql<{ reaction_type: string }[]>`SELECT DISTINCT reaction_type FROM post_reactions`;
    expect(reactionTypes.length).toBeGreaterThanOrEqual(3);
    const [commentReactions] = await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM comment_reactions`;
    expect(commentReactions!.n).toBeGreaterThan(0);
  });

  it('gives the demo users notifications of what others did with their posts and comments, the recent ones unread', async () => {
    const [counts] = await database.sql<{ n: number; unread: number; kinds: number; recipients: number; wrong: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE read_at IS NULL)::int AS unread, count(DISTINCT type)::int AS kinds,
        count(DISTINCT user_id)::int AS recipients,
        count(*) FILTER (WHERE NOT (
          (type = 'post_reaction' AND EXISTS (SELECT 1 FROM post_reactions r JOIN posts p ON p.id = r.post_id
            WHERE r.post_id = n.post_id AND r.user_id = n.actor_id AND r.reaction_type = n.reaction_type AND p.user_id = n.user_id))
          OR (type = 'comment_reaction' AND EXISTS (SELECT 1 FROM comment_reactions r JOIN comments c ON c.id = r.comment_id
            WHERE r.comment_id = n.comment_id AND r.user_id = n.actor_id AND r.reaction_type = n.reaction_type AND c.user_id = n.user_id))
          OR (type = 'post_comment' AND EXISTS (SELECT 1 FROM comments c JOIN posts p ON p.id = c.post_id
            WHERE c.id = n.comment_id AND c.user_id = n.actor_id AND p.user_id = n.user_id))
          OR (type = 'comment_reply' AND EXISTS (SELECT 1 FROM comments c JOIN comments parent ON parent.id = c.parent_comment_id
            WHERE c.id = n.comment_id AND c.user_id = n.actor_id AND parent.user_id = n.user_id))
        ))::int AS wrong
      FROM notifications n`;
    expect(counts!.n).toBeGreaterThan(20);
    expect(counts!.unread).toBeGreaterThan(0);
    expect(counts!.unread).toBeLessThan(counts!.n);
    expect(counts!.kinds).toBe(4);
    expect(counts!.recipients).toBeGreaterThan(3);
    expect(counts!.wrong).toBe(0);
  });

  it('creates groups with members and page views over the last days', async () => {
    const groups = await db.select().from(schema.groups);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    const members = await db.select().from(schema.groupMembers);
    for (const group of groups) expect(members.filter((m) => m.groupId === group.id).length).toBeGreaterThanOrEqual(2);

    const [views] = await database.sql<{ n: number; days: number; users: number }[]>`
      SELECT count(*)::int AS n, count(DISTINCT created_at::date)::int AS days, count(user_id)::int AS users FROM page_views`;
    expect(views!.n).toBeGreaterThan(50);
    expect(views!.days).toBeGreaterThanOrEqual(5);
    expect(views!.users).toBeGreaterThan(0);
  });

  it('never dates anything in the future or before its author joined', async () => {
    const [bad] = await database.sql<{ n: number }[]>`
      SELECT (
        (SELECT count(*) FROM votes v JOIN profiles p ON p.id = v.user_id WHERE v.created_at < p.created_at OR v.created_at > now())
        + (SELECT count(*) FROM posts x JOIN profiles p ON p.id = x.user_id WHERE x.created_at < p.created_at OR x.created_at > now())
        + (SELECT count(*) FROM comments x JOIN profiles p ON p.id = x.user_id WHERE x.created_at < p.created_at OR x.created_at > now())
        + (SELECT count(*) FROM page_views x WHERE x.created_at > now())
      )::int AS n`;
    expect(bad!.n).toBe(0);
  });

  it('a second call returns false and changes nothing', async () => {
    const before = await tableCounts();
    const profilesBefore = await db.select().from(schema.profiles).orderBy(schema.profiles.id);
    const filesBefore = (await readdir(path.join(mediaDir, 'demo'))).sort();

    expect(await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }))).toBe(false);

    expect(await tableCounts()).toEqual(before);
    expect(await db.select().from(schema.profiles).orderBy(schema.profiles.id)).toEqual(profilesBefore);
    expect((await readdir(path.join(mediaDir, 'demo'))).sort()).toEqual(filesBefore);
  });
});

describe('seedIfEmpty on a database in use', () => {
  it('writes nothing when a reality exists, even without profiles', async () => {
    await truncateAll(database);
    await buildSeason(db);
    const otherMedia = path.join(mediaDir, 'untouched');
    expect(await seedIfEmpty(testConfig({ MEDIA_DIR: otherMedia }))).toBe(false);
    expect(existsSync(otherMedia)).toBe(false);
    const counts = await tableCounts();
    expect(counts.profiles).toBe(0);
    expect(counts.polls).toBe(0);
  });
});
