import { Type, type Static } from '@sinclair/typebox';
import { Profile } from './me.ts';
import { SafeText, Uuid } from './common.ts';
import { defineRoutes, NoContent } from '../route.ts';

/**
 * GET /api/auth/session: where the browser stands in the sign-in flow.
 * - signed_out: no session cookie, or it is expired / revoked.
 * - mfa_required: Google sign-in succeeded but the user has a verified TOTP factor and has not
 *   entered a code yet; `factorId` is the factor to challenge. The session is not full: every
 *   other authenticated route treats it as signed out.
 * - signed_in: a full session; `user` is the profile.
 */
export const AuthSession = Type.Object({
  status: Type.Union([Type.Literal('signed_out'), Type.Literal('mfa_required'), Type.Literal('signed_in')]),
  user: Type.Union([Profile, Type.Null()]),
  factorId: Type.Union([Uuid, Type.Null()]),
  /** The signed-in user's own e-mail (the admin area's header shows it); never anyone else's. */
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type AuthSession = Static<typeof AuthSession>;

/** POST /api/auth/factors: enrol a TOTP factor (status unverified until the first code). */
export const FactorEnrolment = Type.Object({
  id: Uuid,
  /** otpauth:// URI for authenticator apps. */
  uri: Type.String(),
  /** Base32 secret, shown for manual entry. */
  secret: Type.String(),
  /** QR code of `uri` as an SVG data URL. */
  qrCode: Type.String(),
});
export type FactorEnrolment = Static<typeof FactorEnrolment>;

export const Factor = Type.Object({
  id: Uuid,
  factorType: Type.Literal('totp'),
  status: Type.Union([Type.Literal('unverified'), Type.Literal('verified')]),
  createdAt: Type.String(),
});
export type Factor = Static<typeof Factor>;

/** GET /api/auth/factors */
export const FactorList = Type.Object({ factors: Type.Array(Factor) });
export type FactorList = Static<typeof FactorList>;

/** POST /api/auth/factors/:id/challenge → { challengeId } (valid 5 minutes). */
export const Challenge = Type.Object({ challengeId: Uuid, expiresAt: Type.String() });
export type Challenge = Static<typeof Challenge>;

/** The `:id` of the factor routes. */
export const FactorParams = Type.Object({ id: Uuid });

export const TotpCode = Type.String({ pattern: '^[0-9]{6}$' });

/** POST /api/auth/factors/:id/verify; DELETE /api/auth/factors/:id takes { code } too. */
export const VerifyFactorInput = Type.Object({ challengeId: Uuid, code: TotpCode }, { additionalProperties: false });
export type VerifyFactorInput = Static<typeof VerifyFactorInput>;

export const UnenrolFactorInput = Type.Object({ code: TotpCode }, { additionalProperties: false });
export type UnenrolFactorInput = Static<typeof UnenrolFactorInput>;

/** GET /api/auth/dev/users (only when DEV_LOGIN is on): demo users to act as. */
export const DevUser = Type.Object({
  id: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([Type.Literal('admin'), Type.Literal('moderator'), Type.Literal('user')]),
});
export const DevUserList = Type.Object({ users: Type.Array(DevUser) });
export type DevUserList = Static<typeof DevUserList>;

/** POST /api/auth/dev/login: act as an existing user (userId) or create one (displayName). */
export const DevLoginInput = Type.Union([
  Type.Object({ userId: Uuid }, { additionalProperties: false }),
  Type.Object({ displayName: SafeText({ minLength: 1, maxLength: 50 }) }, { additionalProperties: false }),
]);
export type DevLoginInput = Static<typeof DevLoginInput>;

export const AUTH_ROUTES = defineRoutes({
  authSession: {
    method: 'GET',
    path: '/api/auth/session',
    status: 200,
    tags: ['auth'],
    summary: 'Where this browser stands in the sign-in flow (never 401)',
    response: AuthSession,
    errors: [429],
    rateLimit: 'auth.session',
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    status: 204,
    tags: ['auth'],
    summary: 'Sign out: revokes the session and clears its cookie (also fine without a session)',
    response: NoContent,
    errors: [403, 429],
    rateLimit: 'auth.logout',
  },
  devUsers: {
    method: 'GET',
    path: '/api/auth/dev/users',
    status: 200,
    tags: ['auth'],
    summary: 'Demo users to act as (DEV_LOGIN only): admins first, then by name',
    response: DevUserList,
    errors: [403, 429],
    rateLimit: 'auth.dev-users',
  },
  devLogin: {
    method: 'POST',
    path: '/api/auth/dev/login',
    status: 200,
    tags: ['auth'],
    summary: 'Sign in as an existing user or a new one (DEV_LOGIN only); honours the second factor',
    body: DevLoginInput,
    response: AuthSession,
    errors: [400, 403, 404, 429],
    rateLimit: 'auth.dev-login',
  },
  listFactors: {
    method: 'GET',
    path: '/api/auth/factors',
    status: 200,
    tags: ['auth'],
    summary: 'The second factors of the signed-in user',
    response: FactorList,
    errors: [401, 429],
    rateLimit: 'factors.list',
    audience: 'user',
  },
  enrolFactor: {
    method: 'POST',
    path: '/api/auth/factors',
    status: 200,
    tags: ['auth'],
    summary: 'Enrol a TOTP factor (unverified until its first code); replaces an earlier unverified one',
    response: FactorEnrolment,
    errors: [400, 401, 403, 429],
    rateLimit: 'factors.enrol',
    audience: 'user',
  },
  factorChallenge: {
    method: 'POST',
    path: '/api/auth/factors/:id/challenge',
    status: 200,
    tags: ['auth'],
    summary: 'Open a challenge for a factor (valid 5 minutes); also during a sign-in owing its second factor',
    params: FactorParams,
    response: Challenge,
    errors: [400, 401, 403, 404, 429, 503],
    rateLimit: 'factors.challenge',
    audience: 'session',
  },
  verifyFactor: {
    method: 'POST',
    path: '/api/auth/factors/:id/verify',
    status: 200,
    tags: ['auth'],
    summary: 'Answer a challenge with a code: confirms the factor, raises the session to aal2, completes a pending sign-in',
    params: FactorParams,
    body: VerifyFactorInput,
    response: AuthSession,
    errors: [400, 401, 403, 404, 429, 503],
    rateLimit: 'factors.verify',
    audience: 'session',
  },
  deleteFactor: {
    method: 'DELETE',
    path: '/api/auth/factors/:id',
    status: 204,
    tags: ['auth'],
    summary: 'Remove a factor; a verified one needs a current code',
    params: FactorParams,
    body: UnenrolFactorInput,
    response: NoContent,
    errors: [400, 401, 403, 404, 429, 503],
    rateLimit: 'factors.unenrol',
    audience: 'user',
  },
});
