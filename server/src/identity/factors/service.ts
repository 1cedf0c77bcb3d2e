import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import type { Redis } from 'ioredis';
import type { AuthSession, Challenge, FactorEnrolment, FactorList, VerifyFactorInput } from '@tribuna/contracts/api/auth';
import type { DbOrTx } from '@tribuna/drizzle/client';
import * as accounts from '../accounts/repository.ts';
import { presentSignedIn } from '../auth/presenter.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { NOT_AUTHORIZED } from '../plugin.ts';
import * as profiles from '../profiles/service.ts';
import type { SessionCache } from '../sessions/cache.ts';
import * as sessions from '../sessions/service.ts';
import type { AuthUser, IssuedSession, SessionInfo } from '../sessions/service.ts';
import { giveBackAttempt, orUnavailable, takeAttempt } from './attempts.ts';
import { deleteChallenge, readChallenge, storeChallenge, type KeyFn } from './challenges.ts';
import { presentFactor } from './presenter.ts';
import * as repo from './repository.ts';
import type { FactorRow } from './repository.ts';
import { factorSecretAad, type SecretBox } from './secretBox.ts';
import { matchingStep, newTotpSecret, otpauthUri } from './totp.ts';

export const ALREADY_ENROLLED = 'Ya tienes la verificación en dos pasos activada';
export const INVALID_CODE = 'Código inválido';
export const INVALID_CHALLENGE = 'El código expiró. Solicita uno nuevo.';
export const FACTOR_NOT_FOUND = 'Factor not found';

export interface FactorContext {
  db: DbOrTx;
  redis: Redis;
  key: KeyFn;
  /** Encrypts the TOTP secrets stored in auth_factors, decrypts them to check a code. */
  secrets: SecretBox;
  /** The app's session cache: a replaced or downgraded session leaves it before its write. */
  sessionCache: SessionCache;
}

