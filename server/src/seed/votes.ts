// Votes, shares and the point awards they earn, following the product's rules:
// single choice = one row worth 1 point per user; points mode = rows whose points sum to at most
// max_points_per_user; one 'vote' award of points_per_vote (1) per user, poll and day, however many
// points were cast (as the worker's points.award-vote does); one share per poll and day.
import type { DemoData, PlanContext, PlannedUser } from './plan.ts';
import type { PlannedPoll, PollKey } from './polls.ts';
import { DEMO_MODERATOR_USERNAME } from './content.ts';

/** Who voted for what: an option key (contestant slug or text), or points per option key. */
const BALLOTS: Record<Exclude<PollKey, 'draft'>, [string, string | Record<string, number>][]> = {
  featured: [
    ['vale_fan', 'ximena-valdes'],
    ['dieguito_mx', 'ximena-valdes'],
    ['sofi_estrellas', 'paola-montiel'],
    ['luis_aguilar', 'ximena-valdes'],
    ['mariana_tv', 'ximena-valdes'],
    ['tono_reality', 'rodrigo-castaneda'],
    ['fer_gtz', 'emiliano-rosas'],
    ['carlitos_mty', 'rodrigo-castaneda'],
    ['ale_cdmx', 'ximena-valdes'],
    [DEMO_MODERATOR_USERNAME, 'paola-montiel'],
  ],
  points: [
    ['vale_fan', { 'ximena-valdes': 6, 'renata-solis': 4 }],
    ['dieguito_mx', { 'paola-montiel': 5, 'emiliano-rosas': 5 }],
    ['sofi_estrellas', { 'renata-solis': 4, 'mateo-ibarra': 3, 'daniela-quintero': 3 }],
    ['luis_aguilar', { 'ximena-valdes': 5, 'joaquin-arriaga': 3, 'renata-solis': 2 }],
    ['mariana_tv', { 'ximena-valdes': 7 }],
    ['tono_reality', { 'rodrigo-castaneda': 10 }],
    ['carlitos_mty', { 'rodrigo-castaneda': 4, 'valentina-ochoa': 2 }],
    ['fer_gtz', { 'emiliano-rosas': 6, 'daniela-quintero': 4 }],
  ],
  custom: [
    ['vale_fan', 'El karaoke en parejas'],
    ['dieguito_mx', 'La trivia musical'],
    ['sofi_estrellas', 'El reto de cocina'],
    ['mariana_tv', 'El karaoke en parejas'],
    ['carlitos_mty', 'La carrera de obstáculos'],
    ['ale_cdmx', 'El karaoke en parejas'],
  ],
  closed: [
    ['vale_fan', 'renata-solis'],
    ['dieguito_mx', 'joaquin-arriaga'],
    ['sofi_estrellas', 'renata-solis'],
    ['luis_aguilar', 'joaquin-arriaga'],
    ['mariana_tv', 'renata-solis'],
    ['tono_reality', 'mateo-ibarra'],
    ['fer_gtz', 'camila-ferrer'],
    ['carlitos_mty', 'camila-ferrer'],
    [DEMO_MODERATOR_USERNAME, 'renata-solis'],
  ],
};

const SHARES: { by: string; poll: PollKey; platform: 'native' | 'whatsapp' | 'facebook' | 'x' | 'copy'; hoursAgo: number }[] = [
  { by: 'vale_fan', poll: 'featured', platform: 'whatsapp', hoursAgo: 20 },
  { by: 'vale_fan', poll: 'featured', platform: 'native', hoursAgo: 44 },
  { by: 'mariana_tv', poll: 'featured', platform: 'whatsapp', hoursAgo: 26 },
  { by: 'luis_aguilar', poll: 'featured', platform: 'facebook', hoursAgo: 5 },
  { by: 'carlitos_mty', poll: 'points', platform: 'x', hoursAgo: 10 },
  { by: 'sofi_estrellas', poll: 'closed', platform: 'copy', hoursAgo: 24 * 12 },
];

/** poll_points_config.points_per_vote is fixed at 1: what one day's vote on a poll earns. */
const POINTS_PER_VOTE = 1;

const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
];
export const demoUserAgent = (index: number) => USER_AGENTS[index % USER_AGENTS.length]!;

