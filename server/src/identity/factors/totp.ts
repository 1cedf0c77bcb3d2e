import { Secret, TOTP } from 'otpauth';

export const TOTP_ISSUER = 'Tribuna';
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the previous and next time step are accepted too (clock drift of the phone). */
export const TOTP_WINDOW = 1;
/** 160-bit secrets, as RFC 4226 recommends for SHA1. */
const SECRET_BYTES = 20;

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totp(secret: string, label = 'Tribuna'): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** otpauth:// URI for authenticator apps. */
export function otpauthUri(secret: string, label: string): string {
  return totp(secret, label).toString();
}

/** The time step a code belongs to when it is valid now (±1 step), else null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const generator = totp(secret);
  const delta = generator.validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return generator.counter({ timestamp: now }) + delta;
}
