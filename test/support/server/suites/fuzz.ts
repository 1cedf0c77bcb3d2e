// Schema-driven fuzzing of every route of the real app (real PostgreSQL and Redis): whatever
// arrives — malformed params, queries, bodies, headers, as any kind of caller — the answer is never
// a 5xx, always arrives, is a status the answering route declares, no write succeeds that a
// page of another site could have sent, and a rejected request (4xx) changes nothing in the
// database (checked on the first WRITE_CHECKS requests of each route and transport). Replay with FUZZ_SEED=<seed>;
// FUZZ_RUNS / FUZZ_HTTP_RUNS set the number of requests per route (app.inject / real sockets).
// The tests are server/src/fuzz*.test.ts: the routes split in parts that run in parallel, each
// with its own app and database.
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase, truncateAll } from '../../db.ts';
import { testConfig } from '../../env.ts';
import { buildComment, buildPoll, buildPost } from '../../factories.ts';
import { buildApp } from '../../../../server/src/app.ts';
import { RATE_LIMITS, type RateLimitTable } from '../../../../server/src/http/rateLimits.ts';
import { SESSION_COOKIE } from '../../../../server/src/identity/sessions/constants.ts';
import { CALLER_KINDS, signInCallers } from '../callers.ts';
import { MockOidcProvider } from '../oidc.ts';
import { asUser, parseSetCookies } from '../sessions.ts';
import { FOREIGN_ORIGINS, requestFor, type FuzzContext, type FuzzRequest } from '../fuzz/requestArbitrary.ts';
import { RouteCatalogue, routeKey, type CatalogueRoute } from '../fuzz/routes.ts';
import { sendInjected, sendRaw, type Answer } from '../fuzz/transport.ts';
import { changedTables, tableDigests } from '../fuzz/fingerprint.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 9_2025);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const HTTP_RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 5);
/** Requests per route and transport whose database is compared before and after (two queries each). */
const WRITE_CHECKS = Number(process.env.FUZZ_WRITE_CHECKS ?? 10);
/** A client's patience: far beyond any sane answer, so only a request left hanging reaches it. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Routes allowed to declare no response schema: third-party plugins' files and docs, and the SPA
 * pages (the home page and the wall, with their link previews). Every other route must say what it answers.
 */
const WITHOUT_RESPONSE_SCHEMA = [/^\/\*$/, /^\/media\/\*$/, /^\/api\/docs(\/|$)/, /^\/$/, /^\/wall$/];

/**
 * Every rate limit a thousand times wider: the fuzzer sends a route far more requests than a fan
 * would from one address, and a route answering only 429 would be fuzzed no further (the limits
 * themselves have their own tests).
 */
function widened(table: RateLimitTable): RateLimitTable {
  const widen = (value: unknown) =>
    typeof value === 'object' && value !== null && 'max' in value && typeof value.max === 'number' ? { ...value, max: value.max * 1000 } : value;
  return Object.fromEntries(
    Object.entries(table).map(([name, rule]) => [name, Object.fromEntries(Object.entries(rule).map(([key, value]) => [key, widen(value)]))]),
  ) as unknown as RateLimitTable;
}

const warnings: string[] = [];
const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
const provider = await MockOidcProvider.start();
const catalogue = new RouteCatalogue();
// TRUST_PROXY: the garbage X-Forwarded-For headers become request.ip (rate limit and connection keys).
const app = await buildApp(testConfig(provider.env({ DEV_LOGIN: '1', TRUST_PROXY: '127.0.0.1' })), {
  logger,
  onRoute: catalogue.onRoute,
  rateLimits: widened(RATE_LIMITS),
});
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as AddressInfo).port;
const database = testDatabase();
const OWN_ORIGIN = new URL(app.config.publicUrl).origin;
/** Requests sent, by transport (printed at the end: the figure of the fuzz run). */
const sent = { inject: 0, http: 0, routes: 0, writeChecked: 0 };
afterAll(async () => {
  console.info(
    `HTTP fuzz (FUZZ_SEED=${SEED}): ${sent.inject + sent.http} requests to ${sent.routes} routes (${sent.inject} through app.inject, ${sent.http} over real sockets), ${sent.writeChecked} checked for writes`,
  );
  await app.close();
  await database.close();
  await provider.stop();
});

let polls: Awaited<ReturnType<typeof buildPoll>>[] | null = null;

