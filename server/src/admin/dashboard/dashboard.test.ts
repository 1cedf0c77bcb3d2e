import { describe, expect, it } from 'vitest';
import type { AdminDashboardMessage, Dashboard } from '@tribuna/contracts/api/admin/polls';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { useListeningTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';
import { openWs } from '../../../../test/support/server/wsClient.ts';

const HOUR = 3_600_000;

function pageView(createdAt: Date) {
  return { pagePath: '/', sessionId: 'visit-session-1', deviceType: 'mobile' as const, createdAt };
}

function describeDashboard(title: string, env: Record<string, string>) {
  describe(title, () => {
    let app: App;
    let database: Database;
    let wsUrl: string;
    useListeningTestApp(env, (ready) => {
      ({ app, database } = ready);
      wsUrl = `${ready.baseUrl.replace('http', 'ws')}/ws`;
    });
    const db = () => database.db;

    if (env.REQUIRE_ADMIN_MFA === '1') {
      it('the admin topic, like /api/admin, wants the second factor', async () => {
        const admin = await buildUser(db(), { role: 'admin' });
        const once = await openWs(wsUrl, { cookie: (await signIn(app, admin)).cookie });
        once.send({ type: 'subscribe', topic: 'admin' });
        await once.waitFor((m) => m.type === 'error' && m.code === 'forbidden');
        await once.close();
        const verified = await openWs(wsUrl, { cookie: (await signIn(app, admin, { level: 'aal2' })).cookie });
        verified.send({ type: 'subscribe', topic: 'admin' });
        await verified.waitFor((m) => m.type === 'admin-dashboard');
        await verified.close();
      });
      return;
    }

    it('counts active polls, votes, users and page views of 24 h; lists 5 recent polls and 10 activities in Spanish', async () => {
      const now = Date.now();
      const admin = await buildUser(db(), { role: 'admin', displayName: 'Ana', createdAt: new Date(now - 10 * HOUR) });
      const headers = asUser(await signIn(app, admin));
      const voters = await Promise.all([1, 2].map((i) => buildUser(db(), { displayName: `Votante ${i}`, createdAt: new Date(now - (20 + i) * HOUR) })));
      const polls = [];
      // Oldest first: active, draft, closed, active past its end date, active, active (the oldest drops out of the 5).
      const specs = [
        { status: 'active' as const },
        { status: 'draft' as const },
        { status: 'closed' as const },
        { status: 'active' as const, endDate: new Date(now - 1000) },
        { status: 'active' as const },
        { status: 'active' as const, title: 'La final' },
      ];
      for (const [i, spec] of specs.entries()) polls.push(await buildPoll(db(), { ...spec, createdAt: new Date(now - (30 - i) * HOUR) }));
      const last = polls[5]!;
      await buildVotes(db(), [
        { pollId: last.poll.id, optionId: last.options[0]!.id, userId: voters[0]!.id, createdAt: new Date(now - 2 * HOUR) },
        { pollId: last.poll.id, optionId: last.options[1]!.id, userId: voters[1]!.id, createdAt: new Date(now - HOUR) },
        { pollId: polls[0]!.poll.id, optionId: polls[0]!.options[0]!.id, userId: voters[1]!.id, createdAt: new Date(now - 48 * HOUR) },
      ]);
      await db()
        .insert(schema.pageViews)
        .values([pageView(new Date(now - HOUR)), pageView(new Date(now - 23 * HOUR)), pageView(new Date(now - 25 * HOUR))]);

      const res = await app.inject({ method: 'GET', url: '/api/admin/dashboard', headers });
      expect(res.statusCode, res.body).toBe(200);
      const dashboard = res.json<Dashboard>();
      expect(dashboard.stats).toEqual({ activePolls: 3, totalVotes: 3, totalUsers: 3, pageViews24h: 2 });
      expect(dashboard.recentPolls.map((p) => [p.id, p.status, p.voteCount])).toEqual([
        [polls[5]!.poll.id, 'active', 2],
        [polls[4]!.poll.id, 'active', 0],
        [polls[3]!.poll.id, 'closed', 0],
        [polls[2]!.poll.id, 'closed', 0],
        [polls[1]!.poll.id, 'draft', 0],
      ]);
      const activity = dashboard.recentActivity;
      expect(activity).toHaveLength(10);
      expect(activity.slice(0, 3).map((a) => [a.type, a.description])).toEqual([
        ['vote', 'Nuevo voto en "La final"'],
        ['vote', 'Nuevo voto en "La final"'],
        ['user', 'Nuevo usuario: Ana'],
      ]);
      expect(activity.map((a) => a.createdAt)).toEqual([...activity.map((a) => a.createdAt)].sort().reverse());
      expect(activity.find((a) => a.type === 'poll')!.description).toBe('Nueva encuesta: La final');
      // The 48-hour-old vote is outside the activity window.
      expect(activity.filter((a) => a.type === 'vote')).toHaveLength(2);
    });

    it('pushes the dashboard on the admin topic to admins only, again when votes change', async () => {
      const admin = await buildUser(db(), { role: 'admin' });
      const fan = await buildUser(db());
      const stranger = await openWs(wsUrl, { cookie: (await signIn(app, fan)).cookie });
      stranger.send({ type: 'subscribe', topic: 'admin' });
      await stranger.waitFor((m) => m.type === 'error' && m.code === 'forbidden');
      await stranger.close();

      const { poll, options } = await buildPoll(db());
      const watcher = await openWs(wsUrl, { cookie: (await signIn(app, admin)).cookie });
      watcher.send({ type: 'subscribe', topic: 'admin' });
      const first = await watcher.waitFor<AdminDashboardMessage>((m) => m.type === 'admin-dashboard');
      expect(first).toMatchObject({ topic: 'admin', stats: { activePolls: 1, totalVotes: 0, totalUsers: 2 } });

      const voter = await buildUser(db(), { displayName: 'Lucía' });
      const vote = await app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/votes`,
        headers: asUser(await signIn(app, voter)),
        payload: { optionId: options[0]!.id, deviceFingerprint: 'device-fingerprint-1' },
      });
      expect(vote.statusCode).toBe(201);
      const next = await watcher.waitFor<AdminDashboardMessage>((m) => m.type === 'admin-dashboard' && m.stats.totalVotes === 1, { timeoutMs: 6000 });
      expect(next.stats.totalUsers).toBe(3);
      expect(next.recentActivity[0]).toMatchObject({ type: 'vote', description: `Nuevo voto en "${poll.title}"` });
      await watcher.close();
    });
  });
}

describeDashboard('the admin dashboard', {});
describeDashboard('the admin dashboard with REQUIRE_ADMIN_MFA', { REQUIRE_ADMIN_MFA: '1' });