/** Where the request comes from, for the session a verification opens. */
export interface ClientInfo {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/** The factor, when it exists and belongs to `userId` (404 / 403 'Unauthorized' otherwise). */
async function ownedFactor(db: DbOrTx, userId: string, factorId: string): Promise<FactorRow> {
  const factor = await repo.findFactor(db, factorId);
  if (!factor) throw notFound(FACTOR_NOT_FOUND);
  if (factor.userId !== userId) throw forbidden(NOT_AUTHORIZED);
  return factor;
}

/**
 * A sign-in still owing its second factor may only use the user's verified factor; a full
 * session may use any factor of its user (confirming a new one included).
 */
async function factorForSession(db: DbOrTx, session: SessionInfo, factorId: string): Promise<FactorRow> {
  const factor = await ownedFactor(db, session.userId, factorId);
  if (session.mfaPending && factor.status !== 'verified') throw forbidden(NOT_AUTHORIZED);
  return factor;
}

/** GET /api/auth/factors */
export async function listFactors(db: DbOrTx, user: AuthUser): Promise<FactorList> {
  return { factors: (await repo.listFactors(db, user.id)).map(presentFactor) };
}

/**
 * POST /api/auth/factors: a new TOTP secret, unverified until its first code. One unverified
 * factor at a time (a new enrolment replaces it); refused once a verified factor exists. The
 * secret is shown this once; only its ciphertext is stored.
 */
export async function enrolFactor(context: FactorContext, user: AuthUser, now = new Date()): Promise<FactorEnrolment> {
  const { db } = context;
  const secret = newTotpSecret();
  const factor = await db.transaction(async (tx) => {
    if (await repo.findVerifiedFactor(tx, user.id)) throw badRequest(ALREADY_ENROLLED);
    await repo.deleteUnverifiedFactors(tx, user.id);
    // The id is chosen here because the ciphertext is bound to it.
    const id = randomUUID();
    const sealed = context.secrets.seal(secret, factorSecretAad({ id, userId: user.id }));
    return repo.insertFactor(tx, { id, userId: user.id, secret: sealed, createdAt: now });
  });
  const [profile, account] = await Promise.all([profiles.findProfile(db, user.id), accounts.findAccount(db, user.id)]);
  const label = profile?.username ?? account?.email ?? user.id;
  const uri = otpauthUri(secret, label);
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    id: factor.id,
    uri,
    secret,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`,
  };
}

/** POST /api/auth/factors/:id/challenge: valid five minutes, for this session only. */
export async function challengeFactor(context: FactorContext, session: SessionInfo, factorId: string): Promise<Challenge> {
  const factor = await factorForSession(context.db, session, factorId);
  const challenge = await orUnavailable(storeChallenge(context.redis, context.key, { factorId: factor.id, userId: session.userId, sessionId: session.id }));
  return { challengeId: challenge.id, expiresAt: challenge.expiresAt.toISOString() };
}

/**
 * Checks a code against a factor: it must be valid now (±1 step), for a step newer than the last
 * one accepted (no replay). Every check first spends one of the user's attempts (429 once they are
 * used up); the caller gives it back once the code is accepted. Returns the step, which the caller
 * consumes in its transaction.
 */
async function checkCode(context: FactorContext, factor: FactorRow, code: string, now: Date): Promise<number> {
  const secret = context.secrets.open(factor.secret, factorSecretAad(factor));
  await takeAttempt(context.redis, context.key, factor.userId);
  const step = matchingStep(secret, code, now.getTime());
  if (step === null || (factor.lastUsedStep !== null && step <= factor.lastUsedStep)) throw badRequest(INVALID_CODE);
  return step;
}

export interface VerifiedSession {
  authSession: AuthSession;
  /** The replacement session (aal2); its token goes into the cookie. */
  issued: IssuedSession;
}

/**
 * POST /api/auth/factors/:id/verify: a correct code confirms an unverified factor and raises the
 * session to aal2; for a sign-in owing its second factor, it completes the sign-in. The session is
 * replaced by a new one (new token) at the higher level. A wrong code never completes anything.
 */
export async function verifyFactor(
  context: FactorContext,
  session: SessionInfo,
  factorId: string,
  input: VerifyFactorInput,
  client: ClientInfo,
  now = new Date(),
): Promise<VerifiedSession> {
  const factor = await factorForSession(context.db, session, factorId);
  const challenge = await orUnavailable(readChallenge(context.redis, context.key, input.challengeId));
  if (!challenge || challenge.factorId !== factor.id || challenge.sessionId !== session.id) {
    throw badRequest(INVALID_CHALLENGE);
  }
  const step = await checkCode(context, factor, input.code, now);

  const issued = await context.db.transaction(async (tx) => {
    const consumed = await repo.consumeStep(tx, factor.id, step, now);
    if (!consumed) return null;
    return sessions.elevateSession(tx, context.sessionCache, session, client, now);
  });
  // Another request accepted the same code first.
  if (!issued) throw badRequest(INVALID_CODE);
  await giveBackAttempt(context.redis, context.key, factor.userId);
  // Committed already: a challenge left behind is bound to the replaced session and expires by itself.
  await deleteChallenge(context.redis, context.key, input.challengeId).catch(() => {});
  const profile = await profiles.findProfile(context.db, session.userId);
  if (!profile) throw notFound('Profile not found');
  return { authSession: presentSignedIn(profile), issued };
}

/**
 * DELETE /api/auth/factors/:id: removing a verified factor needs a fresh valid code; the user's
 * sessions drop to aal1 and sign-ins waiting for that factor are cancelled. An unverified factor
 * (an abandoned enrolment) goes without one.
 */
export async function unenrolFactor(context: FactorContext, user: AuthUser, factorId: string, code: string, now = new Date()): Promise<void> {
  const factor = await ownedFactor(context.db, user.id, factorId);
  if (factor.status !== 'verified') {
    await repo.deleteFactor(context.db, factor.id);
    return;
  }
  const step = await checkCode(context, factor, code, now);
  const removed = await context.db.transaction(async (tx) => {
    if (!(await repo.consumeStep(tx, factor.id, step, now))) return false;
    await repo.deleteFactor(tx, factor.id);
    await sessions.downgradeSessions(tx, context.sessionCache, user.id, now);
    return true;
  });
  if (!removed) throw badRequest(INVALID_CODE);
  await giveBackAttempt(context.redis, context.key, factor.userId);
}
