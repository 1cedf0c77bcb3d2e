// Builds every demo row in memory (ids included) so relations are wired before anything is written.
import { randomUUID } from 'node:crypto';
import type { schema } from '@tribuna/drizzle';
import { DemoClock, DemoRandom } from './clock.ts';
import { CONTESTANTS, REALITY_NAME, USERS, type DemoUser } from './content.ts';
import { avatarSvg, bannerSvg, contestantPortraitSvg } from './images.ts';
import { planPolls } from './polls.ts';
import { planVotes } from './votes.ts';
import { planWall } from './wall.ts';
import { planPageViews } from './pageViews.ts';
import { planNotifications } from './notifications.ts';

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export interface ImageJob {
  name: string;
  svg: string;
}

/**
 * A wall picture: drawn locally, encoded as a camera or a screenshot would (JPEG or PNG), then sent
 * through the media pipeline like an upload (seed.ts): re-encoded, thumbnail, placeholder, `media`
 * row and the post_media row naming it.
 */
export interface PostImageJob {
  postId: string;
  order: number;
  uploadedBy: string;
  svg: string;
  format: 'jpeg' | 'png';
  alt: string | null;
}

export interface DemoData {
  /** Fixed files under MEDIA_DIR/demo (avatars, banners, contestant photos). */
  images: ImageJob[];
  /** Post pictures, through the media pipeline. */
  postImages: PostImageJob[];
  realities: Insert<typeof schema.realities>[];
  seasons: Insert<typeof schema.seasons>[];
  contestants: Insert<typeof schema.contestants>[];
  profiles: Insert<typeof schema.profiles>[];
  accounts: Insert<typeof schema.accounts>[];
  polls: Insert<typeof schema.polls>[];
  pollOptions: Insert<typeof schema.pollOptions>[];
  pollPointsConfig: Insert<typeof schema.pollPointsConfig>[];
  votes: Insert<typeof schema.votes>[];
  shareHistory: Insert<typeof schema.shareHistory>[];
  userPointsHistory: Insert<typeof schema.userPointsHistory>[];
  groups: Insert<typeof schema.groups>[];
  groupMembers: Insert<typeof schema.groupMembers>[];
  posts: Insert<typeof schema.posts>[];
  comments: Insert<typeof schema.comments>[];
  postReactions: Insert<typeof schema.postReactions>[];
  commentReactions: Insert<typeof schema.commentReactions>[];
  notifications: Insert<typeof schema.notifications>[];
  pageViews: Insert<typeof schema.pageViews>[];
}

/** A demo profile as the planners see it. */
export interface PlannedUser extends DemoUser {
  id: string;
  createdAt: Date;
}

export interface PlannedContestant {
  id: string;
  slug: string;
  fullName: string;
  eliminated: boolean;
}

export interface PlanContext {
  clock: DemoClock;
  random: DemoRandom;
  users: PlannedUser[];
  user(username: string): PlannedUser;
  contestants: PlannedContestant[];
  contestant(slug: string): PlannedContestant;
  seasonId: string;
  /** Registers an image to render and returns its public URL. */
  image(name: string, svg: string): string;
}

export const demoImageUrl = (name: string) => `/media/demo/${name}.webp`;

export function buildDemoData(now: Date, timeZone: string): DemoData {
  const clock = new DemoClock(now, timeZone);
  const random = new DemoRandom(20250105);
  const images: ImageJob[] = [];
  const image = (name: string, svg: string) => {
    images.push({ name, svg });
    return demoImageUrl(name);
  };

  const realityId = randomUUID();
  const seasonId = randomUUID();
  const seasonStart = clock.daysAgo(35);
  const realities: DemoData['realities'] = [{ id: realityId, name: REALITY_NAME, active: true, createdAt: clock.daysAgo(60), updatedAt: clock.daysAgo(60) }];
  const seasons: DemoData['seasons'] = [
    {
      id: seasonId,
      realityId,
      number: 1,
      year: clock.year(),
      startDate: clock.dayFromToday(-35),
      endDate: clock.dayFromToday(28),
      active: true,
      createdAt: clock.daysAgo(50),
      updatedAt: clock.daysAgo(50),
    },
  ];

  const plannedContestants: PlannedContestant[] = [];
  const contestants: DemoData['contestants'] = CONTESTANTS.map((c, index) => {
    const id = randomUUID();
    plannedContestants.push({ id, slug: c.slug, fullName: c.fullName, eliminated: Boolean(c.eliminated) });
    return {
      id,
      seasonId,
      fullName: c.fullName,
      photoUrl: image(`contestant-${c.slug}`, contestantPortraitSvg(c.fullName, index)),
      status: c.eliminated ? 'eliminated' : 'active',
      eliminationDate: c.eliminated ? clock.dayFromToday(-c.eliminated.daysAgo) : null,
      createdAt: seasonStart,
      updatedAt: c.eliminated ? clock.daysAgo(c.eliminated.daysAgo) : seasonStart,
    };
  });

  const users: PlannedUser[] = USERS.map((u) => ({
    ...u,
    id: randomUUID(),
    createdAt: clock.hoursAgo(u.joinedDaysAgo * 24 + random.int(1, 12)),
  }));
  const byUsername = new Map(users.map((u) => [u.username, u]));
  const bySlug = new Map(plannedContestants.map((c) => [c.slug, c]));

  const ctx: PlanContext = {
    clock,
    random,
    users,
    user(username) {
      const found = byUsername.get(username);
      if (!found) throw new Error(`Demo data names an unknown user "${username}"`);
      return found;
    },
    contestants: plannedContestants,
    contestant(slug) {
      const found = bySlug.get(slug);
      if (!found) throw new Error(`Demo data names an unknown contestant "${slug}"`);
      return found;
    },
    seasonId,
    image,
  };

  const polls = planPolls(ctx);
  const votes = planVotes(ctx, polls.planned);
  const wall = planWall(ctx);
  const pageViews = planPageViews(ctx);

  const pointsByUser = new Map<string, number>();
  for (const row of votes.userPointsHistory) pointsByUser.set(row.userId, (pointsByUser.get(row.userId) ?? 0) + row.points);

  const profiles: DemoData['profiles'] = users.map((u, index) => ({
    id: u.id,
    displayName: u.displayName,
    username: u.username,
    bio: u.bio,
    avatarUrl: image(`avatar-${u.username.replace(/_/g, '-')}`, avatarSvg(u.displayName, index)),
    bannerUrl: u.banner ? image(`banner-${u.username.replace(/_/g, '-')}`, bannerSvg(u.banner, index)) : null,
    role: u.role,
    totalPoints: pointsByUser.get(u.id) ?? 0,
    createdAt: u.createdAt,
    updatedAt: u.createdAt,
  }));
  const accounts: DemoData['accounts'] = users.map((u) => ({
    userId: u.id,
    email: demoEmail(u),
    emailVerified: true,
    oidcIssuer: 'dev',
    oidcSubject: u.username,
    lastSignInAt: clock.hoursAgo(random.int(1, 72)),
    createdAt: u.createdAt,
  }));

  return {
    images,
    realities,
    seasons,
    contestants,
    profiles,
    accounts,
    polls: polls.polls,
    pollOptions: polls.pollOptions,
    pollPointsConfig: polls.pollPointsConfig,
    ...votes,
    ...wall,
    notifications: planNotifications(wall, clock),
    pageViews,
  };
}

export function demoEmail(user: Pick<DemoUser, 'username'>): string {
  return `${user.username}@tribuna.local`;
}
