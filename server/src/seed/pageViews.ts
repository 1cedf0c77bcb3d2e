// A week of page views, some anonymous, so the dashboard and the reports have numbers.
import type { DemoData, PlanContext } from './plan.ts';
import { demoUserAgent } from './votes.ts';

const PATHS = ['/', '/', '/', '/wall', '/wall', '/perfil', '/login', '/terminos', '/privacidad', '/notificaciones'];
const REFERRERS = [null, null, null, 'https://www.google.com/', 'https://l.facebook.com/', 'https://t.co/'];

export function planPageViews(ctx: PlanContext): DemoData['pageViews'] {
  const { clock, random } = ctx;
  const rows: DemoData['pageViews'] = [];
  for (let daysAgo = 6; daysAgo >= 0; daysAgo--) {
    const count = random.int(18, 32);
    const from = clock.hoursAgo(daysAgo * 24 + 24);
    const to = clock.hoursAgo(daysAgo * 24);
    for (let i = 0; i < count; i++) {
      const at = random.between(from, to);
      const members = ctx.users.filter((u) => u.createdAt <= at);
      const user = members.length > 0 && random.next() < 0.6 ? random.pick(members) : null;
      const mobile = random.next() < 0.7;
      const path = random.pick(PATHS);
      rows.push({
        userId: user?.id ?? null,
        pagePath: path === '/perfil' && user === null ? `/perfil/${random.pick(ctx.users).id}` : path,
        referrer: random.pick(REFERRERS),
        userAgent: demoUserAgent(mobile ? random.int(0, 1) : random.int(2, 3)),
        sessionId: `demo${user ? user.username.replace(/_/g, '') : random.hex(8)}${random.hex(8)}`.slice(0, 64),
        deviceType: mobile ? 'mobile' : 'desktop',
        createdAt: at,
      });
    }
  }
  return rows;
}
