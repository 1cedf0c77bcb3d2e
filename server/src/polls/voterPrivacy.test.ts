// Voting history privacy: who voted for what is shown only to signed-in readers, never with the
// points each fan gave, and never naming a fan who turned off "Mostrar mi nombre en las listas de
// votantes" (their votes still count). The same holds for the live voters messages.
import { describe, expect, it } from 'vitest';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { Profile } from '@tribuna/contracts/api/me';
import type { ResultsSnapshot, VotersMessage } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser, buildVotes } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { asUser, signIn, XHR } from '../../../test/support/server/sessions.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';

const FINGERPRINT = 'privacy-test-device';

describe('voters lists and the voting history', () => {
  let app: App;
  let database: Database;
  let port: number;
  useListeningTestApp({}, (ready) => ({ app, database, port } = ready));

  const results = async (pollId: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url: `/api/polls/${pollId}/results`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PollResults>();
  };

  const hideFromLists = async (headers: Record<string, string>) => {
    const res = await app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { showInVoterLists: false } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Profile>();
  };

  /** A points poll: Ana gave option 0 three points, Beto one, Cora (who hides her name) two. */
  async function pointsPoll() {
    const { poll, options } = await buildPoll(database.db, { options: 2, maxPointsPerUser: 10 });
    const [ana, beto, cora] = await Promise.all([buildUser(database.db), buildUser(database.db), buildUser(database.db)]);
    await buildVotes(database.db, [
      { pollId: poll.id, optionId: options[0]!.id, userId: ana.id, points: 3 },
      { pollId: poll.id, optionId: options[0]!.id, userId: beto.id, points: 1 },
      { pollId: poll.id, optionId: options[0]!.id, userId: cora.id, points: 2 },
    ]);
    const coraHeaders = asUser(await signIn(app, cora));
    await hideFromLists(coraHeaders);
    return { poll, options, ana, beto, cora, coraHeaders };
  }

  it('a signed-out reader gets the counts and no names, on the results and on the home poll', async () => {
    const { poll, options } = await pointsPoll();
    const anonymous = await results(poll.id);
    expect(anonymous.votersListed).toBe(false);
    expect(anonymous.options).toEqual([
      { optionId: options[0]!.id, totalVotes: 3, totalPoints: 6, totalVoters: 3, voters: [] },
      { optionId: options[1]!.id, totalVotes: 0, totalPoints: 0, totalVoters: 0, voters: [] },
    ]);
    expect(anonymous.totalVoters).toBe(3);

    const home = await app.inject({ method: 'GET', url: `/api/polls/home?encuesta=${poll.id}` });
    const body = home.json<{ results: PollResults }>();
    expect(body.results.votersListed).toBe(false);
    expect(body.results.options.flatMap((o) => o.voters)).toEqual([]);
  });

  it('a signed-in reader gets the names without points, and a fan who hides her name is counted, not named', async () => {
    const { poll, ana, beto, cora } = await pointsPoll();
    const reader = asUser(await signIn(app, await buildUser(database.db)));
    const named = await results(poll.id, reader);
    expect(named.votersListed).toBe(true);
    const option = named.options[0]!;
    expect(option.totalVoters).toBe(3);
    expect(option.voters.map((v) => v.userId).sort()).toEqual([ana.id, beto.id].sort());
    for (const voter of option.voters) expect(Object.keys(voter).sort()).toEqual(['avatarUrl', 'displayName', 'userId']);
    expect(JSON.stringify(named)).not.toContain(cora.id);
    expect(JSON.stringify(named)).not.toContain(cora.displayName!);

    // Cora reading the poll herself is not named either: the choice holds for every reader.
    const own = await results(poll.id, asUser(await signIn(app, cora)));
    expect(own.options[0]!.voters.map((v) => v.userId)).not.toContain(cora.id);
  });

  it("the choice is the own profile's: shown by default, saved by PATCH /api/me, refused when not a boolean", async () => {
    const fan = asUser(await signIn(app, await buildUser(database.db)));
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: fan });
    expect(me.json<Profile>().showInVoterLists).toBe(true);
    expect((await hideFromLists(fan)).showInVoterLists).toBe(false);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: fan })).json<Profile>().showInVoterLists).toBe(false);

    const bad = await app.inject({ method: 'PATCH', url: '/api/me', headers: fan, payload: { showInVoterLists: 'no' } });
    expect(bad.statusCode).toBe(400);
    const visitor = await app.inject({ method: 'PATCH', url: '/api/me', headers: XHR, payload: { showInVoterLists: true } });
    expect(visitor.statusCode).toBe(401);
  });

  describe('live voters messages', () => {
    const clients: WsTestClient[] = [];
    const connect = async (headers: Record<string, string> = {}) => {
      const client = await openWs(`ws://127.0.0.1:${port}/ws`, headers);
      clients.push(client);
      return client;
    };
    const isResults = (pollId: string) => (m: { type: string; pollId?: string }) => m.type === 'results' && m.pollId === pollId;

    it('name listed voters (no points) to signed-in sockets only; a visitor socket gets the totals alone', async () => {
      try {
        const { poll, options } = await buildPoll(database.db, { options: 2 });
        const [listed, hidden] = await Promise.all([buildUser(database.db), buildUser(database.db)]);
        const listedHeaders = asUser(await signIn(app, listed));
        const hiddenHeaders = asUser(await signIn(app, hidden));
        await hideFromLists(hiddenHeaders);

        const member = await connect({ cookie: listedHeaders.cookie! });
        const visitor = await connect();
        for (const socket of [member, visitor]) socket.send({ type: 'subscribe', topic: `poll:${poll.id}` });
        await Promise.all([member, visitor].map((socket) => socket.waitFor(isResults(poll.id))));

        // The hidden fan votes first, then the listed one: both count, only the listed one is named.
        for (const headers of [hiddenHeaders, listedHeaders]) {
          const vote = await app.inject({
            method: 'POST',
            url: `/api/polls/${poll.id}/votes`,
            headers,
            payload: { optionId: options[1]!.id, deviceFingerprint: FINGERPRINT },
          });
          expect(vote.statusCode, vote.body).toBe(201);
        }

        const voters = await member.waitFor<VotersMessage>((m) => m.type === 'voters' && m.pollId === poll.id && m.added.some((a) => a.userId === listed.id));
        for (const message of member.ofType('voters')) {
          for (const added of message.added) {
            expect(Object.keys(added).sort()).toEqual(['avatarUrl', 'displayName', 'optionId', 'userId']);
            expect(added.userId).not.toBe(hidden.id);
          }
        }
        expect(voters.added).toContainEqual({ optionId: options[1]!.id, userId: listed.id, displayName: listed.displayName, avatarUrl: null });

        // The visitor saw both votes counted…
        await visitor.waitFor<ResultsSnapshot>((m) => isResults(poll.id)(m) && (m as ResultsSnapshot).totalVotes === 2);
        // …and, by the time its pong comes back (after anything queued for it before), no voters message.
        const before = visitor.messages.length;
        visitor.send({ type: 'ping' });
        await visitor.waitFor((m) => m.type === 'pong', { from: before });
        expect(visitor.ofType('voters')).toEqual([]);
        expect(JSON.stringify(visitor.messages)).not.toContain(listed.id);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });
  });
});