export function planVotes(ctx: PlanContext, polls: PlannedPoll[]) {
  const votes: DemoData['votes'] = [];
  const shareHistory: DemoData['shareHistory'] = [];
  const userPointsHistory: DemoData['userPointsHistory'] = [];
  const pollByKey = new Map(polls.map((p) => [p.key, p]));
  const poll = (key: PollKey) => pollByKey.get(key)!;

  // One device per user, except two accounts sharing a phone and one user voting from three
  // devices, so the abuse report has something to show.
  const fingerprints = new Map(ctx.users.map((u) => [u.username, `demo${ctx.random.hex(28)}`]));
  fingerprints.set('ale_cdmx', fingerprints.get('mariana_tv')!);
  const fingerprintFor = (user: PlannedUser, key: PollKey) =>
    user.username === 'tono_reality' ? `demo-tono-${key}-${ctx.random.hex(12)}` : fingerprints.get(user.username)!;

  const awards = new Map<string, { userId: string; at: Date; title: string }>();

  for (const [key, ballots] of Object.entries(BALLOTS) as [Exclude<PollKey, 'draft'>, (typeof BALLOTS)['featured']][]) {
    const target = poll(key);
    for (const [username, ballot] of ballots) {
      const user = ctx.user(username);
      const from = latest(target.votingFrom, user.createdAt, key === 'points' ? ctx.clock.hoursAgo(30) : target.votingFrom);
      if (from >= target.votingUntil) throw new Error(`Demo voter ${username} joined after poll "${key}" closed`);
      const at = ctx.random.between(from, target.votingUntil);
      const allocation = typeof ballot === 'string' ? { [ballot]: 1 } : ballot;
      const total = Object.values(allocation).reduce((a, b) => a + b, 0);
      if (total > target.maxPointsPerUser) throw new Error(`Demo ballot of ${username} exceeds poll "${key}" points`);

      for (const [optionKey, points] of Object.entries(allocation)) {
        const optionId = target.options.get(optionKey);
        if (!optionId) throw new Error(`Demo ballot names "${optionKey}", not an option of poll "${key}"`);
        votes.push({
          pollId: target.id,
          optionId,
          userId: user.id,
          points,
          deviceFingerprint: fingerprintFor(user, key),
          userAgent: demoUserAgent(ctx.users.indexOf(user)),
          createdAt: at,
        });
      }
      const reference = `vote:${target.id}:${ctx.clock.dayOf(at)}`;
      const award = awards.get(`${user.id}|${reference}`);
      if (award) {
        if (at < award.at) award.at = at;
      } else {
        awards.set(`${user.id}|${reference}`, { userId: user.id, at, title: target.title });
      }
    }
  }
  for (const [key, award] of awards) {
    userPointsHistory.push({
      userId: award.userId,
      points: POINTS_PER_VOTE,
      reason: 'vote',
      referenceId: key.split('|')[1]!,
      description: `Voto en «${award.title}»`,
      createdAt: award.at,
    });
  }

  const sharedDays = new Set<string>();
  for (const share of SHARES) {
    const target = poll(share.poll);
    const user = ctx.user(share.by);
    const at = ctx.clock.hoursAgo(share.hoursAgo);
    if (at < user.createdAt || at < target.votingFrom || at > target.votingUntil) {
      throw new Error(`Demo share by ${share.by} falls outside poll "${share.poll}" or before the user joined`);
    }
    const day = ctx.clock.dayOf(at);
    const once = `${target.id}|${user.id}|${day}`;
    if (sharedDays.has(once)) throw new Error(`Demo data shares poll "${share.poll}" twice on ${day}`);
    sharedDays.add(once);
    shareHistory.push({
      pollId: target.id,
      userId: user.id,
      platform: share.platform,
      pointsEarned: target.bonusForSharing,
      shareDay: day,
      sharedAt: at,
    });
    userPointsHistory.push({
      userId: user.id,
      points: target.bonusForSharing,
      reason: 'share',
      referenceId: `share:${target.id}:${day}`,
      description: `Compartiste «${target.title}»`,
      createdAt: at,
    });
  }

  userPointsHistory.push({
    userId: ctx.user('luis_aguilar').id,
    points: 20,
    reason: 'admin_adjustment',
    referenceId: null,
    description: 'Bono por organizar la reunión de fans',
    createdAt: ctx.clock.daysAgo(4),
  });

  return { votes, shareHistory, userPointsHistory };
}

function latest(...dates: Date[]): Date {
  return new Date(Math.max(...dates.map((d) => d.getTime())));
}
