import { randomBytes } from 'node:crypto';
import type { Db } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

const unique = () => randomBytes(4).toString('hex');

type ProfileRow = typeof schema.profiles.$inferSelect;
type PollRow = typeof schema.polls.$inferSelect;
type OptionRow = typeof schema.pollOptions.$inferSelect;

export async function buildUser(db: Db, overrides: Partial<typeof schema.profiles.$inferInsert> = {}): Promise<ProfileRow> {
  const tag = unique();
  const [row] = await db
    .insert(schema.profiles)
    .values({ displayName: `Fan ${tag}`, username: `fan_${tag}`, ...overrides })
    .returning();
  return row!;
}

export async function buildSeason(db: Db) {
  const [reality] = await db
    .insert(schema.realities)
    .values({ name: `Reality ${unique()}` })
    .returning();
  const [season] = await db.insert(schema.seasons).values({ realityId: reality!.id, number: 1, year: 2025, active: true }).returning();
  return { reality: reality!, season: season! };
}

export interface BuildPollOptions {
  options?: number;
  status?: PollRow['status'];
  isFeatured?: boolean;
  endDate?: Date | null;
  maxPointsPerUser?: number;
  title?: string;
  createdAt?: Date;
}

/** A poll with `options` contestant options (default 2), its season, reality and points config. */
export async function buildPoll(db: Db, opts: BuildPollOptions = {}) {
  const { reality, season } = await buildSeason(db);
  const [poll] = await db
    .insert(schema.polls)
    .values({
      title: opts.title ?? `¿Quién se queda? ${unique()}`,
      seasonId: season.id,
      status: opts.status ?? 'active',
      isFeatured: opts.isFeatured ?? false,
      endDate: opts.endDate ?? null,
      ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
    })
    .returning();
  const options: OptionRow[] = [];
  for (let i = 0; i < (opts.options ?? 2); i++) {
    const [contestant] = await db
      .insert(schema.contestants)
      .values({ seasonId: season.id, fullName: `Concursante ${i + 1} ${unique()}` })
      .returning();
    const [option] = await db.insert(schema.pollOptions).values({ pollId: poll!.id, contestantId: contestant!.id, order: i }).returning();
    options.push(option!);
  }
  await db.insert(schema.pollPointsConfig).values({
    pollId: poll!.id,
    maxPointsPerUser: opts.maxPointsPerUser ?? 1,
    dailyReset: (opts.maxPointsPerUser ?? 1) > 1,
  });
  return { reality, season, poll: poll!, options };
}

type VoteRow = typeof schema.votes.$inferSelect;
export type VoteInput = Pick<typeof schema.votes.$inferInsert, 'pollId' | 'optionId' | 'userId'> &
  Partial<Pick<typeof schema.votes.$inferInsert, 'points' | 'createdAt'>>;

/**
 * Vote rows written straight to PostgreSQL (1 point each unless said), for tests that need votes
 * without going through the API's batcher (results, tallies, live totals, awards).
 */
export async function buildVotes(db: Db, votes: VoteInput[]): Promise<VoteRow[]> {
  if (votes.length === 0) return [];
  return db.insert(schema.votes).values(votes).returning();
}

type SessionRow = typeof schema.sessions.$inferSelect;

/**
 * A session row of `userId` (its id is the token's hash in real life; any unique text here),
 * live for 14 days unless `expiresAt` / `revokedAt` say otherwise. Tests that need the cookie sign
 * in through the API instead (test/support/server/sessions.ts).
 */
export async function buildSession(db: Db, userId: string, overrides: Partial<Omit<typeof schema.sessions.$inferInsert, 'userId'>> = {}): Promise<SessionRow> {
  const [row] = await db
    .insert(schema.sessions)
    .values({ id: `test-session-${unique()}${unique()}`, userId, expiresAt: new Date(Date.now() + 14 * 86_400_000), ...overrides })
    .returning();
  return row!;
}

type PostRow = typeof schema.posts.$inferSelect;
type CommentRow = typeof schema.comments.$inferSelect;

/** A post of `userId` (public, without a group, unless overridden). */
export async function buildPost(db: Db, userId: string, overrides: Partial<typeof schema.posts.$inferInsert> = {}): Promise<PostRow> {
  const [row] = await db
    .insert(schema.posts)
    .values({ userId, content: `Post ${unique()}`, ...overrides })
    .returning();
  return row!;
}

/** A comment of `userId` on `postId` (a reply when parentCommentId is given). */
export async function buildComment(db: Db, postId: string, userId: string, overrides: Partial<typeof schema.comments.$inferInsert> = {}): Promise<CommentRow> {
  const [row] = await db
    .insert(schema.comments)
    .values({ postId, userId, content: `Comentario ${unique()}`, ...overrides })
    .returning();
  return row!;
}