/**
 * Rows for one route's run: polls of every kind (built once: no route changes them), and for each
 * route new callers of every kind with their sessions, a factor and its challenge, and the cookies
 * of a sign-in start (earlier routes may have suspended, deleted or signed out the previous ones).
 */
async function prepareContext(): Promise<FuzzContext> {
  const db = database.db;
  if (!polls) {
    await truncateAll(database);
    polls = await Promise.all([
      buildPoll(db),
      buildPoll(db, { options: 3, maxPointsPerUser: 10 }),
      buildPoll(db, { status: 'draft' }),
      buildPoll(db, { status: 'closed' }),
      buildPoll(db, { endDate: new Date(Date.now() - 60_000) }),
    ]);
  }
  const callers = await signInCallers(app, db);
  const fan = asUser(callers.fan.session);
  const succeed = async (options: InjectOptions) => {
    const res = await app.inject(options);
    expect(res.statusCode, `${options.method} ${options.url}`).toBeLessThan(400);
    return res;
  };
  const factor = (await succeed({ method: 'POST', url: '/api/auth/factors', headers: fan })).json<{ id: string }>();
  const challenge = (await succeed({ method: 'POST', url: `/api/auth/factors/${factor.id}/challenge`, headers: fan })).json<{ challengeId: string }>();
  const signInStart = await succeed({ method: 'GET', url: '/auth/google' });
  // A post of the fan with a comment: the wall's routes meet real ids (owned by one of the callers).
  const post = await buildPost(db, callers.fan.user.id);
  const comment = await buildComment(db, post.id, callers.fan.user.id);
  // Reported by the moderator (issue 29): the moderation queue's routes meet a real reported item of each kind.
  await database.sql`INSERT INTO reports (reporter_id, target_type, target_id, target_user_id, reason, comment) VALUES
    (${callers.moderator.user.id}, 'post', ${post.id}, ${callers.fan.user.id}, 'spam', 'Publicidad'),
    (${callers.moderator.user.id}, 'comment', ${comment.id}, ${callers.fan.user.id}, 'harassment', NULL),
    (${callers.moderator.user.id}, 'profile', ${callers.fan.user.id}, ${callers.fan.user.id}, 'impersonation', NULL)
    ON CONFLICT DO NOTHING`;
  // A private group the fan runs, with a member, a pending request, a ban and a post of the member:
  // the groups' routes meet real ids of every kind (a public group of another fan too).
  const [group, publicGroup] = await database.sql<{ id: string }[]>`
    INSERT INTO groups (name, privacy, created_by) VALUES ('Club del fuzz', 'private', ${callers.fan.user.id}), ('Club abierto', 'public', NULL) RETURNING id`;
  const groupPost = await buildPost(db, callers.suspendedFan.user.id, { groupId: group!.id, visibility: 'group' });
  await database.sql`INSERT INTO group_members (group_id, user_id, role) VALUES
    (${group!.id}, ${callers.fan.user.id}, 'admin'), (${group!.id}, ${callers.suspendedFan.user.id}, 'member'), (${publicGroup!.id}, ${callers.admin.user.id}, 'admin')`;
  await database.sql`INSERT INTO group_join_requests (group_id, user_id) VALUES (${group!.id}, ${callers.admin.user.id})`;
  await database.sql`INSERT INTO group_bans (group_id, user_id) VALUES (${group!.id}, ${callers.adminAal2.user.id})`;
  // A push device of the fan and a broadcast of the first poll (issue 31): 'Quitar' and the broadcasts' list meet real rows.
  const [device] = await database.sql<{ id: string }[]>`
    INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, browser)
    VALUES (${callers.fan.user.id}, ${`https://fcm.googleapis.com/fcm/send/${callers.fan.user.id}`}, 'BKey', 'auth', 'Chrome en Android') RETURNING id`;
  await database.sql`INSERT INTO push_broadcasts (kind, poll_id, payload)
    VALUES ('poll_closing', ${polls[0]!.poll.id}, ${JSON.stringify({ id: callers.fan.user.id, kind: 'poll_closing', title: 'Cierra pronto', body: 'Quedan 10 minutos', url: '/', at: new Date(0).toISOString() })}::jsonb)
    ON CONFLICT DO NOTHING`;
  const flowCookies = parseSetCookies(signInStart.headers['set-cookie'] as string[] | undefined).map((cookie) => `${cookie.name}=${cookie.value}`);
  return {
    uuids: [
      ...CALLER_KINDS.map((kind) => callers[kind].user.id),
      ...polls.flatMap(({ poll, options, season, reality }) => [poll.id, season.id, reality.id, ...options.map((option) => option.id)]),
      factor.id,
      challenge.challengeId,
      post.id,
      comment.id,
      group!.id,
      publicGroup!.id,
      groupPost.id,
      device!.id,
    ],
    sessionCookies: CALLER_KINDS.map((kind) => callers[kind].session.cookie),
    harvestedCookies: flowCookies,
    sessionCookieName: SESSION_COOKIE,
    ownOrigin: OWN_ORIGIN,
  };
}

