// Rows the benchmarks need, written straight into the bench database: a reality with an active
// season and contestants, points polls, and thousands of users with a real session each.
import { createHash, randomBytes } from 'node:crypto';
import { createDatabase } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

export interface BenchUser {
  id: string;
  /** The session cookie's value (the database keeps only its SHA-256); send it with sessionCookie (lib/sessionCookie.ts). */
  token: string;
  /** A stable per-user device fingerprint, as the browser would send. */
  fingerprint: string;
  /**
   * The fan's address, as the load balancer forwards it (X-Forwarded-For; the server runs with
   * TRUST_PROXY=loopback): USERS_PER_ADDRESS fans share one, as behind a mobile carrier's NAT.
   */
  address: string;
}

export const USERS_PER_ADDRESS = 50;

/** 10.x.y.z for the user at `index`: consecutive users share an address, USERS_PER_ADDRESS at a time. */
export function benchAddress(index: number): string {
  const group = Math.floor(index / USERS_PER_ADDRESS) + 1;
  return `10.${(group >> 16) & 255}.${(group >> 8) & 255}.${group & 255}`;
}

export interface BenchPoll {
  id: string;
  optionIds: string[];
}

export interface Fixtures {
  seasonId: string;
  polls: Record<string, BenchPoll>;
  users: BenchUser[];
}

export interface PollSpec {
  title: string;
  /** max_points_per_user (1 = single choice). */
  maxPointsPerUser: number;
  dailyReset: boolean;
  options: number;
}

const SESSION_DAYS = 14;
const CHUNK = 1000;

export async function createFixtures(databaseUrl: string, userCount: number, polls: Record<string, PollSpec>): Promise<Fixtures> {
  const database = createDatabase(databaseUrl, { max: 2, applicationName: 'tribuna-bench-fixtures' });
  const { db } = database;
  try {
    const [reality] = await db.insert(schema.realities).values({ name: 'Benchmark Reality' }).returning({ id: schema.realities.id });
    const [season] = await db
      .insert(schema.seasons)
      .values({ realityId: reality!.id, number: 1, year: new Date().getFullYear(), active: true })
      .returning({ id: schema.seasons.id });
    const seasonId = season!.id;
    const maxOptions = Math.max(...Object.values(polls).map((p) => p.options));
    const contestants = await db
      .insert(schema.contestants)
      .values(Array.from({ length: maxOptions }, (_, i) => ({ seasonId, fullName: `Contestant ${i + 1}` })))
      .returning({ id: schema.contestants.id });

    const created: Record<string, BenchPoll> = {};
    for (const [key, spec] of Object.entries(polls)) {
      const [poll] = await db
        .insert(schema.polls)
        .values({ title: spec.title, seasonId, status: 'active', showResults: true, pollMode: 'manual' })
        .returning({ id: schema.polls.id });
      await db.insert(schema.pollPointsConfig).values({
        pollId: poll!.id,
        pointsPerVote: 1,
        maxPointsPerUser: spec.maxPointsPerUser,
        dailyReset: spec.dailyReset,
        bonusForSharing: 0,
      });
      const options = await db
        .insert(schema.pollOptions)
        .values(contestants.slice(0, spec.options).map((c, order) => ({ pollId: poll!.id, contestantId: c.id, order })))
        .returning({ id: schema.pollOptions.id });
      created[key] = { id: poll!.id, optionIds: options.map((o) => o.id) };
    }

    const users: BenchUser[] = [];
    const now = new Date();
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);
    for (let start = 0; start < userCount; start += CHUNK) {
      const n = Math.min(CHUNK, userCount - start);
      const profiles = await db
        .insert(schema.profiles)
        .values(
          Array.from({ length: n }, (_, k) => {
            const i = start + k;
            return { displayName: `Fan ${i + 1}`, username: `bench_fan_${i + 1}` };
          }),
        )
        .returning({ id: schema.profiles.id });
      const chunkUsers = profiles.map((p, k) => ({
        id: p.id,
        token: randomBytes(32).toString('base64url'),
        fingerprint: `bench-device-${start + k + 1}-${randomBytes(4).toString('hex')}`,
        address: benchAddress(start + k),
      }));
      await db.insert(schema.sessions).values(
        chunkUsers.map((u) => ({
          id: createHash('sha256').update(u.token, 'utf8').digest('hex'),
          userId: u.id,
          level: 'aal1' as const,
          mfaPending: false,
          userAgent: 'tribuna-bench',
          createdAt: now,
          lastSeenAt: now,
          expiresAt,
        })),
      );
      users.push(...chunkUsers);
    }
    return { seasonId, polls: created, users };
  } finally {
    await database.close();
  }
}
