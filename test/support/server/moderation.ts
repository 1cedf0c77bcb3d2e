// Helpers of the moderation tests (issue 29): fans and staff with sessions, reports, the queue and
// its actions, as the web calls them.
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '@tribuna/drizzle/client';
import type { ModerationActionInput, ModerationActionResult, ModerationQueue, ModerationQueueQuery, ReportInput } from '@tribuna/contracts/api/moderation';
import type { App } from '../../../server/src/app-types.ts';
import type { RateLimitRule } from '../../../server/src/http/rateLimits.ts';
import { buildUser } from '../factories.ts';
import { asUser, signIn, type SignInOptions } from './sessions.ts';

/** Wide enough that no test of these rules meets a limit (the new accounts' limits have their own test). */
export const WIDE: RateLimitRule = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } };

export const MODERATION_TEST_LIMITS = {
  'moderation.report': WIDE,
  'moderation.read': WIDE,
  'moderation.act': WIDE,
  'wall.read': WIDE,
  'wall.edit': WIDE,
  'wall.react': WIDE,
  'wall.post-create': WIDE,
  'wall.comment-create': WIDE,
  'notifications.read': WIDE,
  'profiles.read': WIDE,
  'account.read': WIDE,
  'admin.read': WIDE,
} as const;

/** Two days ago: an account old enough for its reports to count towards auto-hide. */
export const TRUSTED_AGE_MS = 2 * 86_400_000;

export type Person = Awaited<ReturnType<typeof buildUser>> & { headers: Record<string, string>; cookie: string };

/** A user with a live session; `trusted` backdates the account two days (its reports count towards auto-hide). */
export async function person(app: App, db: Db, options: { trusted?: boolean; signIn?: SignInOptions } & Parameters<typeof buildUser>[1] = {}): Promise<Person> {
  const { trusted, signIn: signInOptions, ...overrides } = options;
  const user = await buildUser(db, { ...(trusted ? { createdAt: new Date(Date.now() - TRUSTED_AGE_MS) } : {}), ...overrides });
  const session = await signIn(app, user, signInOptions);
  return { ...user, headers: asUser(session), cookie: session.cookie };
}

export function report(app: App, who: Person, input: Omit<ReportInput, 'reason'> & Partial<Pick<ReportInput, 'reason'>>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/reports', headers: who.headers, payload: { reason: 'spam', ...input } });
}

/** A report that must be accepted. */
export async function reported(app: App, who: Person, input: Omit<ReportInput, 'reason'> & Partial<Pick<ReportInput, 'reason'>>): Promise<string> {
  const res = await report(app, who, input);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

export function act(app: App, who: Person, input: ModerationActionInput): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/moderation/actions', headers: who.headers, payload: input });
}

/** An action that must succeed. */
export async function acted(app: App, who: Person, input: ModerationActionInput): Promise<ModerationActionResult> {
  const res = await act(app, who, input);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ModerationActionResult>();
}

export async function queue(app: App, who: Person, query: ModerationQueueQuery = {}): Promise<ModerationQueue> {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  const res = await app.inject({ method: 'GET', url: `/api/moderation/queue${search ? `?${search}` : ''}`, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ModerationQueue>();
}

export async function openCount(app: App, who: Person): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/moderation/count', headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ open: number }>().open;
}