interface Problem {
  kind: string;
  count: number;
  example: FuzzRequest;
  transport: 'inject' | 'http';
  answer: Answer;
  logs: string[];
}

/** Distinct problems of one route (by kind), each with its first reproducing request. */
class ProblemLog {
  readonly problems = new Map<string, Problem>();
  /** 503s on routes that declare them: allowed, but reported for a person to judge. */
  readonly flagged: Problem[] = [];

  record(kind: string, request: FuzzRequest, transport: Problem['transport'], answer: Answer, logs: string[], flag = false): void {
    const problem = { kind, count: 1, example: request, transport, answer, logs };
    if (flag) {
      this.flagged.push(problem);
      return;
    }
    const known = this.problems.get(kind);
    if (known) known.count += 1;
    else this.problems.set(kind, problem);
  }
}

/** Log lines of the request just answered that carry an error (the cause of a 5xx). */
function errorLogs(): string[] {
  return warnings.flatMap((line) => {
    const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
    return entry.err ? [`${entry.msg ?? ''}: ${entry.err.stack ?? entry.err.message ?? ''}`] : [];
  });
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Why no page of another site could have made this write succeed (see http/csrf.ts), or null when
 * it could have: a write under /api or /auth with a foreign Origin, or without X-Requested-With
 * (for a sendBeacon route: without either).
 */
function crossSiteReason(route: CatalogueRoute, request: FuzzRequest): string | null {
  if (!MUTATIONS.has(route.method) || !/^\/(?:api|auth)(?:\/|$)/.test(route.url)) return null;
  const origin = request.headers.origin;
  if (origin !== undefined && FOREIGN_ORIGINS(OWN_ORIGIN).includes(origin)) return `Origin ${origin}`;
  if (request.headers['x-requested-with'] !== undefined) return null;
  if (route.config?.csrf !== 'beacon') return 'no X-Requested-With';
  return origin === undefined ? 'neither X-Requested-With nor Origin' : null;
}

/** Judges one answer: unanswered, 5xx, a status the answering route does not declare, a cross-site write. */
async function probe(route: CatalogueRoute, request: FuzzRequest, transport: Problem['transport'], log: ProblemLog, checkWrites: boolean): Promise<void> {
  const before = checkWrites ? await tableDigests(database) : null;
  warnings.length = 0;
  catalogue.lastAnswered = null;
  sent[transport]++;
  const upgrade: Record<string, string> =
    transport === 'http' && route.websocket
      ? { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' }
      : {};
  const answer = transport === 'inject' ? await sendInjected(app, request, REQUEST_TIMEOUT_MS) : await sendRaw(port, request, REQUEST_TIMEOUT_MS, upgrade);
  const answeredBy = catalogue.lastAnswered as CatalogueRoute | null;
  const logs = errorLogs();
  const by = answeredBy ? routeKey(answeredBy) : 'no route';
  if (answer.failure !== undefined || answer.status === null) {
    log.record(`${answer.failure ?? 'no status'} (${by})`, request, transport, answer, logs);
    return;
  }
  const status = answer.status;
  if (status >= 500) {
    const declared = answeredBy !== null && RouteCatalogue.declaredStatuses(answeredBy)?.includes(String(status)) === true;
    log.record(`${status} from ${by}: ${logs[0]?.split('\n')[0] ?? answer.body.slice(0, 120)}`, request, transport, answer, logs, status === 503 && declared);
    return;
  }
  if (answeredBy && !RouteCatalogue.declares(answeredBy, status)) {
    log.record(`${status} not declared by ${by}: ${answer.body.slice(0, 160)}`, request, transport, answer, logs);
  }
  if (before) {
    sent.writeChecked++;
    const changed = status >= 400 ? changedTables(before, await tableDigests(database)) : [];
    if (changed.length > 0) log.record(`rejected with ${status} by ${by} but changed ${changed.join(', ')}`, request, transport, answer, logs);
  }
  const crossSite = answeredBy && status < 300 ? crossSiteReason(answeredBy, request) : null;
  if (crossSite) log.record(`cross-site write accepted with ${status} by ${by} (${crossSite})`, request, transport, answer, logs);
}

/** Long strings cut short so a report stays readable. */
function abbreviate(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    typeof entry === 'string' && entry.length > 200 ? `${entry.slice(0, 80)}…(${entry.length} chars)` : entry,
  );
}

function report(route: CatalogueRoute, seed: number, log: ProblemLog): string {
  return [...log.problems.values()]
    .map((problem) =>
      [
        `${routeKey(route)} [${problem.transport}, FUZZ_SEED=${SEED}, route seed ${seed}] ×${problem.count}: ${problem.kind}`,
        `  request: ${abbreviate(problem.example)}`,
        `  answer: ${problem.answer.status ?? '-'} ${abbreviate(problem.answer.body.slice(0, 300))}`,
        ...problem.logs.map((line) => `  log: ${line.split('\n').slice(0, 8).join('\n       ')}`),
      ].join('\n'),
    )
    .join('\n');
}

/** A per-route seed: adding a route does not change the requests another route receives. */
function seedFor(route: CatalogueRoute): number {
  let hash = SEED | 0;
  for (const char of routeKey(route)) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** The parts the routes are fuzzed in, one test file each: together, every route of the app. */
const isAdminRoute = (route: CatalogueRoute) => /^\/api\/admin(?:\/|$)/.test(route.url);
const isCommunityRoute = (route: CatalogueRoute) => /^\/api\/(?:posts|comments|profiles|me|notifications)(?:\/|$)/.test(route.url);
export const FUZZ_PARTS = {
  admin: { title: 'the /api/admin routes', has: isAdminRoute },
  community: { title: 'the wall, profile and notification routes', has: isCommunityRoute },
  others: { title: 'every other route', has: (route: CatalogueRoute) => !isAdminRoute(route) && !isCommunityRoute(route) },
} as const;

/** Fuzzes the routes of one part (FUZZ_PARTS) of the app built above. */
export function describeFuzz(part: keyof typeof FUZZ_PARTS): void {
  const { title, has } = FUZZ_PARTS[part];
  const routes = catalogue.routes.filter(has);
  describe(`fuzzing ${title}`, () => {
    it.each(routes.map((route) => [routeKey(route), route] as const))(
      '%s: never a 5xx, never unanswered, only declared statuses, no cross-site write',
      async (_key, route) => {
        const context = await prepareContext();
        sent.routes++;
        const log = new ProblemLog();
        const seed = seedFor(route);
        const requests = requestFor(route, context);
        for (const [transport, numRuns, runSeed] of [
          ['inject', RUNS, seed],
          ['http', HTTP_RUNS, seed + 1],
        ] as const) {
          let index = 0;
          const details = await fc.check(
            fc.asyncProperty(requests, (request) => probe(route, request, transport, log, index++ < WRITE_CHECKS)),
            { seed: runSeed, numRuns },
          );
          // The property itself never fails: a failure here is a bug of the fuzzer.
          if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'fuzzer failed');
        }
        for (const flag of log.flagged) {
          console.warn(`flagged 503 on ${routeKey(route)} (FUZZ_SEED=${SEED}): ${abbreviate(flag.example)} → ${flag.answer.body}\n${flag.logs.join('\n')}`);
        }
        expect(report(route, seed, log)).toBe('');
      },
      120_000,
    );

    it(`reached every /api, /auth and /ws route of ${title}, and every one of those routes but the allowed few declares its answers`, () => {
      expect(routes.length).toBeGreaterThan(0);
      const own = routes.filter((route) => /^\/(?:api|auth|ws)(?:\/|$)/.test(route.url));
      expect(own.filter((route) => route.hits === 0).map(routeKey)).toEqual([]);
      const undeclared = routes.filter(
        (route) => RouteCatalogue.declaredStatuses(route) === null && !WITHOUT_RESPONSE_SCHEMA.some((pattern) => pattern.test(route.url)),
      );
      expect(undeclared.map(routeKey)).toEqual([]);
    });
  });
}
