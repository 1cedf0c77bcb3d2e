import { timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { OidcMetadata } from './discovery.ts';

/** The signing keys are cached this long (the spec's "key set cached 10 minutes"). */
export const JWKS_CACHE_MAX_AGE_MS = 10 * 60 * 1000;
/** A token with an unknown `kid` refetches the key set, but not more often than this. */
export const JWKS_REFETCH_COOLDOWN_MS = 30 * 1000;
/** Allowed clock skew with the identity provider for exp / nbf / iat. */
export const CLOCK_TOLERANCE_SECONDS = 30;

/** Who the identity provider says signed in. */
export interface OidcIdentity {
  /** The configured issuer (one spelling per provider, whatever `iss` variant the token used). */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

export class IdTokenError extends Error {
  override readonly name = 'IdTokenError';
}

/** Google signs `iss` either with or without the scheme. */
function acceptedIssuers(issuer: string): string[] {
  const normalised = issuer.replace(/\/$/, '');
  const url = new URL(normalised);
  return url.hostname === 'accounts.google.com' ? [normalised, url.host] : [normalised];
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function stringClaim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export type IdTokenVerifier = (idToken: string, expectedNonce: string) => Promise<OidcIdentity>;

/**
 * Verifies id_tokens ourselves: signature against the issuer's key set (cached, refetched on an
 * unknown kid at most every 30 s), issuer, audience, expiry with a small tolerance, and the nonce
 * bound to this browser's sign-in attempt.
 */
export function createIdTokenVerifier(metadata: OidcMetadata, clientId: string, configuredIssuer: string): IdTokenVerifier {
  const keys = createRemoteJWKSet(new URL(metadata.jwksUri), {
    cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
    cooldownDuration: JWKS_REFETCH_COOLDOWN_MS,
    timeoutDuration: 5000,
  });
  const issuers = acceptedIssuers(metadata.issuer);

  return async (idToken, expectedNonce) => {
    const { payload } = await jwtVerify(idToken, keys, {
      issuer: issuers,
      audience: clientId,
      algorithms: metadata.idTokenAlgorithms,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const nonce = payload.nonce;
    if (typeof nonce !== 'string' || !sameString(nonce, expectedNonce)) throw new IdTokenError('nonce mismatch');
    // Several audiences: the token must have been issued to us (OpenID Connect Core §3.1.3.7).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) {
      throw new IdTokenError('azp is not our client');
    }
    const subject = stringClaim(payload, 'sub');
    if (!subject) throw new IdTokenError('empty subject');
    const verified = payload.email_verified;
    return {
      issuer: configuredIssuer.replace(/\/$/, ''),
      subject,
      email: stringClaim(payload, 'email'),
      emailVerified: verified === true || verified === 'true',
      name: stringClaim(payload, 'name'),
      picture: stringClaim(payload, 'picture'),
    };
  };
}
